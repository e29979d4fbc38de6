import { STATUS_CODES } from 'node:http'
import ky, { HTTPError } from 'ky'
import { calls } from '@shared/contract/calls'
import type { CallAnswer, CallBody, CallName, CallQuery, CallShape } from '@shared/contract/calls'
import { ErrorBody } from '@shared/contract/errors'
import { UserFacingError } from '../errors'
import { parseJson } from '../parse-json'
import type { FetchPort, Logger } from '../ports'

export interface ApiClientOptions {
  baseUrl: () => string
  session: { idToken(): Promise<string | null>; forceRefresh(): Promise<string | null> }
  log: Logger
  /** Electron injects `net.fetch` (the session's cookies and proxy); default `globalThis.fetch`. */
  fetch?: FetchPort
  /**
   * Per attempt, and again for reading the answer's body. Default 30 s (docs/product-rules.md
   * "Deliberate departures from the specification").
   */
  timeoutMs?: number
}

export type CallRequest<N extends CallName> = {
  query?: CallQuery<N>
  params?: { shop: string }
  body?: CallBody<N>
}

export interface ApiClient {
  call<N extends CallName>(name: N, request?: CallRequest<N>): Promise<CallAnswer<N>>
}

/** A failed call, worded for a toast: `Failed to {action}: {reason}`. */
export class ApiError extends UserFacingError {
  declare readonly reason: string

  constructor(
    readonly action: string,
    reason: string,
    /** The HTTP status, or null when no complete answer arrived. */
    readonly status: number | null,
  ) {
    super(`Failed to ${action}: ${reason}`, reason)
    this.name = 'ApiError'
  }
}

const DEFAULT_TIMEOUT_MS = 30_000
/**
 * A product sync answers when it is done: a large store read in bulk takes Shopify minutes, and a
 * person watches its progress meanwhile (the stores list polls it), so it is given far longer.
 */
