import { bundleServer } from '../scripts/bundle'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { openDatabase } from '../src/db/connect'
import {
  askedSince,
  busiest,
  SHOPIFY_LIMITS_DESCRIPTION,
  STRIPE_LIMITS_DESCRIPTION,
  STRIPE_LIVE_PACING,
  STRIPE_LIVE_RATE_LIMITS,
  SHOPIFY_STANDARD,
  total,
  type Asked,
} from './bench-limits'
import { checkExactlyOnce, settleTransfers, type ExactlyOnceReport } from './bench-load-checks'
import { prepareLoadMarketplace } from './bench-load-data'
import { floorOf, measureOrderNeeds, type Floor, type OrderNeeds } from './bench-load-floor'
import {
  KIND_LABELS,
  loadMix,
  MIX_DESCRIPTION,
  percentile,
  READ_KINDS,
  warmUpRequests,
  type MixTally,
} from './bench-load-mix'
import { loggedErrors, startServers } from './bench-load-servers'
import { benchPostgres, freshDatabase, type BenchPostgres } from './bench-postgres'
import {
  cpuSeconds,
  fmt,
  machineCpu,
  printTable,
  residentMegabytes,
  withBenchAdmin,
  type BenchAdmin,
} from './bench-support'
import { SHORT } from './bench-args'

// The load test of `npm run bench:server` (or on its own: `node --import tsx bench/bench-load.ts`
// in server/): the real server, src/main.ts bundled, on PostgreSQL, under 50 connections mixing
// reads, rate writes and transfer processing (bench-load-mix.ts), first as one process, then as
// two on one database, each run on fresh data. The Stripe emulator holds the servers to Stripe's
// live limits (bench-limits.ts), which set a floor: the orders a second they let through
// (bench-load-floor.ts). Prints throughput and latency of both side by side, the
// orders processed a second beside that floor; fails when any answer was a 5xx or went
// unanswered, or when an order or a payment was made twice (bench-load-checks.ts): those are
// bugs. It fails too when processing falls below AIMS.throughput of the floor or the reads' p99
// is over AIMS.readsP99Ms (not in the short form, `--short`: 100 orders, 10 s a run).

/**
 * `--soak`: one process for BENCH_SOAK_SECONDS (10 minutes), its memory sampled throughout; it
 * fails when the last minute's peak is over the first's by more than SOAK_GROWTH.
 */
const SOAK = process.argv.includes('--soak')
const SOAK_GROWTH = 0.1
const SECONDS = SOAK
  ? Number(process.env.BENCH_SOAK_SECONDS || 600)
  : SHORT
    ? 5
    : Number(process.env.BENCH_LOAD_SECONDS || 30)
const CONNECTIONS = 50
/** Enough orders that the process calls of a run never run out of new ones. */
const POOL_SIZE = SHORT ? 100 : Number(process.env.BENCH_LOAD_ORDERS || (SOAK ? 5000 : 2000))
/** How often the servers' memory is sampled during a run, in ms. */
const SAMPLE_MS = 5000
/** As long as a transfer's lease: a request unanswered by then is stuck, not slow. */
const TIMEOUT_SECONDS = 30
/** Orders processed a second, as a share of the floor; the reads' p99 while they are. */
const AIMS = { throughput: 0.8, readsP99Ms: 300 }

interface RunOutcome {
  processes: number
  result: autocannon.Result
  tally: MixTally
  report: ExactlyOnceReport
  /** The run's length, in seconds. */
  seconds: number
  /** What the mix asks for each order it processes, from each request sent once before the run. */
  needs: OrderNeeds
  /** The orders a second the limits let through, for those needs. */
  floor: Floor
  /** What the run asked of the limits. */
  asked: Asked
  /** The pool's creator stores. */
  creators: string[]
  /** The p99 of every read's latency, in ms. */
  readsP99: number
  /** Leases still held once the run's requests had had a lease's time to finish. */
  stillHeld: number
  rssMb: number[]
  /** The first server's memory through the run: seconds from its start, and MB. */
  rssSamples: { at: number; mb: number }[]
  /**
   * CPU used during the run, in cores: each server's, PostgreSQL's (when it is this run's own
   * cluster), this process's (the load generator and the emulators); and the machine's busy share
   * of all its cores.
   */
  usage: { servers: number[]; postgres: number | null; bench: number; machine: number }
  errorsLogged: { server: number; message: string; count: number; first: string }[]
  failures: string[]
}

