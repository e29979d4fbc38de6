import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { bundleServer } from '../scripts/bundle'
import { openDatabase, type Db } from '../src/db/connect'
import { JOB_SCHEMA } from '../src/jobs/open-job-queue'
import { CATCH_UP_JOB } from '../src/services/background-work'
import { startBalancer, type Balancer } from './bench-balancer'
import { checkExactlyOnce } from './bench-load-checks'
import { percentile } from './bench-load-mix'
import { loggedErrors, startServers, type ServerGroup } from './bench-load-servers'
import {
  brandsOfCreator,
  preparePipelineMarketplace,
  type PipelineMarketplace,
  type PipelineShape,
} from './bench-pipeline-data'
import {
  askedSince,
  busiest,
  LIMITS_DESCRIPTION,
  SHOPIFY_STANDARD,
  STRIPE_LIVE_PACING,
  STRIPE_LIVE_RATE_LIMITS,
  total,
  type Asked,
} from './bench-limits'
import { benchPostgres, freshDatabase, type BenchPostgres } from './bench-postgres'
import { fmt, machineCpu, printTable, withBenchAdmin, type BenchAdmin } from './bench-support'
import { SHORT } from './bench-args'

// `npm run bench:pipeline`: paid orders transferring themselves on a Black Friday minute (issue
// 32). The real server (src/main.ts, bundled), two processes on one PostgreSQL behind a balancer;
// the emulators in this process at Shopify's standard cost limits and Stripe's live rate limits,
// each process pacing itself to its share of Stripe's among the processes alive. Orders are paid at a steady rate across the
// creator shops, each announced by the Shopify emulator on orders/paid; the policy is AUTOMATIC
// with no hold. Prints the time from the first webhook to the last order transferred beside the
// floor the rate limits allow (from the calls the run made), their ratio, and paid → transferred
// p50/p99. Run twice: as it is, then with one process killed (SIGKILL) once half the orders are
// transferred. Fails on any order lost (not transferred by the deadline), made twice (brand
// order or transfer) or left unprocessed, and on a ratio over its aim. `--short` (CI's): 30 orders
// across 10 creators and 5 brands, the dead process's leases a few seconds, the ratios not judged.

const ORDERS = SHORT ? 30 : Number(process.env.BENCH_PIPELINE_ORDERS || 5000)
const ORDERS_PER_SECOND = Number(process.env.BENCH_PIPELINE_RATE || 100)
const SHAPE: PipelineShape = {
  creators: SHORT ? 10 : 200,
  brands: SHORT ? 5 : 50,
  brandsPerCreator: 5,
  brandsPerOrder: Number(process.env.BENCH_PIPELINE_BRANDS_PER_ORDER || 1),
}
/** The ratio to the floor each run is held to: as it is, and with a process killed half way. */
const AIMS = { plain: 1.1, killed: 1.25 }
/**
 * In the short form, a dead process's jobs and transfers come back within seconds (their leases,
 * a minute and more in deployment), so that the run with the kill ends in CI's time.
 */
const SHORT_LEASES: Record<string, string> = SHORT
  ? {
      TANDEM_JOB_LEASE_MS: '5000',
      TANDEM_JOB_RETRY_DELAY_SECONDS: '1',
      TANDEM_TRANSFER_LEASE_MS: '10000',
    }
  : {}
const PROCESSES = 2
/**
 * No order transferred for this long: the run is over, whatever is left is lost. Longer than a
 * dead process's jobs take to come back (two job leases of a minute, then the retry's wait).
 */
const STALL_SECONDS = 240
/** BENCH_PIPELINE_KILL=only: only the run with a process killed; =no: only the other; both unless. */
const KILL_RUNS = { only: [true], no: [false] }[process.env.BENCH_PIPELINE_KILL ?? ''] ?? [
  false,
  true,
]

interface Floor {
  /** Each limit's least time for what the run asked of it, in seconds. */
  candidates: { limit: string; seconds: number }[]
  binding: { limit: string; seconds: number }
}

