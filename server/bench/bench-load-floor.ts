import { setTimeout as sleep } from 'node:timers/promises'
import {
  askedSince,
  SHOPIFY_STANDARD,
  STRIPE_LIVE_RATE_LIMITS,
  total,
  type Asked,
} from './bench-limits'
import type { LoadMarketplace } from './bench-load-data'
import { CALLS_PER_ORDER, readsPerOrder } from './bench-load-mix'
import { fmt } from './bench-support'

// The load test's floor: how many orders a second the services' limits let through at most, from
// what the mix asks of them for each order it processes. Before the run, each read of the mix is
// sent once (its preview naming the pool's extra order), then the extra order is processed as the
// mix processes each: CALLS_PER_ORDER calls at once, spread over the servers as its connections
// are, so that what the calls that lose the race ask counts too; the calls of each are counted in
// the emulators, every Stripe endpoint and every shop's points. The mix's reads are weighed by how
// often it sends them for each order processed. Each limit gives a rate of orders, the least of
// those enforced binds: the servers' process throughput is judged against it, so that what is
// measured is the server keeping up with the limits, not a pacer holding it below them.
//
// Shopify's limits are not enforced here (bench-load-data.ts says why); what the mix asks of the
// shops is printed beside what their standard plan would allow, the pool's orders spread evenly
// over its creators and each order's three brands over the twenty.

/** What the mix asks of the limits for each order it processes. */
export interface OrderNeeds {
  stripe: Map<string, number>
  /** Points of the creators' shops in all: the pool's orders are spread over `creators`. */
  creatorPoints: number
  creators: number
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

/**
 * Sends each of the mix's reads once, then processes the lone order as the mix does, its calls
 * spread over `urls` (the servers): what an order needs.
 */
export async function measureOrderNeeds(
  marketplace: LoadMarketplace,
  urls: string[],
  token: string,
): Promise<OrderNeeds> {
  const shops = [...marketplace.creators, ...marketplace.brands]
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const orderId = marketplace.lone.id
  /** What `send` asked of the services, and its answers' bodies. */
  const askedBy = async (send: () => Promise<Response>[]) => {
    const before = askedSince(marketplace, shops)
    const answers = await Promise.all(
      send().map(async (answering) => {
        const answer = await answering
        return { ok: answer.ok, status: answer.status, body: await answer.text() }
      }),
    )
    return { asked: askedSince(marketplace, shops, before), answers }
  }
  // The servers' start-up work (the catch-ups of every creator's orders) is not an order's.
  await quiet(marketplace, shops)
  const reads = []
  for (const { path, perOrder } of readsPerOrder(orderId)) {
    const request = `GET ${path}`
    const { asked, answers } = await askedBy(() => [fetch(urls[0] + path, { headers })])
    if (!answers[0]!.ok) {
      throw new Error(
        `Before the run, ${request} answered ${answers[0]!.status}: ${answers[0]!.body}`,
      )
    }
    reads.push({ request, times: perOrder, asked })
  }
  const { asked, answers } = await askedBy(() =>
    Array.from({ length: CALLS_PER_ORDER }, (_, i) =>
      fetch(`${urls[i % urls.length]}/admin-create-order-transfer`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ creatorOrderId: orderId }),
      }),
    ),
  )
  if (!answers.some((answer) => answer.body.includes('"COMPLETED"'))) {
    throw new Error(
      `Before the run, the lone order was not transferred: ${answers.map((a) => a.body).join('; ')}`,
    )
  }
  const processed = {
    request: `POST /admin-create-order-transfer, ${CALLS_PER_ORDER} at once`,
    times: 1,
    asked,
  }
  const all = [...reads, processed]
  const weighed = (of: (asked: Asked) => number) =>
    all.reduce((sum, { times, asked }) => sum + times * of(asked), 0)
  const endpoints = new Set(all.flatMap(({ asked }) => [...asked.stripe.keys()]))
  return {
    stripe: new Map(
      [...endpoints].map((endpoint) => [endpoint, weighed((of) => of.stripe.get(endpoint) ?? 0)]),
    ),
    creatorPoints: weighed((of) => pointsOf(of, marketplace.creators)),
    creators: marketplace.creators.length,
    brandPoints: weighed((of) => pointsOf(of, marketplace.brands)) / marketplace.brands.length,
    each: all.map(({ request, times, asked }) => ({
      request,
      perOrder: times,
      stripe: total(asked.stripe),
      creatorPoints: pointsOf(asked, marketplace.creators),
    })),
  }
}

/** How long the emulators must go unasked before the needs are measured, and the most to wait. */
const QUIET_MS = 1000
const QUIET_WAIT_MS = 60_000

/** Waits until nothing asks Stripe or `shops` anything for QUIET_MS. */
async function quiet(marketplace: LoadMarketplace, shops: string[]): Promise<void> {
  const deadline = Date.now() + QUIET_WAIT_MS
  let before = askedSince(marketplace, shops)
  for (;;) {
    await sleep(QUIET_MS)
    const asked = askedSince(marketplace, shops, before)
    if (total(asked.stripe) + total(asked.points) === 0) return
    if (Date.now() > deadline) {
      throw new Error(`Before the run, the servers were still at work after ${QUIET_WAIT_MS} ms`)
    }
    before = askedSince(marketplace, shops)
  }
}

/** The points `shops` were asked in all. */
const pointsOf = (asked: Asked, shops: string[]) =>
  shops.reduce((sum, shop) => sum + (asked.points.get(shop) ?? 0), 0)

/**
 * The orders a second each limit allows: Stripe's requests in all and to each endpoint at its
 * live limits (enforced); the shops' points at their standard plan's restore rate (not).
 */
export function floorOf(needs: OrderNeeds): Floor {
  const { perSecond, perEndpointPerSecond } = STRIPE_LIVE_RATE_LIMITS
  const stripeRequests = total(needs.stripe)
  const n = (value: number) => (Number.isInteger(value) ? fmt(value) : value.toFixed(1))
  const { restoreRate } = SHOPIFY_STANDARD
  const candidates = [
    {
      limit: `Stripe, ${n(stripeRequests)} requests an order at ${perSecond}/s`,
      ordersPerSecond: perSecond / stripeRequests,
      enforced: true,
    },
    ...[...needs.stripe]
      .sort((a, b) => b[1] - a[1])
      .map(([endpoint, requests]) => ({
        limit: `Stripe ${endpoint}, ${n(requests)} an order at ${perEndpointPerSecond}/s`,
        ordersPerSecond: perEndpointPerSecond / requests,
        enforced: true,
      })),
    {
      limit:
        `Shopify, ${needs.creators} creators' shops, ${n(needs.creatorPoints)} points an order ` +
        `at ${restoreRate}/s each (not enforced)`,
      ordersPerSecond: (restoreRate * needs.creators) / needs.creatorPoints,
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
