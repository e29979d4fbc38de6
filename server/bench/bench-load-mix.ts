import type autocannon from 'autocannon'
import type { PoolOrder } from './bench-load-data'

// The load test's requests, as the console's daily use mixes them: the store list, the orders
// inbox and transfer previews (reads), commission rates set (writes), and transfers processed.
// Each connection goes round SEQUENCE; what every answer was is tallied here per kind, since
// autocannon only counts status classes over all of them.

export type Kind = 'stores' | 'inbox' | 'preview' | 'defaultRate' | 'uniqueRate' | 'process'

/** One round of a connection. */
const SEQUENCE: Kind[] = [
  'stores',
  'inbox',
  'preview',
  'process',
  'defaultRate',
  'inbox',
  'preview',
  'process',
  'uniqueRate',
  'process',
]

/**
 * How many process calls in a row name the same order. They go out on different connections
 * (and, with two processes, mostly to both), within a few milliseconds of one another: the
 * contention exactly-once processing must bear.
 */
export const CALLS_PER_ORDER = 3

const countOf = (...kinds: Kind[]) => SEQUENCE.filter((kind) => kinds.includes(kind)).length

/** The kinds that only read: the console's screens, which must stay fast while transfers run. */
export const READ_KINDS: Kind[] = ['stores', 'inbox', 'preview']

const STORES_PATH = '/admin-all-stores'
/** The inbox's pages read in turn: the first as the console opens it, the completed transfers'. */
const INBOX_PATHS = ['/admin-creator-orders', '/admin-creator-orders?status=COMPLETED']
const previewPath = (orderId: string) => `/admin-preview-order-transfer?creatorOrderId=${orderId}`

/**
 * Each read the mix sends, with how often it sends it for each order processed (the preview
 * naming `orderId`): what the reads ask of Stripe and Shopify beside processing.
 */
export function readsPerOrder(orderId: string): { path: string; perOrder: number }[] {
  const ordersPerRound = countOf('process') / CALLS_PER_ORDER
  const inboxEach = countOf('inbox') / INBOX_PATHS.length / ordersPerRound
  return [
    { path: STORES_PATH, perOrder: countOf('stores') / ordersPerRound },
    ...INBOX_PATHS.map((path) => ({ path, perOrder: inboxEach })),
    { path: previewPath(orderId), perOrder: countOf('preview') / ordersPerRound },
  ]
}

/** The mix in words, for the printout. */
export const MIX_DESCRIPTION =
  `${countOf('stores', 'inbox', 'preview')} reads, ${countOf('defaultRate', 'uniqueRate')} rate ` +
  `writes and ${countOf('process')} process calls (${CALLS_PER_ORDER} calls per order)`

export const KIND_LABELS: Record<Kind, string> = {
  stores: 'GET /admin-all-stores',
  inbox: 'GET /admin-creator-orders',
  preview: 'GET /admin-preview-order-transfer',
  defaultRate: 'POST /admin-set-default-commission-rate',
  uniqueRate: 'POST /admin-create-unique-commission-rate',
  process: 'POST /admin-create-order-transfer',
}

export interface KindTally {
  /** Answers by status, a refusal's message beside its status ("409 Order transfer is …"). */
  answers: Map<string, number>
  /** Milliseconds from sending to the whole answer, for each answer. */
  latencies: number[]
}

export interface MixTally {
  kinds: Map<Kind, KindTally>
  /** The 201 COMPLETED answers per creator order: more than one would be a false COMPLETED. */
  completedAnswers: Map<string, number>
  /** The process calls made, and whether they went past the pool's last order. */
  processCalls: number
  poolExhausted: boolean
  /** A few 5xx answers as they came, to say what failed. */
  serverErrors: string[]
}

interface Sent {
  sentAt?: number
  orderId?: string
}

export interface LoadMix {
  requests: autocannon.Request[]
  tally: MixTally
}

/**
 * The requests of one run. `pool` are the orders processing goes through, oldest first;
 * `brands` and `creators` the stores whose rates are set.
 */