interface RunOutcome {
  killed: boolean
  /** First webhook to last order transferred, in seconds. */
  seconds: number
  /** From what one order needs, times the orders: the aim's. */
  floor: Floor
  /** From what the run asked: above the other when orders asked more than a lone one. */
  floorOfCalls: Floor
  /** What the run asked of Stripe and Shopify. */
  asked: Asked
  /** Paid (the order made and announced) → transferred, in ms. */
  latencies: number[]
  transferred: number
  /** By the order's automation state when it was not transferred. */
  unprocessed: Map<string, number>
  webhookAnswers: Map<number, number>
  brandOrders: number
  transfers: number
  /** Exactly-once breaches: a brand order or transfer made twice, or not as recorded. */
  breaches: number
  problems: string[]
  killedAtSeconds: number | null
  /** The machine's CPU busy over the run, 0 to 1: near 1, the machine bound it, not the limits. */
  machineBusy: number
  errorsLogged: number
}

async function main(admin: BenchAdmin): Promise<string[]> {
  const postgres = await benchPostgres()
  const logDir = mkdtempSync(join(tmpdir(), 'tandem-bench-pipeline-'))
  let keepLogs = false
  try {
    const bundle = await bundleServer('src/main.ts', 'bench-pipeline-main.cjs')
    console.log(
      `Pipeline: ${fmt(ORDERS)} paid orders across ${SHAPE.creators} creator shops and ` +
        `${SHAPE.brands} brands (${SHAPE.brandsPerOrder} per order), orders/paid at ` +
        `${ORDERS_PER_SECOND} a second, hold 0;\n${PROCESSES} server processes on ` +
        `${postgres.origin}, each paced to its share among those alive of ${LIMITS_DESCRIPTION}\n`,
    )
    const runs: RunOutcome[] = []
    for (const killed of KILL_RUNS) {
      const runLogDir = join(logDir, killed ? 'killed' : 'plain')
      mkdirSync(runLogDir)
      const run = await pipelineRun({ killed, postgres, admin, bundle, logDir: runLogDir })
      // Printed as each run ends: a run cut short by a timeout leaves the one before it printed.
      printOutcomes([run])
      runs.push(run)
    }
    const failures = runs.flatMap((run) =>
      run.problems.map((problem) => `${run.killed ? 'with the kill' : 'plain'}: ${problem}`),
    )
    // Slow is a failure too, judged only at full size: the short form's figures are too few.
    for (const run of SHORT ? [] : runs) {
      const ratio = run.seconds / run.floor.binding.seconds
      const aim = run.killed ? AIMS.killed : AIMS.plain
      if (ratio > aim) {
        failures.push(
          `${run.killed ? 'with the kill' : 'plain'}: ${ratio.toFixed(2)} times the floor, over its aim of ${aim}`,
        )
      }
    }
    if (failures.length > 0) {
      console.log(`\n!!! PIPELINE FAILED: ${failures.length} failures !!!`)
      for (const failure of failures.slice(0, 40)) console.log(`  ${failure}`)
    }
    keepLogs = failures.length > 0 || runs.some((run) => run.errorsLogged > 0)
    if (keepLogs) console.log(`\n  The servers' logs are kept in ${logDir}`)
    return failures
  } finally {
    if (!keepLogs) rmSync(logDir, { recursive: true, force: true })
    await postgres.stop()
  }
}

async function pipelineRun(options: {
  killed: boolean
  postgres: BenchPostgres
  admin: BenchAdmin
  bundle: string
  logDir: string
}): Promise<RunOutcome> {
  const database = await freshDatabase(options.postgres)
  const secretKey = randomBytes(32)
  const balancer = await startBalancer()
  try {
    const marketplace = await preparePipelineMarketplace({
      databaseUrl: database.url,
      secretKey,
      shape: SHAPE,
      webhookUrl: balancer.url,
    })
    try {
      const group = await startServers({
        bundle: options.bundle,
        count: PROCESSES,
        databaseUrl: database.url,
        secretKey,
        shopifyUrl: marketplace.shopify.url,
        stripe: { url: marketplace.stripe.url, secretKey: marketplace.stripe.secretKey },
        admin: options.admin,
        logDir: options.logDir,
        publicUrl: balancer.url,
        env: { ...STRIPE_LIVE_PACING, ...SHORT_LEASES },
      })
      balancer.setTargets(group.servers.map((server) => server.url))
      const db = await openDatabase({ databaseUrl: database.url })
      try {
        return await measure(db, marketplace, group, balancer, options.killed)
      } finally {
        await db.destroy()
        await group.stop()
      }
    } finally {
      await marketplace.close()
    }
  } finally {
    await balancer.close()
    await database.drop()
  }
}