const PRODUCT_SYNC_TIMEOUT_MS = 15 * 60_000
const SESSION_EXPIRED = 'the server did not accept your sign-in; sign out and sign in again'
const UNEXPECTED_ANSWER = 'the server sent an unexpected answer'
// Only idempotent reads are repeated. DELETE is idempotent for HTTP but not for a person: a
// retried delete that had gone through would report "not found" for a row that was deleted.
const RETRY = {
  limit: 2,
  methods: ['get' as const],
  statusCodes: [408, 429, 502, 503, 504],
  afterStatusCodes: [429, 503],
  // ky waits as long as Retry-After says by default; a person is watching a spinner.
  maxRetryAfter: 5_000,
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { session, log } = options
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const api = ky.create({
    // One deadline for the whole call (below): ky's own timeout would start again at each retry.
    timeout: false,
    credentials: 'include',
    retry: RETRY,
    fetch: options.fetch,
    hooks: {
      beforeRetry: [
        ({ request, error, retryCount }) => {
          const cause = error instanceof HTTPError ? statusLine(error.response.status) : error.name
          log.warn(
            `${request.method} ${new URL(request.url).pathname}: retry ${retryCount} (${cause})`,
          )
        },
      ],
    },
  })

  async function call<N extends CallName>(
    name: N,
    request: CallRequest<N> = {},
  ): Promise<CallAnswer<N>> {
    const spec: CallShape = calls[name]
    const action = spec.action
    const label = `${spec.method} ${spec.path}`
    const fail = (reason: string, status: number | null): ApiError => {
      const error = new ApiError(action, reason, status)
      log.warn(`${label}: ${error.message}`)
      return error
    }

    const baseUrl = options.baseUrl()
    if (!URL.canParse(baseUrl))
      throw fail(`the server address "${baseUrl}" is not a valid URL`, null)
    const url = baseUrl.replace(/\/+$/, '') + fillPath(spec.path, request.params)
    // Everything the call does, retries, a resend after a 401 and reading the answer, fits in it.
    const timeoutMs = name === 'adminUpdateProducts' ? PRODUCT_SYNC_TIMEOUT_MS : defaultTimeoutMs
    const timedOut = `the server did not answer within ${describeDuration(timeoutMs)}`
    const deadline = AbortSignal.timeout(timeoutMs)

    const send = async (token: string | null): Promise<Response> => {
      const headers: Record<string, string> = {
        accept: spec.response ? 'application/json' : (spec.fileType ?? '*/*'),
      }
      if (token) headers.authorization = `Bearer ${token}`
      try {
        return await api(url, {
          method: spec.method,
          headers,
          searchParams: searchParams(request.query),
          json: request.body,
          signal: deadline,
        })
      } catch (error) {
        // Retries are spent: the last error answer is read like any other.
        if (error instanceof HTTPError) return answerOf(error)
        if (deadline.aborted) throw fail(timedOut, null)
        log.error(`${label}: could not reach ${baseUrl}`, error)
        throw fail(`could not reach the server at ${baseUrl}`, null)
      }
    }

    const read = async <T>(response: Response, body: (response: Response) => Promise<T>) => {
      try {
        return await body(response)
      } catch {
        throw fail(deadline.aborted ? timedOut : "the server's answer was cut off", null)
      }
    }

    const token = async (get: () => Promise<string | null>): Promise<string | null> => {
      try {
        return await get()
      } catch (error) {
        // The session service words its own failures; anything else means signing in again.
        throw fail(
          error instanceof UserFacingError ? (error.reason ?? error.message) : SESSION_EXPIRED,
          null,
        )
      }
    }

    let response = await send(await token(() => session.idToken()))
    // A 401 is answered before the server does anything, so even a POST may be sent again.
    if (response.status === 401) {
      discard(response)
      log.info(`${label}: 401, refreshing the session once`)
      const fresh = await token(() => session.forceRefresh())
      if (!fresh) throw fail(SESSION_EXPIRED, 401)
      response = await send(fresh)
      if (response.status === 401) {
        discard(response)
        throw fail(SESSION_EXPIRED, 401)
      }
    }

    if (!response.ok) {
      const text = await read(response, (r) => r.text())
      const body = ErrorBody.safeParse(parseJson(text))
      const reason =
        body.success && body.data.message.trim() !== ''
          ? body.data.message
          : `the server answered ${statusLine(response.status, response.statusText)}`
      throw fail(reason, response.status)
    }

    if (spec.exactStatus && response.status !== spec.status) {
      discard(response)
      const answered = statusLine(response.status, response.statusText)
      throw fail(
        `the server answered ${answered} instead of ${statusLine(spec.status)}`,
        response.status,
      )
    }

    if (!spec.response) {
      // A file (the receipt PDF, the CSV export): its bytes, once its type is the one expected.
      const type = response.headers.get('content-type') ?? ''
      const expected = mediaType(spec.fileType ?? '')
      if (mediaType(type) !== expected) {
        discard(response)
        throw fail(
          `the server sent ${type ? `"${type}"` : 'an untyped answer'}, not ${FILE_KINDS[expected] ?? expected}`,
          response.status,
        )
      }
      const bytes = await read(response, (r) => r.arrayBuffer())
      return new Uint8Array(bytes) as CallAnswer<N>
    }

    const text = await read(response, (r) => r.text())
    const parsed = spec.response.safeParse(parseJson(text))
    if (!parsed.success) {
      // Paths and codes only: the values may be anybody's data.
      const issues = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || '(root)'} ${issue.code}`,
      )
      log.warn(`${label}: answer did not match the contract at ${issues.join(', ')}`)
      throw fail(UNEXPECTED_ANSWER, response.status)
    }
    // `calls[name].response` is the schema `CallAnswer<N>` is derived from.
    return parsed.data as CallAnswer<N>
  }

  return { call }
}

function fillPath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params?.[key]
    if (value === undefined) throw new Error(`${path} needs the path parameter "${key}"`)
    return encodeURIComponent(value)
  })
}

/** The server reads a missing parameter as "any": never send null as the string "null". */
function searchParams(query: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query && typeof query === 'object' ? query : {})
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  )
}

// HTTP/2 answers carry no reason phrase; fall back on the standard one.
function statusLine(status: number, statusText = ''): string {
  return `${status} ${statusText || STATUS_CODES[status] || ''}`.trim()
}

function describeDuration(ms: number): string {
  if (ms % 1000 !== 0) return `${ms} milliseconds`
  return ms === 1000 ? '1 second' : `${ms / 1000} seconds`
}

/**
 * The error answer as the server sent it. ky (2 and later) reads an error answer's body itself,
 * into `data` (JSON parsed, other types as text, undefined when empty or unreadable), leaving the
 * response's own body used.
 */
function answerOf({ response, data }: HTTPError): Response {
  const body = data === undefined ? null : typeof data === 'string' ? data : JSON.stringify(data)
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}

/** Frees the connection of an answer whose body will not be read. */
function discard(response: Response): void {
  void response.body?.cancel().catch(() => undefined)
}

const mediaType = (contentType: string) => contentType.split(';')[0]?.trim().toLowerCase() ?? ''

/** How a person calls each kind of file the server sends. */
const FILE_KINDS: Record<string, string> = { 'application/pdf': 'a PDF', 'text/csv': 'a CSV file' }
