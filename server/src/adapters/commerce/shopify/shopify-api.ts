import { createAdminApiClient, type AdminApiClient } from '@shopify/admin-api-client'
import { setTimeout as sleep } from 'node:timers/promises'
import { CommerceError } from '../commerce-port'
import { shopOrigin, SHOPIFY_API_VERSION } from './shopify-endpoint'

// The one way the server calls a shop's Admin GraphQL API: @shopify/admin-api-client with its own
// retries off (it reads Retry-After as milliseconds and does not know THROTTLED), wrapped by a
// caller that knows Shopify's rate limits. Calls to one shop queue behind each other, since they
// share its cost bucket; calls to different shops run side by side.

/** Where a shop's access token comes from, and where a rejected one is reported. */
export interface ShopTokens {
  accessToken(shop: string): Promise<string>
  /** Shopify answered 401 to this token: the next accessToken gets a new one. */
  rejected(shop: string, token: string): void
}

export interface ShopifyApiOptions {
  /** TANDEM_SHOPIFY_ENDPOINT: the emulator that stands in for every shop; null for Shopify. */
  endpoint: string | null
  tokens: ShopTokens
  /** How long one HTTP request may take before it counts as a lost answer. */
  requestTimeoutMs?: number
  /** Waits, cut short (resolving) when `signal` aborts; the tests measure them. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>
  random?: () => number
}

export interface ShopifyApi {
  /**
   * Runs one query or mutation (the document's first word says which) and answers its data.
   * Once `signal` aborts, nothing more is sent: a call waiting out a rate limit or a retry's
   * backoff fails as not sent at once, and one still queued behind the shop's other calls when its
   * turn comes, sending nothing, rather than land (a mutation) or be read (a query) after its
   * caller has moved on.
   */
  request<T>(
    shop: string,
    document: string,
    variables?: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<T>
}

interface ThrottleStatus {
  maximumAvailable: number
  currentlyAvailable: number
  restoreRate: number
}

interface Cost {
  requestedQueryCost?: number
  throttleStatus?: ThrottleStatus
}

/** Queries are resent after a server error or a lost connection, this many times in all. */
const QUERY_ATTEMPTS = 4
/** THROTTLED and 429 answers mean nothing was done: waiting and resending is always safe. */
const THROTTLE_ATTEMPTS = 20
const SERVER_ERROR_BACKOFF_MS = 250
/** At most this much is added to a computed wait, so that queued callers do not all wake at once. */
const MAX_JITTER_MS = 50
/** A Retry-After beyond this is taken as this: one answer must not hold a shop's queue for hours. */
const MAX_RETRY_AFTER_S = 60

export function createShopifyApi(options: ShopifyApiOptions): ShopifyApi {
  const wait =
    options.wait ??
    ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => undefined))
  const random = options.random ?? Math.random
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000
  const queues = new Map<string, Promise<unknown>>()

  // One client per shop, made again only when its token changes.
  const clients = new Map<string, { accessToken: string; client: AdminApiClient }>()
  const clientFor = (shop: string, accessToken: string) => {
    const known = clients.get(shop)
    if (known?.accessToken === accessToken) return known.client
    const client = createAdminApiClient({
      storeDomain: shop,
      apiVersion: SHOPIFY_API_VERSION,
      accessToken,
      retries: 0,
      // The client only knows https://{shop}; the emulator serves every shop under its own URL.
      customFetchApi: (url, init) =>
        fetch(String(url).replace(`https://${shop}`, shopOrigin(shop, options.endpoint)), init),
      // Without a logger it warns on the console about versions newer than it knows.
      logger: () => {},
    })
    clients.set(shop, { accessToken, client })
    return client
  }

  const jitter = () => random() * MAX_JITTER_MS

  async function send<T>(
    shop: string,
    document: string,
    variables: Record<string, unknown> | undefined,
    signal: AbortSignal | undefined,
  ) {
    const isMutation = /^\s*mutation\b/.test(document)
    const operation = /^\s*(?:query|mutation)\s+(\w+)/.exec(document)?.[1] ?? 'request'
    let renewedToken = false
    let serverErrors = 0
    const notSent = () =>
      new CommerceError(`${operation} for ${shop} was not sent: its caller stopped waiting`)
    for (let throttled = 0; ;) {
      if (signal?.aborted) throw notSent()
      const token = await options.tokens.accessToken(shop)
      if (signal?.aborted) throw notSent()
      const answer = await withRequestTimeout(requestTimeoutMs, signal, (bounded) =>
        clientFor(shop, token).request<T>(document, { variables, signal: bounded }),
      )
      const status = answer.errors?.networkStatusCode
      if (status === 401 && !renewedToken) {
        // A token revoked or expired early: Shopify did nothing, so one resend with a new one.
        options.tokens.rejected(shop, token)
        renewedToken = true
        continue
      }
      if (status === 401) {
        throw new CommerceError(`Shopify refused the access token of ${shop} (401) twice`)
      }
      if (status === 429 && ++throttled < THROTTLE_ATTEMPTS) {
        const retryAfter = Number(answer.errors?.response?.headers.get('Retry-After'))
        const seconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1
        await wait(Math.min(seconds, MAX_RETRY_AFTER_S) * 1000, signal)
        continue
      }
      const throttleWait = throttledWaitMs(answer.errors?.graphQLErrors, answer.extensions)
      if (throttleWait !== null && ++throttled < THROTTLE_ATTEMPTS) {
        await wait(throttleWait + jitter(), signal)
        continue
      }
      const unanswered = status === undefined || status >= 500
      if (answer.errors && unanswered) {
        const reason = status ? `HTTP ${status}` : answer.errors.message
        if (isMutation) {
          // The mutation may have been done: the caller reconciles rather than resend it.
          throw new CommerceError(
            `Shopify did not answer ${operation} for ${shop} (${reason}); whether it was done is unknown`,
          )
        }
        if (++serverErrors < QUERY_ATTEMPTS) {
          await wait(SERVER_ERROR_BACKOFF_MS * 2 ** (serverErrors - 1) + jitter(), signal)
          continue
        }
        throw new CommerceError(`Shopify did not answer ${operation} for ${shop} (${reason})`)
      }
      if (answer.errors) {
        const messages = answer.errors.graphQLErrors?.map((error) => error.message) ?? []
        const detail = messages.length > 0 ? messages.join('; ') : answer.errors.message
        throw new CommerceError(`Shopify refused ${operation} for ${shop}: ${detail}`)
      }
      return answer.data as T
    }
  }

  return {
    request<T>(
      shop: string,
      document: string,
      variables?: Record<string, unknown>,
      requestOptions: { signal?: AbortSignal } = {},
    ) {
      const previous = queues.get(shop) ?? Promise.resolve()
      const call = previous.then(() => send<T>(shop, document, variables, requestOptions.signal))
      const tail = call.catch(() => {})
      queues.set(shop, tail)
      // The queue of a shop nobody calls any more is dropped, not kept for ever.
      void tail.then(() => {
        if (queues.get(shop) === tail) queues.delete(shop)
      })
      return call
    },
  }
}