async function measure(
  db: Db,
  marketplace: PipelineMarketplace,
  group: ServerGroup,
  balancer: Balancer,
  kill: boolean,
): Promise<RunOutcome> {
  // The start's catch-up reads every creator shop once; the run begins after it.
  await waitForCatchUp(db)
  const needs = await oneOrderNeeds(db, marketplace)
  const made = askedSince(marketplace, shopsOf(marketplace))

  const paidAt = new Map<string, number>()
  const deliveries: Promise<unknown>[] = []
  const cpuBefore = machineCpu()
  const started = Date.now()
  const sending = (async () => {
    for (let i = 0; i < ORDERS; i++) {
      const due = started + (i * 1000) / ORDERS_PER_SECOND
      // Read once: read twice, the clock may pass `due` in between, and a negative wait warns.
      const wait = due - Date.now()
      if (wait > 0) await sleep(wait)
      // Resolves once the emulator's first attempt at orders/paid was answered.
      deliveries.push(
        payOrder(marketplace, i).then(({ orderId }) => paidAt.set(orderId, Date.now())),
      )
    }
    await Promise.all(deliveries)
  })()

  let killedAt: number | null = null
  let lastCount = -1
  let lastProgress = Date.now()
  // The order that measured what one order needs is transferred already.
  const everyOrder = ORDERS + 1
  for (;;) {
    await sleep(500)
    const done = await transferredCount(db)
    if (kill && killedAt === null && done >= everyOrder / 2) {
      group.servers[PROCESSES - 1]!.child.kill('SIGKILL')
      killedAt = Date.now()
    }
    if (done !== lastCount) {
      lastCount = done
      lastProgress = Date.now()
    }
    if (done >= everyOrder || Date.now() - lastProgress > STALL_SECONDS * 1000) break
  }
  await sending
  const cpuAfter = machineCpu()
  const asked = askedSince(marketplace, shopsOf(marketplace), made)

  const rows = await db
    .selectFrom('order_transfers')
    .select(['creator_order_id', 'processed_at'])
    .where('status', '=', 'COMPLETED')
    .execute()
  const transferredAt = new Map(
    rows.map((row) => [row.creator_order_id, Date.parse(row.processed_at!)]),
  )
  const latencies = [...paidAt].flatMap(([orderId, at]) => {
    const done = transferredAt.get(orderId)
    return done === undefined ? [] : [done - at]
  })
  const last = Math.max(...[...paidAt.keys()].map((orderId) => transferredAt.get(orderId) ?? 0))
  const unprocessed = await unprocessedStates(db, [...paidAt.keys()], transferredAt)
  const transferred = [...paidAt.keys()].filter((orderId) => transferredAt.has(orderId)).length
  const report = await checkExactlyOnce(db, marketplace, new Map())
  const problems = [...report.problems]
  if (transferred < ORDERS) {
    const states = [...unprocessed].map(([state, count]) => `${count} ${state}`).join(', ')
    problems.push(`${fmt(ORDERS - transferred)} orders not transferred within the run (${states})`)
  }
  const owed = everyOrder * SHAPE.brandsPerOrder
  if (report.brandOrders !== owed || report.transfers !== owed) {
    problems.push(
      `${fmt(report.brandOrders)} brand orders and ${fmt(report.transfers)} transfers for ${fmt(owed)} owed`,
    )
  }
  return {
    killed: kill,
    seconds: (last - started) / 1000,
    floor: floorOf(timesOrders(needs)),
    floorOfCalls: floorOf(asked),
    asked,
    latencies,
    transferred,
    unprocessed,
    webhookAnswers: balancer.answers,
    brandOrders: report.brandOrders,
    transfers: report.transfers,
    breaches: report.problems.length,
    problems,
    killedAtSeconds: killedAt === null ? null : (killedAt - started) / 1000,
    machineBusy: (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total),
    errorsLogged: group.servers
      .flatMap((server) => loggedErrors(server.logFile))
      .reduce((sum, error) => sum + error.count, 0),
  }
}

/** Every shop of the run, whose Shopify points are counted. */
const shopsOf = (marketplace: PipelineMarketplace) => [
  ...marketplace.creators,
  ...marketplace.brands,
]

