import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startShopifyEmulator } from '../../emulators/shopify/emulator'
import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import { startStripeEmulator } from '../../emulators/stripe/emulator'
import { connectStripe } from '../src/adapters/payments/stripe/stripe-payments'
import { openDatabase } from '../src/db/connect'
import { sqliteJobQueue } from '../src/jobs/sqlite-job-queue'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { createSecretBox } from '../src/secrets'
import { STORES } from '../src/seed/sandbox-data'
import { seedSandboxMarketplace } from '../src/seed/seed'
import { BRANDS_READ_AT_ONCE } from '../src/transfers/catalogue-checks'
import { createTransferService } from '../src/transfers/transfer-service'
import { transferTiming } from '../src/transfers/transfer-timing'
import { addBenchMarketplace, addBenchShops, BENCH_CREATOR, benchBrands } from './bench-data'
import { startLatencyProxy } from './bench-latency'
import { floorOf, nameShopifyCall, nameStripeCall, type NamedCall } from './bench-transfer-floor'

// `npm run bench:transfer`: processing the benchmark's 20-brand order (bench-data.ts), its shops
// connected beforehand, with every call to Shopify and Stripe answered 100 ms after it was sent,
// as the real services' are (a proxy in front of each emulator), beside the least time those
// calls allow: the longest chain of the calls the run made in which each needs the one before
// (bench-transfer-floor.ts), and the same processing with no latency (Tandem's own work under the
// machine's load). Exits 1 when processing takes more than AIM times that floor, or reads the same
// thing twice. `--short`: the run with latency and its checks, its figures printed but not judged
// (CI's check that it still runs).

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS || 100)
const SHORT = process.argv.includes('--short')
const AIM = 1.25
/** The bench's brand accounts are acct_bench_<n>, of its n-th brand. */
const accountShop = (accountId: string) =>
  benchBrands()[Number(accountId.replace('acct_bench_', ''))] ?? accountId

interface Run {
  ms: number
  calls: NamedCall[]
  brandOrders: number
}

