import { stripeError, type Answer } from './http'
import type { Runtime } from './state'

// Stripe's idempotent requests (https://docs.stripe.com/api/idempotent_requests): once the endpoint
// of a POST with an Idempotency-Key began, its status and body are saved, 500s included, and
// replayed to every later request with the key for 24 hours; then the key is forgotten. Requests
// refused before the endpoint began (validation, a concurrent request with the key) save nothing.

const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000

/** The request's parameters in a canonical form: decoded pairs, in no particular order. */
export const fingerprint = (form: URLSearchParams): string =>
  JSON.stringify([...form].map((pair) => JSON.stringify(pair)).sort())

/** What a request's key settles before its endpoint runs. */
export type Claim =
  /** A replay of the saved answer, or a refusal of the key. */
  | { answer: Answer }
  /** The endpoint may run: `save` its answer once it began, or `release` the key if it did not. */
  | { save(answer: Answer): void; release(): void }

const UNCLAIMED: Claim = { save: () => {}, release: () => {} }

export class Idempotency {
  /** Keys whose first request is still running; a restart forgets them along with the requests. */
  private readonly running = new Set<string>()

  constructor(private readonly runtime: Runtime) {}

  claim(
    request: { method: string; path: string; key: string | null; params: string },
    requestId: string,
  ): Claim {
    // GETs are idempotent by nature; Stripe ignores their keys.
    if (request.method !== 'POST' || request.key === null) return UNCLAIMED
    const { key, params } = request
    const scope = `${request.method} ${request.path} ${key}`
    const saved = this.runtime.state.idempotency
    const now = this.runtime.now().getTime()
    for (const [other, response] of Object.entries(saved))
      if (now - response.savedAt >= KEY_LIFETIME_MS) delete saved[other]

    if (this.running.has(scope)) {
      const message =
        'There is currently another in-progress request using this Stripe-Account, ' +
        'Idempotency-Key, and API key combination. Please try again later.'
      return { answer: stripeError(409, { type: 'idempotency_error', message }) }
    }
    const first = saved[scope]
    if (first && first.params !== params) {
      const message =
        'Keys for idempotent requests can only be used with the same parameters they were first ' +
        `used with. Try using a key other than '${key}' if you meant to execute a different request.`
      return { answer: stripeError(400, { type: 'idempotency_error', message }) }
    }
    if (first) {
      const headers: Record<string, string> = {
        'Idempotent-Replayed': 'true',
        'Original-Request': first.requestId,
        // Asking again under the key would only replay the same answer.
        'Stripe-Should-Retry': 'false',
      }
      return { answer: { status: first.status, headers, body: first.body } }
    }

    this.running.add(scope)
    return {
      save: (answer) => {
        this.running.delete(scope)
        saved[scope] = { params, status: answer.status, body: answer.body, requestId, savedAt: now }
        this.runtime.save()
      },
      release: () => void this.running.delete(scope),
    }
  }
}
