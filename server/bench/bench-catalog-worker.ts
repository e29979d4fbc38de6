import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import { followBrandProduct, followInventoryItem } from '../src/catalog/brand-news'
import { registerCatalogJobs } from '../src/catalog/catalog-work'
import { listProducts } from '../src/catalog/listings'
import { openDatabase } from '../src/db/connect'
import type { JobContext, JobQueue, RegisterOptions } from '../src/jobs/job-queue'
import { openJobQueue } from '../src/jobs/open-job-queue'
import { createProductSync } from '../src/products/product-sync'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { createSecretBox } from '../src/secrets'

// `bench:catalog`'s Tandem: one server's catalog as it runs in production (its two jobs on pg-boss
// and PostgreSQL, the Shopify adapter, the brand's news followed as the webhook inbox's job does),
// in a process of its own so that the memory it holds is measured apart from the emulator's. The
// benchmark (bench-catalog.ts) tells it what to do over IPC and is answered each time.

export type WorkerCommand =
  | { do: 'sync-products'; brand: string }
  | { do: 'list'; brand: string; creators: string[]; productIds: string[] }
  | { do: 'follow'; brand: string; productIds: string[]; inventoryItemIds: string[] }
  | { do: 'sent' }
  | { do: 'peak' }
  | { do: 'stop' }

export interface WorkerStopped {
  /** Jobs sent (folded ones aside), by name, since the worker started. */
  sent: Record<string, number>
  /** The process's peak resident memory. */
  peakRssMb: number
  /** Its resident memory once started, before any work. */
  startedRssMb: number
  /** The most its JavaScript heap held, sampled every 100 ms. */
  peakHeapMb: number
  /** At the sample of its highest resident memory: what V8 had reserved and what lay outside it. */
  atPeak: { rssMb: number; heapTotalMb: number; externalMb: number; arrayBuffersMb: number }
  /** What its heap holds at the end once collected: what it keeps, not what it made and let go. */
  keptHeapMb: number
}

/** The process's highest resident memory so far. */
const peakRssMb = () => process.resourceUsage().maxRSS / 1024

/** The heap used after a full collection (the benchmark starts this process with --expose-gc). */
function collected(): number {
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL!
  const db = await openDatabase({ databaseUrl })
  const queue = openJobQueue(db, { databaseUrl, pollMs: 500, onError: console.error })
  const sent: Record<string, number> = {}
  const jobs: JobQueue = {
    ...queue,
    send: async (name, payload, options) => {
      const id = await queue.send(name, payload, options)
      if (id) sent[name] = (sent[name] ?? 0) + 1
      return id
    },
  }
  const now = () => new Date()
  const secrets = createSecretBox(Buffer.from(process.env.BENCH_SECRET_KEY!, 'hex'))
  const adapter = connectShopify({
    connectionStore: shopConnectionStore(db, secrets),
    creatorOrders: creatorOrderIndex(db),
    keyAttempts: shopifyKeyAttempts(db),
    endpoint: process.env.BENCH_SHOPIFY_URL!,
    publicUrl: 'http://127.0.0.1',
    now,
    log: () => {},
  })
  const deps = { db, jobs, commerce: adapter.commerce, now }
  const register = <Payload extends object>(
    name: string,
    handler: (payload: Payload, job: JobContext, settings: RegisterOptions) => Promise<void>,
    settings: RegisterOptions,
  ) => jobs.register<Payload>(name, (payload, job) => handler(payload, job, settings), settings)
  await registerCatalogJobs(register, deps)
  await jobs.start()
  const startedRssMb = process.memoryUsage.rss() / 2 ** 20
  let peakHeapMb = 0
  const mb = (bytes: number) => bytes / 2 ** 20
  let atPeak = { rssMb: 0, heapTotalMb: 0, externalMb: 0, arrayBuffersMb: 0 }
  const sampling = setInterval(() => {
    const usage = process.memoryUsage()
    peakHeapMb = Math.max(peakHeapMb, mb(usage.heapUsed))
    if (mb(usage.rss) > atPeak.rssMb) {
      atPeak = {
        rssMb: mb(usage.rss),
        heapTotalMb: mb(usage.heapTotal),
        externalMb: mb(usage.external),
        arrayBuffersMb: mb(usage.arrayBuffers),
      }
    }
  }, 100)

  const run = async (command: WorkerCommand): Promise<unknown> => {
    switch (command.do) {
      case 'sync-products':
        return createProductSync({ db, commerce: adapter.commerce, now }).sync(command.brand)
      case 'list':
        for (const creator of command.creators) {
          await listProducts(deps, null, {
            creatorStoreShop: creator,
            brandStoreShop: command.brand,
            productIds: command.productIds,
          })
        }
        return null
      case 'follow':
        for (const productId of command.productIds) {
          await followBrandProduct(deps, command.brand, productId)
        }
        for (const item of command.inventoryItemIds) {
          await followInventoryItem(deps, command.brand, item)
        }
        return null
      case 'sent':
        return { ...sent }
      case 'peak':
        return peakRssMb()
      case 'stop':
        clearInterval(sampling)
        await jobs.stop()
        await db.destroy()
        return {
          sent,
          peakRssMb: peakRssMb(),
          startedRssMb,
          peakHeapMb,
          atPeak,
          keptHeapMb: collected(),
        } satisfies WorkerStopped
    }
  }
  process.on('message', (message: { id: number; command: WorkerCommand }) => {
    run(message.command).then(
      (answer) => process.send!({ id: message.id, answer }),
      (error: unknown) => process.send!({ id: message.id, error: String(error) }),
    )
  })
  // The benchmark gone (interrupted), this process goes with it.
  process.once('disconnect', () => process.exit(1))
  process.send!({ id: 0, answer: 'ready' })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
