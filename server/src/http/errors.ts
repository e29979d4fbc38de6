import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ERROR_CODES } from '@shared/contract'
import { DatabaseBusyError, DatabaseFullError } from '../db/connect'
import {
  DATABASE_AWAY_RETRY_AFTER_SECONDS,
  DatabaseAwayError,
  loggableDatabaseError,
} from '../db/database-away'
import { Refusal, type RefusalKind } from '../domain/errors'
import { SecretUnreadableError } from '../secrets'

type ErrorStatus = keyof typeof ERROR_CODES

/** An answer the caller should see as it is: status and a sentence for a person. */
export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/** The caller's connection closed before the answer was all sent: nobody reads what follows. */
export class CallerLeftError extends Error {
  override name = 'CallerLeftError'
  constructor() {
    super('The caller stopped waiting for the answer')
  }
}

/** The status of each kind of refusal a service makes. */
const REFUSAL_STATUS: Record<RefusalKind, ErrorStatus> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  business_rule: 422,
  upstream_failed: 502,
}

const INTERNAL_MESSAGE = 'Something went wrong on the Tandem server'
const SECRET_UNREADABLE =
  'Tandem cannot check Shopify’s signature for this shop right now: try again later'

/** Fastify's own refusals, reworded; every one is the caller's input, so a 400. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The request body must be JSON (Content-Type: application/json)',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but says it is JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length',
}

/**
 * Fastify's refusals before routing (a malformed %-escape) never reach setErrorHandler: buildApp
 * passes this as its frameworkErrors option, so that they answer like every other error.
 */
export const answerFrameworkError = (
  _error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply =>
  reply.status(400).send({ error: ERROR_CODES[400], message: 'The request URL is malformed' })

/** Every error answers `{ error, message }`; never a stack trace, never a 500 for bad input. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | HttpError | Refusal, request, reply) => {
    const error =
      thrown instanceof Refusal
        ? new HttpError(REFUSAL_STATUS[thrown.kind], thrown.message)
        : thrown
    if (error instanceof HttpError) {
      return reply
        .status(error.status)
        .send({ error: ERROR_CODES[error.status], message: error.message })
    }
    if (error instanceof CallerLeftError) {
      // Nobody reads this answer: said for the request's log, not logged as a failure.
      return reply.status(503).send({ error: ERROR_CODES[503], message: error.message })
    }
    if (error instanceof DatabaseBusyError) {
      return reply
        .status(503)
        .header('retry-after', '1')
        .send({ error: ERROR_CODES[503], message: error.message })
    }
    if (error instanceof DatabaseFullError) {
      request.log.error({ err: error.cause }, 'the database’s disk is full')
      return reply.status(507).send({ error: ERROR_CODES[507], message: error.message })
    }
    if (error instanceof DatabaseAwayError) {
      // Whatever the request began was committed whole or not at all: asking again is safe.
      if (error.cause) {
        request.log.warn({ cause: loggableDatabaseError(error.cause) }, 'the database is away')
      }
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_AWAY_RETRY_AFTER_SECONDS))
        .send({ error: ERROR_CODES[503], message: error.message })
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .status(413)
        .send({ error: ERROR_CODES[413], message: 'The request body is too large' })
    }
    if (error instanceof SecretUnreadableError) {
      // The server's own data, not the caller's input. Said as it is (it names no secret) to a
      // signed-in admin, who can mend it; to Shopify's unsigned calls, a passing outage (503,
      // which Shopify retries) with no detail, the reason going to the log only.
      request.log.error({ err: error }, 'a stored secret does not open')
      if (!request.adminEmail) {
        return reply.status(503).send({ error: ERROR_CODES[503], message: SECRET_UNREADABLE })
      }
      return reply.status(500).send({ error: 'internal', message: error.message })
    }
    const frameworkMessage =
      FRAMEWORK_MESSAGES[error.code] ??
      (isJsonSyntaxError(error) ? FRAMEWORK_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY : undefined)
    if (frameworkMessage || (error.statusCode && error.statusCode < 500)) {
      return reply
        .status(400)
        .send({ error: ERROR_CODES[400], message: frameworkMessage ?? 'The request is malformed' })
    }
    request.log.error({ err: error }, 'request failed')
    return reply.status(500).send({ error: 'internal', message: INTERNAL_MESSAGE })
  })
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: ERROR_CODES[404],
      message: `There is no ${request.method} ${request.url.split('?')[0]}`,
    }),
  )
}

const isJsonSyntaxError = (error: Error) => error instanceof SyntaxError