export async function runLoadTest(admin: BenchAdmin): Promise<string[]> {
  const postgres = await benchPostgres()
  const logDir = mkdtempSync(join(tmpdir(), 'tandem-bench-load-'))
  let keepLogs = false
  try {
    const bundle = await bundleServer('src/main.ts', 'bench-load-main.cjs')
    console.log(
      `${SOAK ? 'Soak' : 'Load test'}: the real server (src/main.ts) on ${postgres.origin}, ` +
        `${SOAK ? 'one process' : 'one process, then two on one database'};\n${CONNECTIONS} ` +
        `connections for ${SECONDS} s per run, each in turn ${MIX_DESCRIPTION}; ` +
        `${fmt(POOL_SIZE)} fresh orders per run;\nheld to ${STRIPE_LIMITS_DESCRIPTION}; ` +
        `Shopify's not enforced (${SHOPIFY_LIMITS_DESCRIPTION} printed beside what the mix asks)\n`,
    )
    const runs: RunOutcome[] = []
    for (const processes of SOAK ? [1] : [1, 2]) {
      runs.push(await loadRun({ processes, postgres, admin, bundle, logDir }))
    }
    printOutcomes(runs)
    printNeeds(runs[0]!.needs)
    const failures = [...runs.flatMap((run) => run.failures), ...(SOAK ? soakGrowth(runs[0]!) : [])]
    if (failures.length > 0) {
      console.log(`\n!!! LOAD TEST FAILED: ${failures.length} failures !!!`)
      for (const failure of failures.slice(0, 40)) console.log(`  ${failure}`)
    }
    // What the servers logged as errors says why, even when no answer showed it (a webhook's).
    for (const run of runs) {
      for (const error of run.errorsLogged.slice(0, 5)) {
        console.log(
          `\n  ${run.processes}-process run, server ${error.server} logged ${error.count}×: ${error.message}\n` +
            error.first.replace(/^/gm, '    '),
        )
      }
    }
    keepLogs = failures.length > 0 || runs.some((run) => run.errorsLogged.length > 0)
    if (keepLogs) console.log(`\n  The servers' logs are kept in ${logDir}`)
    return failures
  } finally {
    if (!keepLogs) rmSync(logDir, { recursive: true, force: true })
    await postgres.stop()
  }
}

