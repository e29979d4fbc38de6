import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startShopifyEmulator } from '../../emulators/shopify/emulator'
import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import { startStripeEmulator, type StripeOperation } from '../../emulators/stripe/emulator'
import { connectStripe } from '../src/adapters/payments/stripe/stripe-payments'
import { openDatabase } from '../src/db/connect'
import { sqliteJobQueue } from '../src/jobs/sqlite-job-queue'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { createSecretBox } from '../src/secrets'
import { STORES } from '../src/seed/sandbox-data'
import { seedSandboxMarketplace } from '../src/seed/seed'
import { createTransferService } from '../src/transfers/transfer-service'
import { addBenchMarketplace, addBenchShops } from './bench-data'

// `npm run bench:transfer`: processing the benchmark's 20-brand order (bench-data.ts) with every
// call to the Shopify and Stripe emulators taking 100 ms more, as Shopify's and
// Stripe's do, one brand at a time (the way it was) beside eight at once, in one run. Prints;
// asserts nothing.

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS || 100)
const BRANDS = 20
const SHOPIFY_OPERATIONS = ['order', 'orderCreate', 'orderMarkAsPaid']
const PAYMENT_OPERATIONS: StripeOperation[] = [
  'accounts.retrieve',
  'paymentIntents.retrieve',
  'transfers.create',
]

async function timeProcessing(brandConcurrency: number): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'tandem-bench-transfer-'))
  const db = await openDatabase({ sqliteFile: join(folder, 'tandem.sqlite') })
  const shopify = await startShopifyEmulator({ imageBaseUrl: 'http://127.0.0.1' })
  const stripe = await startStripeEmulator()
  try {
    const secrets = createSecretBox(randomBytes(32))
    await seedSandboxMarketplace(db, { secrets, now: new Date() })
    const bench = await addBenchShops(shopify, stripe)
    await addBenchMarketplace(db, secrets, bench, STORES.length)
    const { orderId } = bench
    for (const operation of SHOPIFY_OPERATIONS) {
      shopify.script({ operation, mode: 'delay', delayMs: LATENCY_MS, times: 1e9 })
    }
    for (const operation of PAYMENT_OPERATIONS) {
      stripe.script({ operation, mode: 'delay', delayMs: LATENCY_MS, times: 1e9 })
    }
    const now = () => new Date()
    const transfers = createTransferService({
      db,
      // Never started: only accepting a price exception sends a job, which this does not.
      jobs: sqliteJobQueue(db),
      commerce: connectShopify({
        connectionStore: shopConnectionStore(db, secrets),
        creatorOrders: creatorOrderIndex(db),
        keyAttempts: shopifyKeyAttempts(db),
        endpoint: shopify.url,
        publicUrl: 'http://127.0.0.1',
        now,
      }).commerce,
      payments: connectStripe({ secretKey: stripe.secretKey, endpoint: stripe.url }),
      now,
      transferTiming: { brandConcurrency },
    })
    const started = performance.now()
    const answer = await transfers.process(orderId, {
      adminEmail: 'bench@tandem.test',
      audit: async () => {},
    })
    const elapsed = performance.now() - started
    if (answer.brandOrders.length !== BRANDS) {
      throw new Error(`Expected ${BRANDS} brand orders, got ${answer.brandOrders.length}`)
    }
    return elapsed
  } finally {
    await shopify.close()
    await stripe.close()
    await db.destroy()
    rmSync(folder, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const sequential = await timeProcessing(1)
  const parallel = await timeProcessing(8)
  // The creator order's lookup, its 100 lines in two pages of 50; then each brand's account
  // checked (the PaymentIntent read beside the first round); then per brand the order, its
  // payment and the transfer. Eight brands at a time: ceil(20 / 8) rounds of each.
  const floor = LATENCY_MS * (2 + 4 * Math.ceil(BRANDS / 8))
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
  console.log(`Processing a ${BRANDS}-brand order, ${LATENCY_MS} ms per remote call`)
  console.log(`  one brand at a time (the way it was)  ${seconds(sequential)}`)
  console.log(
    `  eight brands at once                  ${seconds(parallel)}   ` +
      `${(sequential / parallel).toFixed(1)}× faster; least the latency allows ${seconds(floor)}; aim < ${seconds(floor * 1.2)}`,
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