/**
 * One HTTP request, aborted after `ms` or when `signal` aborts. Its timer is cleared as soon as
 * it answers: AbortSignal.timeout's stays armed for the whole `ms` after the answer, so that under
 * load a timer and its signal were pending for every request of the last 30 s.
 */
async function withRequestTimeout<T>(
  ms: number,
  signal: AbortSignal | undefined,
  request: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timeout = new AbortController()
  const timer = setTimeout(
    () => timeout.abort(new DOMException('The request timed out', 'TimeoutError')),
    ms,
  )
  try {
    return await request(signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal)
  } finally {
    clearTimeout(timer)
  }
}

/**
 * For a THROTTLED answer, how long until the bucket holds what the request asked for:
 * (requested − available) / restoreRate seconds. Null for any other answer.
 */
function throttledWaitMs(
  errors: { extensions?: { code?: unknown } }[] | undefined,
  extensions: Record<string, unknown> | undefined,
): number | null {
  if (!errors?.some((error) => error.extensions?.code === 'THROTTLED')) return null
  const cost = extensions?.cost as Cost | undefined
  const status = cost?.throttleStatus
  if (!status || cost.requestedQueryCost === undefined || status.restoreRate <= 0) return 1000
  const missing = cost.requestedQueryCost - status.currentlyAvailable
  return Math.max(0, (missing / status.restoreRate) * 1000)
}