async function loadRun(options: {
  processes: number
  postgres: BenchPostgres
  admin: BenchAdmin
  bundle: string
  logDir: string
}): Promise<RunOutcome> {
  const { processes, admin } = options
  const database = await freshDatabase(options.postgres)
  const secretKey = randomBytes(32)
  try {
    const marketplace = await prepareLoadMarketplace({
      databaseUrl: database.url,
      secretKey,
      poolSize: POOL_SIZE,
    })
    try {
      const runLogDir = join(options.logDir, `${processes}-process`)
      mkdirSync(runLogDir)
      const group = await startServers({
        bundle: options.bundle,
        count: processes,
        databaseUrl: database.url,
        secretKey,
        shopifyUrl: marketplace.shopify.url,
        stripe: { url: marketplace.stripe.url, secretKey: marketplace.stripe.secretKey },
        admin,
        logDir: runLogDir,
        env: STRIPE_LIVE_PACING,
      })
      try {
        // autocannon spreads the connections over the URLs in turn (its types say one URL only).
        const url = group.servers.map((server) => server.url) as unknown as string
        // Reads only, so that every order is left for the run: the servers' code gets compiled.
        await autocannon({
          url,
          connections: 10,
          duration: 2,
          requests: warmUpRequests(admin.token),
        })
        const needs = await measureOrderNeeds(
          marketplace,
          group.servers.map((server) => server.url),
          admin.token,
        )
        const shops = [...marketplace.creators, ...marketplace.brands]
        const askedBefore = askedSince(marketplace, shops)

        const { requests, tally } = loadMix({
          token: admin.token,
          pool: marketplace.pool,
          brands: marketplace.brands,
          creators: marketplace.creators,
        })
        const pids = group.servers.map((server) => server.child.pid!)
        const postgresPid = options.postgres.pid
        const serverCpuBefore = pids.map(cpuSeconds)
        const postgresCpuBefore = postgresPid === null ? 0 : cpuSeconds(postgresPid)
        const machineBefore = machineCpu()
        const cpuBefore = process.cpuUsage()
        const started = performance.now()
        const rssSamples: RunOutcome['rssSamples'] = []
        const sampling = setInterval(() => {
          const at = (performance.now() - started) / 1000
          rssSamples.push({ at, mb: residentMegabytes(pids[0]!) })
        }, SAMPLE_MS)
        const result = await autocannon({
          url,
          connections: CONNECTIONS,
          duration: SECONDS,
          timeout: TIMEOUT_SECONDS,
          requests,
        })
        clearInterval(sampling)
        const seconds = (performance.now() - started) / 1000
        const asked = askedSince(marketplace, shops, askedBefore)
        const cpu = process.cpuUsage(cpuBefore)
        const machineAfter = machineCpu()
        const usage = {
          servers: pids.map((pid, i) => (cpuSeconds(pid) - serverCpuBefore[i]!) / seconds),
          postgres:
            postgresPid === null ? null : (cpuSeconds(postgresPid) - postgresCpuBefore) / seconds,
          bench: (cpu.user + cpu.system) / 1e6 / seconds,
          machine:
            (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
        }
        const rssMb = pids.map(residentMegabytes)

        const db = await openDatabase({ databaseUrl: database.url })
        try {
          const stillHeld = await settleTransfers(db, TIMEOUT_SECONDS * 1000 + 5000)
          const report = await checkExactlyOnce(db, marketplace, tally.completedAnswers)
          const errorsLogged = group.servers.flatMap((server, i) =>
            loggedErrors(server.logFile).map((error) => ({ server: i + 1, ...error })),
          )
          const readsP99 = percentile(
            READ_KINDS.flatMap((kind) => tally.kinds.get(kind)!.latencies),
            0.99,
          )
          const floor = floorOf(needs)
          const failures = [
            ...failuresOf(processes, result, tally, report),
            ...slowness(processes, tally, seconds, floor, readsP99),
          ]
          return {
            processes,
            result,
            tally,
            report,
            seconds,
            needs,
            floor,
            asked,
            creators: marketplace.creators,
            readsP99,
            stillHeld,
            rssMb,
            rssSamples,
            usage,
            errorsLogged,
            failures,
          }
        } finally {
          await db.destroy()
        }
      } finally {
        await group.stop()
      }
    } finally {
      await marketplace.close()
    }
  } finally {
    await database.drop()
  }
}

function failuresOf(
  processes: number,
  result: autocannon.Result,
  tally: MixTally,
  report: ExactlyOnceReport,
): string[] {
  const run = `${processes}-process run:`
  const failures: string[] = []
  if (result['5xx'] > 0) {
    failures.push(`${run} ${result['5xx']} answers were 5xx`)
    failures.push(...tally.serverErrors.map((error) => `${run}   ${error}`))
  }
  if (result.errors > 0) {
    failures.push(
      `${run} ${result.errors} requests got no answer (${result.timeouts} after ${TIMEOUT_SECONDS} s)`,
    )
  }
  failures.push(...report.problems.map((problem) => `${run} ${problem}`))
  return failures
}

/**
 * The soak's verdict: the peak of its first minute's memory beside its last's, and each minute's
 * printed, so that growth shows as a trend and not one sample.
 */
function soakGrowth(run: RunOutcome): string[] {
  const minutes = Math.ceil(run.seconds / 60)
  const peaks = Array.from({ length: minutes }, (_, m) =>
    Math.max(...run.rssSamples.filter((s) => Math.floor(s.at / 60) === m).map((s) => s.mb)),
  ).filter(Number.isFinite)
  const first = peaks[0]!
  const last = peaks.at(-1)!
  console.log(
    `\nSoak: the server's RSS peak each minute: ${peaks.map((mb) => mb.toFixed(0)).join(', ')} MB; ` +
      `last minute ${last.toFixed(0)} MB beside the first's ${first.toFixed(0)} MB ` +
      `(aim: at most ${SOAK_GROWTH * 100} % more)`,
  )
  return last > first * (1 + SOAK_GROWTH)
    ? [
        `soak: the last minute's RSS peak ${last.toFixed(0)} MB grew over the first's ${first.toFixed(0)} MB`,
      ]
    : []
}

/** Orders answered COMPLETED a second over the run: the servers' process throughput. */
const processed = (run: { tally: MixTally; seconds: number }) =>
  run.tally.completedAnswers.size / run.seconds

/** The figures' aims, judged at full size only: the short form's figures are too few. */
function slowness(
  processes: number,
  tally: MixTally,
  seconds: number,
  floor: Floor,
  readsP99: number,
): string[] {
  if (SHORT) return []
  const run = `${processes}-process run:`
  const ratio = processed({ tally, seconds }) / floor.binding.ordersPerSecond
  return [
    ...(ratio < AIMS.throughput
      ? [`${run} processed ${ratio.toFixed(2)} of the floor, under its aim of ${AIMS.throughput}`]
      : []),
    ...(readsP99 >= AIMS.readsP99Ms
      ? [`${run} reads p99 ${readsP99.toFixed(0)} ms, over its aim of ${AIMS.readsP99Ms} ms`]
      : []),
  ]
}

/** The machine's busy cores that neither the servers, PostgreSQL nor this process used. */
const otherCores = (usage: RunOutcome['usage']) =>
  Math.max(
    0,
    usage.machine * cpus().length -
      usage.servers.reduce((sum, cores) => sum + cores, 0) -
      (usage.postgres ?? 0) -
      usage.bench,
  )

/** What each request asked once before the first run: where the floor comes from. */
function printNeeds(needs: OrderNeeds): void {
  console.log(
    '\nWhat each request asked once before the run, and how often the mix sends it an order:',
  )
  printTable(
    needs.each.map((each) => [
      each.request.replace(/creatorOrderId=\d+/, 'creatorOrderId=…'),
      `× ${each.perOrder}`,
      `${fmt(each.stripe)} Stripe requests`,
      `${fmt(each.creatorPoints)} points of the creators' Shopify`,
    ]),
    '  ',
  )
  console.log(
    `  The pool's orders are spread over ${needs.creators} creators' shops, as a marketplace's are.`,
  )
}

function printOutcomes(runs: RunOutcome[]): void {
  const row = (label: string, cell: (run: RunOutcome) => string) => [label, ...runs.map(cell)]
  const kinds = [...runs[0]!.tally.kinds.keys()]
  const answersOf = (run: RunOutcome, kind: (typeof kinds)[number]) =>
    run.tally.kinds.get(kind)!.answers
  const processAnswers = [
    ...new Set(runs.flatMap((run) => [...answersOf(run, 'process').keys()])),
  ].sort()
  const otherRefusals = kinds
    .filter((kind) => kind !== 'process')
    .flatMap((kind) =>
      [...new Set(runs.flatMap((run) => [...answersOf(run, kind).keys()]))]
        .filter((answer) => !answer.startsWith('2'))
        .map((answer) => ({ kind, answer })),
    )
  const none = (n: number) => (n === 0 ? 'none' : `${fmt(n)} !!!`)
  const run0 = runs[0]!
  const rate = (ordersPerSecond: number) =>
    Number.isFinite(ordersPerSecond) ? `${ordersPerSecond.toFixed(1)}` : 'no limit'
  const notJudged = SHORT ? ', not judged in the short form' : ''

  printTable([
    row('', (run) => (run.processes === 1 ? 'one process' : 'two processes')),
    row('throughput', (run) => `${fmt(run.result.requests.average)} req/s`),
    row('latency p50 / p99', (run) => `${run.result.latency.p50} / ${run.result.latency.p99} ms`),
    row(
      'orders processed a second',
      (run) =>
        `${processed(run).toFixed(1)} of a floor of ${run.floor.binding.ordersPerSecond.toFixed(1)}`,
    ),
    row(
      'ratio to the floor',
      (run) =>
        `${(processed(run) / run.floor.binding.ordersPerSecond).toFixed(2)} (aim ≥ ${AIMS.throughput}${notJudged})`,
    ),
    ...run0.floor.candidates.map((_, i) =>
      row(i === 0 ? '  each limit, orders a second' : '', (run) => {
        const candidate = run.floor.candidates[i]!
        return `${rate(candidate.ordersPerSecond)}  ${candidate.limit}`
      }),
    ),
    row('  Stripe requests a second', (run) => {
      const [endpoint, requests] = busiest(run.asked.stripe)
      const { perSecond, perEndpointPerSecond } = STRIPE_LIVE_RATE_LIMITS
      return (
        `${(total(run.asked.stripe) / run.seconds).toFixed(1)} of ${perSecond}; ` +
        `${endpoint} ${(requests / run.seconds).toFixed(1)} of ${perEndpointPerSecond}`
      )
    }),
    ...(['creator', 'brand'] as const).map((role) =>
      row(`  the busiest ${role}'s Shopify points a second`, (run) => {
        const [shop, points] = busiest(
          new Map(
            [...run.asked.points].filter(
              ([shop]) => run.creators.includes(shop) === (role === 'creator'),
            ),
          ),
        )
        return `${fmt(points / run.seconds)} of ${shop.replace('.myshopify.com', '')} (its standard plan restores ${SHOPIFY_STANDARD.restoreRate})`
      }),
    ),
    row(
      'reads p99',
      (run) => `${run.readsP99.toFixed(0)} ms (aim < ${AIMS.readsP99Ms} ms${notJudged})`,
    ),
    row('answers 2xx / 4xx', (run) => `${fmt(run.result['2xx'])} / ${fmt(run.result['4xx'])}`),
    row('5xx', (run) => none(run.result['5xx'])),
    row('no answer', (run) => none(run.result.errors)),
    ...kinds.map((kind) =>
      row(`  ${KIND_LABELS[kind]}`, (run) => {
        const latencies = run.tally.kinds.get(kind)!.latencies
        return `p99 ${percentile(latencies, 0.99).toFixed(0)} ms of ${fmt(latencies.length)}`
      }),
    ),
    ...processAnswers.map((answer) =>
      row(`  process: ${answer}`, (run) => fmt(answersOf(run, 'process').get(answer) ?? 0)),
    ),
    ...otherRefusals.map(({ kind, answer }) =>
      row(`  ${KIND_LABELS[kind]} answered ${answer}`, (run) =>
        fmt(answersOf(run, kind).get(answer) ?? 0),
      ),
    ),
    row(
      'transfers completed (partial)',
      (run) =>
        `${fmt(run.report.completed)} (${fmt(run.report.partial)}) of ${fmt(POOL_SIZE)} orders` +
        (run.tally.poolExhausted ? ', pool exhausted' : ''),
    ),
    row(
      'brand orders / Stripe transfers',
      (run) => `${fmt(run.report.brandOrders)} / ${fmt(run.report.transfers)}`,
    ),
    row('exactly-once breaches', (run) => none(run.report.problems.length)),
    row('leases still held after', (run) => none(run.stillHeld)),
    row("errors in the servers' logs", (run) =>
      none(run.errorsLogged.reduce((sum, error) => sum + error.count, 0)),
    ),
    row(
      'server RSS after the run',
      (run) => run.rssMb.map((mb) => mb.toFixed(0)).join(' + ') + ' MB',
    ),
    row(
      'server CPU',
      (run) => run.usage.servers.map((cores) => cores.toFixed(2)).join(' + ') + ' cores',
    ),
    row('PostgreSQL CPU', (run) =>
      run.usage.postgres === null ? 'not measured' : `${run.usage.postgres.toFixed(2)} cores`,
    ),
    row('load generator + emulators CPU', (run) => `${run.usage.bench.toFixed(2)} cores`),
    // On a shared machine, what else ran: figures with much here are not this code's alone.
    row('other processes CPU', (run) => `${otherCores(run.usage).toFixed(2)} cores`),
    row(
      'machine CPU busy',
      (run) => `${(run.usage.machine * 100).toFixed(0)} % of ${cpus().length} cores`,
    ),
  ])
}

if (require.main === module) {
  withBenchAdmin(runLoadTest)
    .then((failures) => {
      if (failures.length > 0) process.exitCode = 1
    })
    .catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
}