/**
 * What one order needs, from one order paid and transferred alone before the run: its Stripe
 * requests, and the points it cost its creator shop and each of its brand shops.
 */
async function oneOrderNeeds(
  db: Db,
  marketplace: PipelineMarketplace,
): Promise<{ stripe: Map<string, number>; creatorPoints: number; brandPoints: number }> {
  const before = askedSince(marketplace, shopsOf(marketplace))
  await payOrder(marketplace, 0)
  const deadline = Date.now() + 60_000
  while ((await transferredCount(db)) < 1) {
    if (Date.now() > deadline) throw new Error('The lone order was not transferred in a minute')
    await sleep(100)
  }
  const asked = askedSince(marketplace, shopsOf(marketplace), before)
  const spentBy = (shops: string[]) => shops.reduce((sum, shop) => sum + asked.points.get(shop)!, 0)
  return {
    stripe: asked.stripe,
    creatorPoints: spentBy(marketplace.creators),
    brandPoints: spentBy(marketplace.brands) / SHAPE.brandsPerOrder,
  }
}

/** The run's orders, each asking what the lone order asked, spread over the shops as they are. */
function timesOrders(needs: Awaited<ReturnType<typeof oneOrderNeeds>>): Asked {
  const perCreator = Math.ceil(ORDERS / SHAPE.creators)
  const perBrand = Math.ceil((ORDERS * SHAPE.brandsPerOrder) / SHAPE.brands)
  return {
    stripe: new Map([...needs.stripe].map(([endpoint, n]) => [endpoint, n * ORDERS])),
    points: new Map([
      ['each creator shop', needs.creatorPoints * perCreator],
      ['each brand shop', needs.brandPoints * perBrand],
    ]),
  }
}

/**
 * The i-th order: from the i-th creator in turn, one unit of one variant of each of
 * `brandsPerOrder` brands of its catalogue, paid through Stripe with enough to pay them.
 */
function payOrder(marketplace: PipelineMarketplace, i: number) {
  const c = i % SHAPE.creators
  const creator = marketplace.creators[c]!
  const round = Math.floor(i / SHAPE.creators)
  const sold = marketplace.copies.get(creator)!
  const brands = brandsOfCreator(SHAPE, c)
  const lines = Array.from({ length: SHAPE.brandsPerOrder }, (_, j) => {
    const variants = sold.get(marketplace.brands[brands[(round + j) % brands.length]!]!)!
    return { variantId: variants[round % variants.length]!, quantity: 1 }
  })
  return createStripePaidOrder(
    marketplace,
    creator,
    { lines, email: `pipeline-${i}@bench.example` },
    { amountMinor: 1_000_000, currency: 'usd' },
  )
}