export function loadMix(options: {
  token: string
  pool: PoolOrder[]
  brands: string[]
  creators: string[]
}): LoadMix {
  const { pool, brands, creators } = options
  const headers = {
    authorization: `Bearer ${options.token}`,
    'content-type': 'application/json',
  }
  const tally: MixTally = {
    kinds: new Map(),
    completedAnswers: new Map(),
    processCalls: 0,
    poolExhausted: false,
    serverErrors: [],
  }
  // Counters that vary each kind's request from one time to the next.
  let inboxReads = 0
  let defaultWrites = 0
  let uniqueWrites = 0
  const orderAt = (index: number) => pool[index % pool.length]!.id
  // Previews look at the orders being processed now and about to be: in progress, frozen, not
  // started, completed; a random one of those.
  const recentOrder = () => {
    const frontier = Math.floor(tally.processCalls / CALLS_PER_ORDER)
    return orderAt(Math.max(0, frontier - 8) + Math.floor(Math.random() * 12))
  }

  /** What each kind sends; a function, since most name a different order or rate each time. */
  const build: Record<Kind, (context: Sent) => autocannon.Request> = {
    stores: () => ({ method: 'GET', path: STORES_PATH }),
    inbox: () => ({ method: 'GET', path: INBOX_PATHS[inboxReads++ % INBOX_PATHS.length] }),
    preview: () => ({ method: 'GET', path: previewPath(recentOrder()) }),
    // Always within bounds (tandem ≤ 10, creator ≤ 20, unique ≤ 40): a write that is refused
    // would measure the refusal.
    defaultRate: () => {
      const n = defaultWrites++
      return {
        method: 'POST',
        path: '/admin-set-default-commission-rate',
        body: JSON.stringify({
          defaultCommission: {
            brandStoreShop: brands[n % brands.length],
            tandemCommissionRate: 5 + (n % 6),
            creatorCommissionRate: 10 + (n % 11),
          },
        }),
      }
    },
    uniqueRate: () => {
      const n = uniqueWrites++
      return {
        method: 'POST',
        path: '/admin-create-unique-commission-rate',
        body: JSON.stringify({
          uniqueCommissionRate: {
            brandStoreShop: brands[n % brands.length],
            creatorStoreShop: creators[n % creators.length],
            commissionRate: 10 + (n % 31),
          },
        }),
      }
    },
    process: (context) => {
      const index = Math.floor(tally.processCalls++ / CALLS_PER_ORDER)
      if (index >= pool.length) tally.poolExhausted = true
      context.orderId = orderAt(index)
      return {
        method: 'POST',
        path: '/admin-create-order-transfer',
        body: JSON.stringify({ creatorOrderId: context.orderId }),
      }
    },
  }

  const requests = SEQUENCE.map((kind): autocannon.Request => {
    // One tally per kind, however often the kind comes round.
    const kindTally: KindTally = tally.kinds.get(kind) ?? { answers: new Map(), latencies: [] }
    tally.kinds.set(kind, kindTally)
    return {
      // autocannon calls this just before it sends the request; its context is the connection's.
      setupRequest: (request, context) => {
        const sent = context as Sent
        sent.sentAt = performance.now()
        // The request as given carries autocannon's defaults (host, port): kept.
        return { ...request, headers: { ...request.headers, ...headers }, ...build[kind](sent) }
      },
      onResponse: (status, body, context) => {
        const sent = context as Sent
        if (sent.sentAt !== undefined) kindTally.latencies.push(performance.now() - sent.sentAt)
        // A refusal by its message; a transfer processed by the status it answers (COMPLETED).
        const transferStatus = kind === 'process' && status < 300 ? statusOf(body) : null
        const answer =
          status >= 300
            ? `${status} ${messageOf(body)}`
            : `${status}${transferStatus ? ` ${transferStatus}` : ''}`
        kindTally.answers.set(answer, (kindTally.answers.get(answer) ?? 0) + 1)
        if (status >= 500 && tally.serverErrors.length < 10) {
          tally.serverErrors.push(`${KIND_LABELS[kind]} answered ${answer}`)
        }
        if (transferStatus === 'COMPLETED' && sent.orderId !== undefined) {
          const count = tally.completedAnswers.get(sent.orderId) ?? 0
          tally.completedAnswers.set(sent.orderId, count + 1)
        }
      },
    }
  })
  return { requests, tally }
}

/** A process call's answer's transfer status (COMPLETED), or null when it has none. */
function statusOf(body: string): string | null {
  try {
    const status = (JSON.parse(body) as { status?: unknown }).status
    return typeof status === 'string' ? status : null
  } catch {
    return null
  }
}

/** The `{ error, message }` answer's message; the body itself when it is not one. */
function messageOf(body: string): string {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message
    if (typeof message === 'string') return message
  } catch {
    // Not JSON: shown as it came.
  }
  return body.slice(0, 200)
}

/**
 * The requests that only read: the servers' warm-up, which leaves the orders unprocessed. Not the
 * inbox's first page, which previews its orders through Shopify: its reads outlast the warm-up and
 * would still be at work in the run and in what the requests before it are measured to ask.
 */
export function warmUpRequests(token: string): autocannon.Request[] {
  const headers = { authorization: `Bearer ${token}` }
  return [
    { method: 'GET', path: STORES_PATH, headers },
    { method: 'GET', path: INBOX_PATHS[1], headers },
  ]
}

/** The value below which `share` of the values lie (nearest rank). */
export function percentile(values: number[], share: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!
}
