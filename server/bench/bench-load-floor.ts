import { BENCH_CREATOR } from './bench-data'
import {
  askedSince,
  busiest,
  SHOPIFY_STANDARD,
  STRIPE_LIVE_RATE_LIMITS,
  total,
  type Asked,
} from './bench-limits'
import type { LoadMarketplace } from './bench-load-data'
import { readsPerOrder } from './bench-load-mix'
import { fmt } from './bench-support'

// The load test's floor: how many orders a second Stripe's live limits let through at most, from
// what the mix asks of them for each order it processes. Before the run, each read of the mix is
// sent once (its preview naming the pool's extra order) and the extra order is then processed
// alone, the calls of each counted in the emulators; the mix's reads are weighed by how often it
// sends them for each order processed. Each of Stripe's limits gives a rate of orders, the least
// binds: the servers' process throughput is judged against it, so that what is measured is the
// server keeping up with the limits, not a pacer holding it below them.
//
// Shopify's limits are not enforced here (bench-load-data.ts says why); what the mix asks of the
// creator's shop is printed beside what its standard plan would allow.

/** What the mix asks of the limits for each order it processes. */
export interface OrderNeeds {
  stripe: Map<string, number>
  /** Points of the creator's shop (the pool's orders are all of one creator). */
  creatorPoints: number
  /** Points of each brand's shop: every brand is in as many orders, so their mean. */
  brandPoints: number
  /** What each request asked once, and how often the mix sends it for each order. */
  each: { request: string; perOrder: number; stripe: number; creatorPoints: number }[]
}

/** A limit's rate of orders; `enforced` false for those printed but not held to. */
export interface FloorLimit {
  limit: string
  ordersPerSecond: number
  enforced: boolean
}

export interface Floor {
  candidates: FloorLimit[]
  /** The least of the enforced. */
  binding: FloorLimit
}

/** Sends each of the mix's reads once, then processes the lone order: what an order needs. */
export async function measureOrderNeeds(
  marketplace: LoadMarketplace,
  url: string,
  token: string,
): Promise<OrderNeeds> {
  const shops = [BENCH_CREATOR, ...marketplace.brands]
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const orderId = marketplace.lone.id
  /** The calls made by `request`, weighed `times`. */
  const askedBy = async (request: string, times: number, init?: RequestInit) => {
    const before = askedSince(marketplace, shops)
    const answer = await fetch(url + request.split(' ')[1], { headers, ...init })
    const body = await answer.text()
    if (!answer.ok) throw new Error(`Before the run, ${request} answered ${answer.status}: ${body}`)
    return { request, times, asked: askedSince(marketplace, shops, before), body }
  }
  const reads = []
  for (const { path, perOrder } of readsPerOrder(orderId)) {
    reads.push(await askedBy(`GET ${path}`, perOrder))
  }
  const processed = await askedBy('POST /admin-create-order-transfer', 1, {
    method: 'POST',
    body: JSON.stringify({ creatorOrderId: orderId }),
  })
  if (!processed.body.includes('"COMPLETED"')) {
    throw new Error(`Before the run, the lone order was not transferred: ${processed.body}`)
  }
  const all = [...reads, processed]
  const weighed = (of: (asked: Asked) => number) =>
    all.reduce((sum, { times, asked }) => sum + times * of(asked), 0)
  const endpoints = new Set(all.flatMap(({ asked }) => [...asked.stripe.keys()]))
  return {
    stripe: new Map(
      [...endpoints].map((endpoint) => [endpoint, weighed((of) => of.stripe.get(endpoint) ?? 0)]),
    ),
    creatorPoints: weighed((of) => of.points.get(BENCH_CREATOR)!),
    brandPoints:
      weighed((of) => marketplace.brands.reduce((sum, brand) => sum + of.points.get(brand)!, 0)) /
      marketplace.brands.length,
    each: all.map(({ request, times, asked }) => ({
      request,
      perOrder: times,
      stripe: total(asked.stripe),
      creatorPoints: asked.points.get(BENCH_CREATOR)!,
    })),
  }
}

/**
 * The orders a second each limit allows: Stripe's requests in all and at its busiest endpoint at
 * its live limits (enforced); each shop's points at its standard plan's restore rate (not).
 */
export function floorOf(needs: OrderNeeds): Floor {
  const { perSecond, perEndpointPerSecond } = STRIPE_LIVE_RATE_LIMITS
  const stripeRequests = total(needs.stripe)
  const [endpoint, endpointRequests] = busiest(needs.stripe)
  const n = (value: number) => (Number.isInteger(value) ? fmt(value) : value.toFixed(1))
  const { restoreRate } = SHOPIFY_STANDARD
  const candidates = [
    {
      limit: `Stripe, ${n(stripeRequests)} requests an order at ${perSecond}/s`,
      ordersPerSecond: perSecond / stripeRequests,
      enforced: true,
    },
    {
      limit: `Stripe ${endpoint}, ${n(endpointRequests)} an order at ${perEndpointPerSecond}/s`,
      ordersPerSecond: perEndpointPerSecond / endpointRequests,
      enforced: true,
    },
    {
      limit: `Shopify, the creator's shop, ${n(needs.creatorPoints)} points an order at ${restoreRate}/s (not enforced)`,
      ordersPerSecond: restoreRate / needs.creatorPoints,
      enforced: false,
    },
    {
      limit: `Shopify, each brand's shop, ${n(needs.brandPoints)} points an order at ${restoreRate}/s (not enforced)`,
      ordersPerSecond: restoreRate / needs.brandPoints,
      enforced: false,
    },
  ]
  const binding = candidates
    .filter((candidate) => candidate.enforced)
    .sort((a, b) => a.ordersPerSecond - b.ordersPerSecond)[0]!
  return { candidates, binding }
}
