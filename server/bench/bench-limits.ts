import type { ShopifyEmulator } from '../../emulators/shopify/emulator'
import { STRIPE_LIVE_RATE_LIMITS, type StripeEmulator } from '../../emulators/stripe/emulator'

// The rate limits the load test and the pipeline hold the server to, enforced by the emulators
// as the services enforce them, and what a run asked of them. Stripe's live mode
// (https://docs.stripe.com/rate-limits: 100 requests a second per account, 25 to any one endpoint;
// a sandbox's 25 a second would measure the pacer, not the server: emulators/stripe/rate-limit.ts
// enforces either); Shopify's standard plan (each shop's bucket of GraphQL points and its restore
// rate: emulators/shopify/throttle.ts).

export { STRIPE_LIVE_RATE_LIMITS }

/** Shopify's standard plan: each shop's bucket of GraphQL points and its restore rate. */
export const SHOPIFY_STANDARD = { maximumAvailable: 2000, restoreRate: 100 }

/**
 * The server's settings that pace it to Stripe's live limits whatever its key: the emulator's key
 * is a test key, under which the server would pace itself to a sandbox's.
 */
export const STRIPE_LIVE_PACING: Record<string, string> = {
  TANDEM_STRIPE_REQUESTS_PER_SECOND: String(STRIPE_LIVE_RATE_LIMITS.perSecond),
  TANDEM_STRIPE_ENDPOINT_REQUESTS_PER_SECOND: String(STRIPE_LIVE_RATE_LIMITS.perEndpointPerSecond),
}

/** The limits in words, for a benchmark's heading. */
export const STRIPE_LIMITS_DESCRIPTION =
  `Stripe's live limits (${STRIPE_LIVE_RATE_LIMITS.perSecond}/s, ` +
  `${STRIPE_LIVE_RATE_LIMITS.perEndpointPerSecond}/s per endpoint)`
export const SHOPIFY_LIMITS_DESCRIPTION =
  `Shopify's standard cost limits (${SHOPIFY_STANDARD.maximumAvailable.toLocaleString('en-US')} ` +
  `points, ${SHOPIFY_STANDARD.restoreRate}/s per shop)`
export const LIMITS_DESCRIPTION = `${STRIPE_LIMITS_DESCRIPTION}; ${SHOPIFY_LIMITS_DESCRIPTION}`

/**
 * What was asked of the rate limits: Stripe's requests by endpoint (429s aside: they did
 * nothing), Shopify's points by shop.
 */
export interface Asked {
  stripe: Map<string, number>
  points: Map<string, number>
}

/** What the emulators were asked so far by `shops`, or since `before` when given. */
export function askedSince(
  emulators: { shopify: ShopifyEmulator; stripe: StripeEmulator },
  shops: string[],
  before?: Asked,
): Asked {
  const stripe = new Map<string, number>()
  for (const call of emulators.stripe.calls()) {
    if (call.status === 429) continue
    const endpoint = call.operation ?? `${call.method} ${call.path}`
    stripe.set(endpoint, (stripe.get(endpoint) ?? 0) + 1)
  }
  const points = new Map(shops.map((shop) => [shop, emulators.shopify.pointsSpent(shop)]))
  const less = (now: Map<string, number>, then?: Map<string, number>) =>
    new Map([...now].map(([key, n]) => [key, n - (then?.get(key) ?? 0)]))
  return { stripe: less(stripe, before?.stripe), points: less(points, before?.points) }
}

/** The key with the largest count, and its count. */
export const busiest = (counts: Map<string, number>): [string, number] =>
  [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['none', 0]

/** The sum of the counts. */
export const total = (counts: Map<string, number>): number =>
  [...counts.values()].reduce((sum, n) => sum + n, 0)
