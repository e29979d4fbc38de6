// What a service refuses, in the service's terms; src/http/errors.ts answers each kind with its
// HTTP status, so services know nothing of HTTP.

export type RefusalKind =
  /** The caller's input is wrong: 400. */
  | 'invalid_input'
  | 'not_found'
  /** It exists already, is done already, or another request is doing it: 409. */
  | 'conflict'
  /** A money or marketplace rule says no: 422. */
  | 'business_rule'
  /** Shopify or Stripe failed or did not answer: 502. */
  | 'upstream_failed'

export class Refusal extends Error {
  override name = 'Refusal'

  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message)
  }
}
