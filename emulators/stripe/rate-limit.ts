import { LeakyBucket } from '../shopify/throttle'
import { stripeError, type Answer } from './http'

// Stripe's basic rate limiter (https://docs.stripe.com/rate-limits): requests per second per
// account, all of them together, and each endpoint (a named operation such as GET
// /v1/payment_intents/{id}, whatever the id) on its own as well. A request over either is
// answered 429 at Stripe's edge, before its endpoint or its idempotency key sees it: it did
// nothing. Each limit is a bucket holding a second's worth of requests, refilled as it drains.

export interface StripeRateLimits {
  /** Requests a second, every endpoint together. */
  perSecond: number
  /** Requests a second to any one endpoint. */
  perEndpointPerSecond: number
}

/** Live mode's limits. */
export const STRIPE_LIVE_RATE_LIMITS: StripeRateLimits = {
  perSecond: 100,
  perEndpointPerSecond: 25,
}
/** A sandbox's (test mode's). */
export const STRIPE_SANDBOX_RATE_LIMITS: StripeRateLimits = {
  perSecond: 25,
  perEndpointPerSecond: 25,
}

/** Stripe's answer to a rate-limited request; `reason` is its Stripe-Rate-Limited-Reason. */
export function rateLimited(
  reason: 'global-rate' | 'endpoint-rate',
  message = 'Request rate limit exceeded. Learn more about rate limits here https://docs.stripe.com/rate-limits.',
): Answer {
  const answer = stripeError(429, {
    type: 'invalid_request_error',
    code: 'rate_limit',
    doc_url: 'https://docs.stripe.com/error-codes/rate-limit',
    message,
  })
  return { ...answer, headers: { 'Stripe-Rate-Limited-Reason': reason } }
}

/** The emulator's one platform account's limits. */
export class RateLimiter {
  private readonly all: LeakyBucket
  private readonly endpoints = new Map<string, LeakyBucket>()

  constructor(
    private readonly limits: StripeRateLimits,
    private readonly now: () => number,
  ) {
    this.all = this.bucket(limits.perSecond)
  }

  /** Counts a request to `endpoint`: undefined when it may go on, else Stripe's 429. */
  admit(endpoint: string): Answer | undefined {
    const bucket = this.endpoints.get(endpoint) ?? this.bucket(this.limits.perEndpointPerSecond)
    this.endpoints.set(endpoint, bucket)
    if (!bucket.take(1)) return rateLimited('endpoint-rate')
    if (this.all.take(1)) return undefined
    // Refused as a whole: the endpoint's count is given back.
    bucket.refund(1)
    return rateLimited('global-rate')
  }

  private bucket(perSecond: number): LeakyBucket {
    return new LeakyBucket({ maximumAvailable: perSecond, restoreRate: perSecond }, this.now)
  }
}