async function transferredCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('order_transfers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'COMPLETED')
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

async function waitForCatchUp(db: Db): Promise<void> {
  for (;;) {
    const pending = await sql<{ count: string }>`
      SELECT count(*) AS count FROM ${sql.id(JOB_SCHEMA, 'job')}
      WHERE name = ${CATCH_UP_JOB} AND state IN ('created', 'active', 'retry')`.execute(db)
    if (Number(pending.rows[0]!.count) === 0) return
    await sleep(250)
  }
}

/** The orders paid and not transferred, by their automation state (NONE: never recorded). */
async function unprocessedStates(
  db: Db,
  paid: string[],
  transferredAt: Map<string, number>,
): Promise<Map<string, number>> {
  const left = paid.filter((orderId) => !transferredAt.has(orderId))
  const states = new Map<string, number>()
  if (left.length === 0) return states
  const rows = await db
    .selectFrom('order_automation')
    .select(['creator_order_id', 'state'])
    .where('creator_order_id', 'in', left)
    .execute()
  const stateOf = new Map(rows.map((row) => [row.creator_order_id, row.state as string]))
  for (const orderId of left) {
    const state = stateOf.get(orderId) ?? 'NONE'
    states.set(state, (states.get(state) ?? 0) + 1)
  }
  return states
}

/**
 * The least time the orders could take under the limits, given what they ask of each: the
 * webhooks at their rate; Stripe's requests in all and at its busiest endpoint at its live limits;
 * the busiest shop's Shopify points beyond a full bucket at its restore rate. The binding limit
 * is the largest.
 */
function floorOf(asked: Asked): Floor {
  const stripeRequests = total(asked.stripe)
  const [endpoint, endpointRequests] = busiest(asked.stripe)
  const [shop, points] = busiest(asked.points)
  const { perSecond, perEndpointPerSecond } = STRIPE_LIVE_RATE_LIMITS
  const candidates = [
    { limit: `webhooks at ${ORDERS_PER_SECOND}/s`, seconds: ORDERS / ORDERS_PER_SECOND },
    {
      limit: `Stripe, ${fmt(stripeRequests)} requests at ${perSecond}/s`,
      seconds: stripeRequests / perSecond,
    },
    {
      limit: `Stripe ${endpoint}, ${fmt(endpointRequests)} at ${perEndpointPerSecond}/s`,
      seconds: endpointRequests / perEndpointPerSecond,
    },
    {
      limit: `Shopify, ${fmt(points)} points of ${shop.replace('.myshopify.com', '')}`,
      seconds:
        Math.max(0, points - SHOPIFY_STANDARD.maximumAvailable) / SHOPIFY_STANDARD.restoreRate,
    },
  ]
  const binding = [...candidates].sort((a, b) => b.seconds - a.seconds)[0]!
  return { candidates, binding }
}

function printOutcomes(runs: RunOutcome[]): void {
  const row = (label: string, cell: (run: RunOutcome) => string) => [label, ...runs.map(cell)]
  const none = (n: number) => (n === 0 ? 'none' : `${fmt(n)} !!!`)
  const s = (seconds: number) => `${seconds.toFixed(1)} s`
  const limits = runs[0]!.floor.candidates.map((_, i) => i)
  console.log('')
  printTable([
    row('', (run) => (run.killed ? 'one process killed' : 'two processes')),
    row('first webhook → last transferred', (run) => s(run.seconds)),
    row('floor: what the orders need', (run) => `${s(run.floor.binding.seconds)}`),
    row(
      'ratio to the floor',
      (run) =>
        `${(run.seconds / run.floor.binding.seconds).toFixed(2)} (aim ≤ ${run.killed ? AIMS.killed : AIMS.plain}${SHORT ? ', not judged in the short form' : ''})`,
    ),
    ...limits.map((i) =>
      row(i === 0 ? '  each limit, for what they need' : '', (run) => {
        const candidate = run.floor.candidates[i]!
        return `${s(candidate.seconds)}  ${candidate.limit}`
      }),
    ),
    ...limits.map((i) =>
      row(i === 0 ? '  each limit, for what the run asked' : '', (run) => {
        const candidate = run.floorOfCalls.candidates[i]!
        return `${s(candidate.seconds)}  ${candidate.limit}`
      }),
    ),
    row('Stripe requests a second', (run) => {
      const asked = total(run.asked.stripe)
      return `${(asked / run.seconds).toFixed(1)} of ${STRIPE_LIVE_RATE_LIMITS.perSecond} allowed`
    }),
    row(
      "machine's CPU busy",
      (run) => `${Math.round(run.machineBusy * 100)} % of ${availableParallelism()} cores`,
    ),
    row(
      'paid → transferred p50 / p99',
      (run) =>
        `${s(percentile(run.latencies, 0.5) / 1000)} / ${s(percentile(run.latencies, 0.99) / 1000)}`,
    ),
    row('orders transferred', (run) => `${fmt(run.transferred)} of ${fmt(ORDERS)}`),
    row('lost or unprocessed', (run) => none(ORDERS - run.transferred)),
    row(
      'brand orders / Stripe transfers',
      (run) => `${fmt(run.brandOrders)} / ${fmt(run.transfers)}`,
    ),
    row('duplicated or mismatched', (run) => none(run.breaches)),
    row('webhook answers', (run) =>
      [...run.webhookAnswers].map(([status, count]) => `${fmt(count)} × ${status}`).join(', '),
    ),
    row('process killed at', (run) =>
      run.killedAtSeconds === null ? '—' : `${s(run.killedAtSeconds)} (half transferred)`,
    ),
    row("errors in the servers' logs", (run) => none(run.errorsLogged)),
  ])
}

if (require.main === module) {
  withBenchAdmin(main)
    .then((failures) => {
      if (failures.length > 0) process.exitCode = 1
    })
    .catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
}