async function processOnce(latencyMs: number): Promise<Run> {
  const folder = mkdtempSync(join(tmpdir(), 'tandem-bench-transfer-'))
  const db = await openDatabase({ sqliteFile: join(folder, 'tandem.sqlite') })
  const shopify = await startShopifyEmulator({ imageBaseUrl: 'http://127.0.0.1' })
  const stripe = await startStripeEmulator()
  const shopifyProxy = await startLatencyProxy(shopify.url, latencyMs)
  const stripeProxy = await startLatencyProxy(stripe.url, latencyMs)
  try {
    const secrets = createSecretBox(randomBytes(32))
    await seedSandboxMarketplace(db, { secrets, now: new Date() })
    const bench = await addBenchShops(shopify, stripe)
    await addBenchMarketplace(db, secrets, bench, STORES.length)
    const now = () => new Date()
    const shopifyAdapter = connectShopify({
      connectionStore: shopConnectionStore(db, secrets),
      creatorOrders: creatorOrderIndex(db),
      keyAttempts: shopifyKeyAttempts(db),
      endpoint: shopifyProxy.url,
      publicUrl: 'http://127.0.0.1',
      now,
    })
    // Every shop connected before processing, as a shop is once installed or tested in Configs:
    // its token held and its webhooks registered. A shop's first connection registers its
    // webhooks in the background, on the shop's one queue of calls: during processing, those
    // calls held processing's own calls up, without being processing's.
    for (const shop of [BENCH_CREATOR, ...benchBrands()]) {
      await shopifyAdapter.connections.accessToken(shop)
    }
    await shopifyProxy.settled()
    // The Stripe client has made its first request, as a running server's has: the first one
    // sets the client up (before it, processing's first Stripe calls left some 30 ms late).
    const payments = connectStripe({ secretKey: stripe.secretKey, endpoint: stripeProxy.url })
    await payments.connectedAccount('acct_bench_0')
    const transfers = createTransferService({
      db,
      // Never started: only accepting a price exception sends a job, which this does not.
      jobs: sqliteJobQueue(db),
      commerce: shopifyAdapter.commerce,
      payments,
      now,
    })
    const started = performance.now()
    const answer = await transfers.process(bench.orderId, {
      adminEmail: 'bench@tandem.test',
      audit: async () => {},
    })
    const ms = performance.now() - started
    // Only the calls made while processing ran: the seeding's are not processing's.
    const during = (call: { startedMs: number }) => call.startedMs >= started
    const calls = [
      ...shopifyProxy.calls.filter(during).map(nameShopifyCall),
      ...stripeProxy.calls.filter(during).map((call) => nameStripeCall(call, accountShop)),
    ].sort((a, b) => a.startedMs - b.startedMs)
    return { ms, calls, brandOrders: answer.brandOrders.length }
  } finally {
    // What the shops' connections still send (their webhooks' registration) ends first.
    await Promise.all([shopifyProxy.settled(), stripeProxy.settled()])
    await shopifyProxy.close()
    await stripeProxy.close()
    await shopify.close()
    await stripe.close()
    await db.destroy()
    rmSync(folder, { recursive: true, force: true })
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`

async function main(): Promise<void> {
  const brands = benchBrands().length
  const atOnce = Math.min(transferTiming().brandConcurrency, BRANDS_READ_AT_ONCE)
  // The floor has every brand's calls run at once, as processing does with this many brands.
  if (brands > atOnce) {
    throw new Error(
      `The bench order has ${brands} brands, more than processing reads or runs at once (${atOnce}): its floor would not hold`,
    )
  }
  // The full form warms the process up first (module loading, the first statements prepared), so
  // that neither measured run pays for it; then, after the measured run, Tandem's own work (its
  // database, the adapters, the emulators answering) under this machine's load now: the same
  // processing with no latency.
  if (!SHORT) await processOnce(0)
  const run = await processOnce(LATENCY_MS)
  const local = SHORT ? null : await processOnce(0)
  if (run.brandOrders !== brands) {
    throw new Error(`Expected ${brands} brand orders, got ${run.brandOrders}`)
  }
  const floor = floorOf(run.calls, LATENCY_MS)
  const ratio = run.ms / floor.ms
  const byKind = new Map<string, number>()
  for (const call of floor.awaited) byKind.set(call.kind, (byKind.get(call.kind) ?? 0) + 1)

  console.log(`Processing a ${brands}-brand order, ${LATENCY_MS} ms per remote call`)
  console.log(
    `  calls processing made: ${floor.awaited.length} (` +
      [...byKind].map(([kind, count]) => `${count} ${kind}`).join(', ') +
      `); ${floor.background.length} more its shops' connections made on their own`,
  )
  console.log(
    `  the longest chain of calls each needing the one before: ${floor.chain.length} calls`,
  )
  for (const call of floor.chain) {
    console.log(`    ${call.service.padEnd(8)}${call.kind.padEnd(26)}${call.party || 'the order'}`)
  }
  console.log(
    `  processed in ${seconds(run.ms)}; least the calls allow ${seconds(floor.ms)}; ` +
      `ratio ${ratio.toFixed(2)} (aim ≤ ${AIM}${SHORT ? '; short form: not judged' : ''})`,
  )
  if (local) {
    console.log(
      `  the same with no latency (Tandem's own work under this load): ${seconds(local.ms)}`,
    )
  }
  console.log(
    floor.repeated.length === 0
      ? '  repeated reads: none'
      : `  repeated reads: ${floor.repeated.map((read) => `${read.kind} ×${read.times}`).join(', ')}`,
  )
  // A read made twice is a check, short form or not; the ratio is judged only in the full run.
  if (floor.repeated.length > 0) process.exitCode = 1
  if (!SHORT && ratio > AIM) process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
