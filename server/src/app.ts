import Fastify, {
  LogController,
  type FastifyReply,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify'
import { isAdministrator, SignInServiceUnavailableError, TokenRejectedError } from './auth/verify'
import { DATABASE_AWAY, DatabaseAwayError } from './db/database-away'
import type { AppDeps } from './deps'
import { answerFrameworkError, HttpError, installErrorHandling } from './http/errors'
import { registerRoutes } from './routes'
import { createPreviewCache, PREVIEW_CACHE_LIMITS } from './transfers/preview-cache'

/**
 * Paths without an admin token: the health check, product images (an <img> sends no bearer), and
 * what Shopify calls (the install and its callback, webhooks), which check Shopify's signature.
 */
const PUBLIC_PATHS = [/^\/healthz$/, /^\/images\//, /^\/shopify\//, /^\/webhooks\/shopify$/]

const BODY_LIMIT_BYTES = 1_000_000

/**
 * A request must arrive whole, headers and body, within this time: a client that trickles it or
 * stops half way (a slow-loris) is answered 408 and its connection closed. Handlers have no time
 * limit of the server's own (a transfer sends nothing while its remote calls run, under deadlines
 * of their own); idle keep-alive connections close after Fastify's keepAliveTimeout (72 s).
 */
export const REQUEST_TIMEOUT_MS = 30_000

export const SIGN_IN_SERVICE_UNREACHABLE =
  'The sign-in service (Firebase Authentication) could not be reached to check your sign-in: try again in a moment'

/** Fastify's request lines, the ordinary ones at debug; a failed request's still as an error. */
class RequestsAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request')
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) return super.requestCompleted(error, request, reply)
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed')
  }
}

/**
 * The Tandem server, built from its parts and testable without a port (app.inject). `listen` and
 * `inject` make it ready; until then a caller may add to it (the benchmark adds its ceiling route).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const requestTimeoutMs = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS
  const app = Fastify({
    logger: deps.logger
      ? {
          serializers: {
            // No headers (the bearer token), and no query on Shopify's install and callback paths,
            // which carry a code, a state and a signature.
            req: (request: FastifyRequest) => ({
              method: request.method,
              url: request.url.startsWith('/shopify/') ? request.url.split('?')[0] : request.url,
              remoteAddress: request.ip,
            }),
          },
        }
      : false,
    ...(deps.logger?.requests === 'debug' ? { logController: new RequestsAtDebug() } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.trustedProxies ?? false,
    requestTimeout: requestTimeoutMs,
    // Node checks for late requests this often (30 s unless said); headers count in the request.
    http: {
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(requestTimeoutMs / 2, 30_000),
    },
    // While closing, new requests are answered 503.
    return503OnClosing: true,
    // Refuse rather than quietly coerce: "10abc" is not a number.
    ajv: { customOptions: { coerceTypes: false } },
    frameworkErrors: answerFrameworkError,
  })
  installErrorHandling(app)

  app.decorateRequest('adminEmail', null)
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? ''
    // Refused at once, rather than held until its first query gives up; the health check says why.
    if (deps.database?.away() && path !== '/healthz') throw new DatabaseAwayError()
    if (PUBLIC_PATHS.some((pattern) => pattern.test(path))) return
    const header = request.headers.authorization
    const token = header?.match(/^Bearer (\S+)$/)?.[1]
    if (!token) {
      throw new HttpError(
        401,
        'Sign in first: send a Firebase ID token as "Authorization: Bearer …"',
      )
    }
    const user = await deps.verifier.verify(token).catch((error: unknown) => {
      if (error instanceof TokenRejectedError) throw new HttpError(401, error.message)
      // An outage is not the caller's fault: "sign in again" would not help them.
      const cause = error instanceof SignInServiceUnavailableError ? error.message : String(error)
      request.log.warn({ cause }, 'the sign-in service could not verify a token')
      throw new HttpError(503, SIGN_IN_SERVICE_UNREACHABLE)
    })
    if (!isAdministrator(user, deps.adminEmails)) {
      throw new HttpError(403, 'This account is not a Tandem administrator')
    }
    // Who made a change, for the audit log and the transfer history.
    request.adminEmail = user.email
  })

  // Once the server is closing, each answer in flight closes its connection after it: a client
  // keeping the connection alive would otherwise hold the close (and a deploy) open.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close')
    return payload
  })

  // Asked every few seconds by the container's health check: not worth two log lines each time.
  app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) =>
    deps.database?.away()
      ? reply.status(503).send({ status: 'database-away', message: DATABASE_AWAY })
      : { status: 'ok' },
  )
  const now = deps.now ?? (() => new Date())
  // On the app's clock, as everything else that expires: a test that holds the clock holds it.
  registerRoutes(app, {
    ...deps,
    now,
    previewCache: createPreviewCache(PREVIEW_CACHE_LIMITS, () => now().getTime()),
  })
  return app
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in administrator's email; null on public paths (and for an email-less admin). */
    adminEmail: string | null
  }
}
