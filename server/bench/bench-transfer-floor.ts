import type { RecordedCall } from './bench-latency'

// The least time processing could take at the proxies' latency: the longest chain of the calls
// the run actually made in which each needs the answer of the one before (NEEDS), however many
// calls run at once beside it. Derived from the recorded calls, not a count written by hand: a
// call processing starts making is counted as soon as it is made, and a kind of call the table
// does not know stops the benchmark until someone says what it needs.

/** A recorded call, named: which service, what kind, and the store or brand it concerns. */
export interface NamedCall {
  service: 'shopify' | 'stripe'
  kind: string
  /** The shop it was made to or for (a brand's account is its brand's); the order's own: ''. */
  party: string
  /** What makes it the same read as another: its method, path and body. */
  request: string
  startedMs: number
  answeredMs: number
}

const operationOf = (body: string) => {
  const { query } = JSON.parse(body) as { query?: string }
  return /^\s*(?:query|mutation)\s+(\w+)/.exec(query ?? '')?.[1] ?? 'unnamed GraphQL'
}

export function nameShopifyCall(call: RecordedCall): NamedCall {
  const [, shop = '', rest = ''] = /^\/([^/]+)\/admin\/(.+)$/.exec(call.path) ?? []
  const kind = rest.startsWith('oauth/access_token') ? 'access token' : operationOf(call.body)
  return named('shopify', kind, shop, call)
}

/** Stripe's calls by method and resource; a brand's by its account (`accountShop`). */
export function nameStripeCall(
  call: RecordedCall,
  accountShop: (accountId: string) => string,
): NamedCall {
  const path = call.path.split('?')[0] ?? ''
  const [, resource = '', id] = /^\/v1\/([a-z_]+)(?:\/([^/]+))?/.exec(path) ?? []
  const account =
    resource === 'accounts' ? id : (new URLSearchParams(call.body).get('destination') ?? undefined)
  const action = call.method === 'POST' ? 'create' : id ? 'retrieve' : 'list'
  return named('stripe', `${resource}.${action}`, account ? accountShop(account) : '', call)
}

function named(service: NamedCall['service'], kind: string, party: string, call: RecordedCall) {
  return {
    service,
    kind,
    party,
    request: `${call.method} ${call.path} ${call.body}`,
    startedMs: call.startedMs,
    answeredMs: call.answeredMs,
  }
}

/** Calls the shop's connection makes on its own, which processing does not wait for. */
const BACKGROUND = new Set(['WebhookSubscribe'])

/** Reads: a second one of the same request is a call that could have been spared. */
const WRITES = new Set(['OrderCreate', 'OrderMarkAsPaid', 'transfers.create', 'access token'])

type Needs = (call: NamedCall, all: NamedCall[]) => NamedCall[]
const ofKind = (kinds: string[], party?: string) => (all: NamedCall[]) =>
  all.filter(
    (other) => kinds.includes(other.kind) && (party === undefined || other.party === party),
  )
const CHECKS = [
  'OrderFraudSignals',
  'BrandVariants',
  'accounts.retrieve',
  'payment_intents.retrieve',
  'charges.retrieve',
  'transfers.list',
]

/**
 * What each kind of call needs the answer of before it can be sent (besides its store's access
 * token, which every Shopify call needs).
 */
const NEEDS: Record<string, Needs> = {
  'access token': () => [],
  // The order's lines come a page at a time, each after the page before (its cursor).
  CreatorOrder: (call, all) =>
    ofKind(['CreatorOrder'])(all).filter((page) => page.startedMs < call.startedMs),
  // The order's lines name the brands (their variants, their accounts), its metafield the
  // PaymentIntent; its id is the fraud read's and the transfer group's. The metafield comes with
  // the first page, but Stripe is asked nothing before every brand of the order (all its pages)
  // is known not to be paused (TransferActor.checkBrands): each Stripe read needs every page.
  OrderFraudSignals: (_, all) => ofKind(['CreatorOrder'])(all),
  BrandVariants: (_, all) => ofKind(['CreatorOrder'])(all),
  'accounts.retrieve': (_, all) => ofKind(['CreatorOrder'])(all),
  'payment_intents.retrieve': (_, all) => ofKind(['CreatorOrder'])(all),
  'transfers.list': (_, all) => ofKind(['CreatorOrder'])(all),
  // The intent names its charge.
  'charges.retrieve': (_, all) => ofKind(['payment_intents.retrieve'])(all),
  // Nothing is ordered before every check of every brand passed: the order is refused whole.
  OrderCreate: (_, all) => ofKind(CHECKS)(all),
  // A brand's order is marked paid once made, and its transfer made once it is marked paid.
  OrderMarkAsPaid: (call, all) => ofKind(['OrderCreate'], call.party)(all),
  'transfers.create': (call, all) => ofKind(['OrderMarkAsPaid'], call.party)(all),
}

export interface Floor {
  /** The longest chain, first call first. */
  chain: NamedCall[]
  ms: number
  /** Calls processing waited for, and those it did not (the connections' own). */
  awaited: NamedCall[]
  background: NamedCall[]
  /** The same read made more than once: each such request, with how often it was made. */
  repeated: { request: string; kind: string; times: number }[]
}

export function floorOf(calls: NamedCall[], latencyMs: number): Floor {
  const awaited = calls.filter((call) => !BACKGROUND.has(call.kind))
  const background = calls.filter((call) => BACKGROUND.has(call.kind))
  const unknown = [...new Set(awaited.map((call) => call.kind))].filter((kind) => !NEEDS[kind])
  if (unknown.length > 0) {
    throw new Error(
      `Processing made calls the benchmark's floor does not know (${unknown.join(', ')}): say in ` +
        'NEEDS (server/bench/bench-transfer-floor.ts) what each needs the answer of',
    )
  }
  const needs = (call: NamedCall) => [
    ...(call.service === 'shopify' && call.kind !== 'access token'
      ? ofKind(['access token'], call.party)(awaited)
      : []),
    ...NEEDS[call.kind]!(call, awaited),
  ]
  // The earliest each call could answer, and the call before it on its longest chain.
  const done = new Map<NamedCall, { ms: number; after: NamedCall | null }>()
  const earliest = (call: NamedCall): number => {
    const known = done.get(call)
    if (known) return known.ms
    let after: NamedCall | null = null
    let start = 0
    for (const needed of needs(call)) {
      const ms = earliest(needed)
      if (ms > start) [start, after] = [ms, needed]
    }
    done.set(call, { ms: start + latencyMs, after })
    return start + latencyMs
  }
  let last: NamedCall | null = null
  for (const call of awaited) if (!last || earliest(call) > earliest(last)) last = call
  const chain: NamedCall[] = []
  for (let call = last; call; call = done.get(call)?.after ?? null) chain.unshift(call)

  const times = new Map<string, { kind: string; times: number }>()
  for (const call of awaited.filter((made) => !WRITES.has(made.kind))) {
    const seen = times.get(call.request)
    times.set(call.request, { kind: call.kind, times: (seen?.times ?? 0) + 1 })
  }
  const repeated = [...times]
    .filter(([, seen]) => seen.times > 1)
    .map(([request, seen]) => ({ request, ...seen }))
  return { chain, ms: last ? earliest(last) : 0, awaited, background, repeated }
}
