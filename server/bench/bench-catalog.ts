import { fork } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { stopChild } from '../../scripts/lib/children'
import { bundleServer } from '../scripts/bundle'
import { startShopifyEmulator } from '../../emulators/shopify/emulator'
import type { CreatorProductInput, StockLevel } from '../src/adapters/commerce/catalog-port'
import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import {
  BRAND_PRODUCT_JOB,
  LISTING_SYNC_JOB,
  LISTING_SYNC_RETRIES,
  STORES_AT_ONCE,
} from '../src/catalog/catalog-jobs'
import type { ProductFields } from '../src/catalog/creator-product'
import { openDatabase, type Db } from '../src/db/connect'
import { insertAppConfig } from '../src/repositories/app-configs'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { recordStore } from '../src/repositories/stores'
import { createSecretBox } from '../src/secrets'
import { sandboxApp } from '../src/seed/sandbox-data'
import { seedSandboxMarketplace } from '../src/seed/seed'
import type { WorkerCommand, WorkerStopped } from './bench-catalog-worker'
import { benchPostgres, freshDatabase } from './bench-postgres'
import { fmt, SERVER_ENV, SERVER_NODE_ARGS } from './bench-support'

// `npm run bench:catalog` (issues 34 and 48): a brand's products listed on 1,000 creator stores
// change price and stock in the brand's Shopify, and its news reaches Tandem's catalog (one
// server's catalog jobs, in a process of their own, on pg-boss and PostgreSQL as in production):
// the time until every creator store sells them at the new price and stock, beside a bare client's
// in the same run. The bare client makes the same writes (one productSet and one
// inventorySetQuantities a listing, through the same Shopify adapter) to the same emulator, at
// Shopify's standard cost limits (every store's bucket full before each run), as many stores at
// once as Tandem writes, and nothing else: no records, no jobs, no readings. Two changes: one
// product on every store, and the brand's 100 products at once (100,000 listings), with the peak
// memory of Tandem's process and the jobs it sent.
// `--short`: 5 stores and 3 products, every check made, the figures printed but not judged.
// Exits 1 when a store does not follow, or (in full) a figure misses its aim.

const SHORT = process.argv.includes('--short')
const CREATORS = SHORT ? 5 : Number(process.env.BENCH_CATALOG_CREATORS || 1000)
const PRODUCTS = SHORT ? 3 : Number(process.env.BENCH_CATALOG_PRODUCTS || 100)
const AIM = { ratio: 2, peakRssMb: 300 }
const BUCKET = { maximumAvailable: 2_000, restoreRate: 100 }
const BRAND = 'northwind-apparel.myshopify.com'
const PRODUCT = 'gid://shopify/Product/101'
/** The stores written at once, by Tandem and so by the bare client. */
const AT_ONCE = LISTING_SYNC_RETRIES.concurrency! * STORES_AT_ONCE
const DEADLINE_MS = 30 * 60_000

/** Node's settings for Tandem's process, to try one: BENCH_CATALOG_NODE_ARGS='--max-old-space-size=128'. */
const NODE_ARGS = (process.env.BENCH_CATALOG_NODE_ARGS ?? '').split(' ').filter(Boolean)

const creatorShop = (n: number) => `bench-creator-${n}.myshopify.com`
const creators = Array.from({ length: CREATORS }, (_, i) => creatorShop(i + 1))
const shown = (minor: number) => (minor / 100).toFixed(2)
type Emulator = Awaited<ReturnType<typeof startShopifyEmulator>>

/** Tandem's catalog process, bundled as the server ships, and what it is told to do. */
async function startWorker(env: Record<string, string>) {
  const bundle = await bundleServer('bench/bench-catalog-worker.ts', 'bench-catalog-worker.cjs')
  const child = fork(bundle, [], {
    // As the container image runs the server (bench-support.ts), and then any flags to try.
    execArgv: ['--expose-gc', ...SERVER_NODE_ARGS, ...NODE_ARGS],
    env: { PATH: process.env.PATH ?? '', ...SERVER_ENV, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  child.on('message', (message: { id: number; answer?: unknown; error?: string }) => {
    const waiter = waiting.get(message.id)
    waiting.delete(message.id)
    if (message.error) waiter?.reject(new Error(message.error))
    else waiter?.resolve(message.answer)
  })
  child.once('exit', (code) => {
    for (const waiter of waiting.values()) {
      waiter.reject(new Error(`Tandem's catalog process exited (${code})`))
    }
  })
  let ids = 0
  const answerTo = (id: number) =>
    new Promise<unknown>((resolve, reject) => waiting.set(id, { resolve, reject }))
  await answerTo(0)
  return {
    child,
    run: <T = unknown>(command: WorkerCommand): Promise<T> => {
      const id = ++ids
      const answer = answerTo(id)
      child.send({ id, command })
      return answer as Promise<T>
    },
  }
}

/** Waits until no listing is pending; answers how many are in sync. */
async function settled(db: Db): Promise<number> {
  for (const started = Date.now(); Date.now() - started < DEADLINE_MS; await sleep(100)) {
    const states = await db
      .selectFrom('catalog_listings')
      .select(['sync_state'])
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .groupBy('sync_state')
      .execute()
    if (!states.some((row) => row.sync_state === 'PENDING')) {
      const failed = states.find((row) => row.sync_state === 'FAILED')
      if (failed) throw new Error(`${failed.count} listings failed`)
      return Number(states.find((row) => row.sync_state === 'IN_SYNC')?.count ?? 0)
    }
  }
  throw new Error(`Listings still pending after ${DEADLINE_MS / 1000} s`)
}

interface Target {
  shop: string
  input: CreatorProductInput
  levels: StockLevel[]
}

/**
 * What the bare client writes for each listing of these products, by store: the product as
 * Tandem last wrote it at `price`, and `quantity` of each variant.
 */
async function targetsOf(
  db: Db,
  productIds: string[],
  price: (productId: string) => number,
  quantity: number,
): Promise<Target[][]> {
  const rows = await db
    .selectFrom('listing_variants')
    .innerJoin('catalog_listings', 'catalog_listings.id', 'listing_variants.listing_id')
    .select([
      'catalog_listings.id',
      'catalog_listings.creator_store_shop',
      'catalog_listings.brand_product_id',
      'catalog_listings.creator_product_id',
      'catalog_listings.creator_location_id',
      'catalog_listings.written',
      'listing_variants.brand_variant_id',
      'listing_variants.creator_variant_id',
      'listing_variants.creator_inventory_item_id',
    ])
    .where('catalog_listings.brand_product_id', 'in', productIds)
    .execute()
  const byListing = new Map<string, typeof rows>()
  for (const row of rows) byListing.set(row.id, [...(byListing.get(row.id) ?? []), row])
  const byStore = new Map<string, Target[]>()
  for (const variants of byListing.values()) {
    const listing = variants[0]!
    const { fields } = JSON.parse(listing.written!) as { fields: ProductFields }
    // Images null: as Tandem sends them when they did not change.
    const { variants: written, ...product } = fields
    const locationId = listing.creator_location_id!
    const creatorVariant = new Map(variants.map((row) => [row.brand_variant_id, row]))
    const target = {
      shop: listing.creator_store_shop,
      input: {
        ...product,
        identifier: { id: listing.creator_product_id! },
        locationId,
        images: null,
        variants: written.map((variant) => ({
          id: creatorVariant.get(variant.brandVariantId)!.creator_variant_id,
          selectedOptions: variant.selectedOptions,
          sku: variant.sku,
          priceMinor: price(listing.brand_product_id),
          initialStock: null,
        })),
      },
      levels: variants.map((row) => ({
        inventoryItemId: row.creator_inventory_item_id!,
        locationId,
        quantity,
      })),
    }
    byStore.set(target.shop, [...(byStore.get(target.shop) ?? []), target])
  }
  return [...byStore.values()]
}

/** The bare client: AT_ONCE stores at a time, each store's writes one after another. */
async function bareClient(
  commerce: ReturnType<typeof connectShopify>['commerce'],
  stores: Target[][],
): Promise<number> {
  const started = performance.now()
  const worker = async () => {
    for (let targets = stores.shift(); targets; targets = stores.shift()) {
      for (const target of targets) {
        await commerce.setCreatorProduct(target.shop, target.input)
        await commerce.setStock(target.shop, target.levels, randomUUID())
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, stores.length) }, worker))
  return (performance.now() - started) / 1000
}

/** Every creator store's bucket full again, as before the other run. */
const refill = (shopify: Emulator) => creators.forEach((shop) => shopify.setThrottle(shop, BUCKET))

/** The listings of these products whose creator product is not at the price and stock given. */
async function lagging(
  db: Db,
  shopify: Emulator,
  productIds: string[],
  expected: (productId: string) => { price: number; stock: number },
): Promise<string[]> {
  const rows = await db
    .selectFrom('catalog_listings')
    .select(['creator_store_shop', 'creator_product_id', 'brand_product_id'])
    .where('brand_product_id', 'in', productIds)
    .execute()
  if (rows.length !== CREATORS * productIds.length) {
    return [`${rows.length} listings of ${CREATORS * productIds.length}`]
  }
  return rows.flatMap((row) => {
    const { price, stock } = expected(row.brand_product_id)
    const variant = shopify.product(row.creator_store_shop, row.creator_product_id ?? '')
      ?.variants[0]
    return variant?.price === shown(price) && variant.inventoryQuantity === stock
      ? []
      : [`${row.creator_store_shop} ${row.brand_product_id}`]
  })
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(2)

const writesSince = (before: ReturnType<typeof writes>, after: ReturnType<typeof writes>) =>
  `Tandem's writes ${fmt(after.productSet - before.productSet)} productSet, ` +
  `${fmt(after.stock - before.stock)} inventorySetQuantities`

/** Shopify writes the creator stores took so far. */
function writes(shopify: Emulator) {
  let productSet = 0
  let stock = 0
  for (const shop of creators) {
    productSet += shopify.calls(shop, 'productSet')
    stock += shopify.calls(shop, 'inventorySetQuantities')
  }
  return { productSet, stock }
}

const load = () => `${loadavg()[0]!.toFixed(2)}`

async function main(): Promise<boolean> {
  const loadAtStart = load()
  const postgres = await benchPostgres()
  const database = await freshDatabase(postgres)
  const db = await openDatabase({ databaseUrl: database.url })
  const shopify = await startShopifyEmulator({ imageBaseUrl: 'http://127.0.0.1', throttle: BUCKET })
  let worker: Awaited<ReturnType<typeof startWorker>> | null = null
  try {
    const secretKey = randomBytes(32)
    const secrets = createSecretBox(secretKey)
    const now = () => new Date()
    await seedSandboxMarketplace(db, { secrets, now: now() })
    for (const shop of creators) {
      shopify.addShop(shop)
      const { clientId, clientSecret } = sandboxApp(shop)
      const at = now().toISOString()
      await insertAppConfig(db, secrets, { shop, clientId, clientSecret, shopType: 'CREATOR' }, at)
      await recordStore(db, shop, 'CREATOR', at)
    }
    const generated = new Set(shopify.addProducts(BRAND, PRODUCTS))
    const brandProducts = shopify
      .products(BRAND)
      .filter((product) => product.variants.some((variant) => generated.has(variant.id)))
    const productIds = brandProducts.map((product) => product.id)
    worker = await startWorker({
      BENCH_DATABASE_URL: database.url,
      BENCH_SHOPIFY_URL: shopify.url,
      BENCH_SECRET_KEY: secretKey.toString('hex'),
    })
    await worker.run({ do: 'sync-products', brand: BRAND })
    const bare = connectShopify({
      connectionStore: shopConnectionStore(db, secrets),
      creatorOrders: creatorOrderIndex(db),
      keyAttempts: shopifyKeyAttempts(db),
      endpoint: shopify.url,
      publicUrl: 'http://127.0.0.1',
      now,
      log: () => {},
    }).commerce
    const sent = () => worker!.run<Record<string, number>>({ do: 'sent' })
    const failures: string[] = []
    const judged = (met: boolean) => (SHORT ? '' : met ? ' ✓' : ' ✗ MISSED')
    // Each figure printed once measured, with the machine's load then and Tandem's peak memory so
    // far: a long run tells as it goes, and one cut short still tells its peak.
    const print = async (line: string) => {
      const peak = await worker!.run<number>({ do: 'peak' })
      console.log(`  ${line} (load ${load()}; Tandem's peak RSS so far ${peak.toFixed(0)} MB)`)
    }
    console.log(
      `Catalog: ${fmt(CREATORS)} creator stores at Shopify's standard cost limits ` +
        `(${fmt(BUCKET.maximumAvailable)} points, ${BUCKET.restoreRate}/s per store, full before ` +
        `each run); ${AT_ONCE} stores written at once by Tandem (${LISTING_SYNC_RETRIES.concurrency} ` +
        `sync jobs × ${STORES_AT_ONCE} stores) and by the bare client; Tandem's catalog in a ` +
        `process of its own on ${postgres.origin}; load average ${loadAtStart} at the start ` +
        `(2 cores)${SHORT ? '; short form, figures not judged' : ''}`,
    )

    // Listing one product on every store, through the administrator's call.
    let started = performance.now()
    await worker.run({ do: 'list', brand: BRAND, creators, productIds: [PRODUCT] })
    if ((await settled(db)) !== CREATORS) failures.push('not every store listed the product')
    await print(`listing one product on every store   ${seconds(started)} s`)

    // One product's price and stock change: the bare client's writes, then Tandem's.
    const one = shopify.product(BRAND, PRODUCT)!.variants[0]!
    const change = { price: 7200, stock: 57 }
    const bareOne = await bareClient(
      bare,
      await targetsOf(db, [PRODUCT], () => change.price - 100, change.stock - 1),
    )
    refill(shopify)
    const writesBefore = writes(shopify)
    const sentBefore = await sent()
    await shopify.editVariant(BRAND, one.id, { priceMinor: change.price })
    await shopify.setStock(BRAND, one.id, change.stock)
    started = performance.now()
    await worker.run({
      do: 'follow',
      brand: BRAND,
      productIds: [PRODUCT],
      inventoryItemIds: [one.inventoryItemId],
    })
    await settled(db)
    const tandemOne = Number(seconds(started))
    const oneLagging = await lagging(db, shopify, [PRODUCT], () => change)
    if (oneLagging.length > 0) failures.push(`${oneLagging.length} stores lag: ${oneLagging[0]}`)
    const oneRatio = tandemOne / bareOne
    await print(
      `one product's price and stock change on ${fmt(CREATORS)} stores: Tandem ` +
        `${tandemOne.toFixed(2)} s, bare client ${bareOne.toFixed(2)} s: ` +
        `${oneRatio.toFixed(2)}× (aim ≤ ${AIM.ratio}×)${judged(oneRatio <= AIM.ratio)}; ` +
        `${writesSince(writesBefore, writes(shopify))}; jobs sent ` +
        `${jobsBetween(sentBefore, await sent())}`,
    )

    // The brand's products, listed on every store (rows made as listProducts makes them, the
    // creator products made by the news path measured next), then all changing at once.
    started = performance.now()
    await insertListings(db, brandProducts)
    await worker.run({ do: 'follow', brand: BRAND, productIds, inventoryItemIds: [] })
    const made = await settled(db)
    await print(
      `making ${fmt(made - CREATORS)} more listings (${PRODUCTS} products) by the news path   ` +
        `${seconds(started)} s`,
    )
    const after = new Map(
      brandProducts.map((product, i) => [
        product.id,
        { price: Math.round(Number(product.variants[0]!.price) * 100) + 500, stock: 40 + (i % 10) },
      ]),
    )
    const stores = await targetsOf(db, productIds, (id) => after.get(id)!.price - 100, 30)
    const bareBrand = await bareClient(bare, stores)
    refill(shopify)
    const brandWritesBefore = writes(shopify)
    const brandSentBefore = await sent()
    for (const product of brandProducts) {
      const variant = product.variants[0]!
      await shopify.editVariant(BRAND, variant.id, { priceMinor: after.get(product.id)!.price })
      await shopify.setStock(BRAND, variant.id, after.get(product.id)!.stock)
    }
    started = performance.now()
    await worker.run({
      do: 'follow',
      brand: BRAND,
      productIds,
      inventoryItemIds: brandProducts.map((product) => product.variants[0]!.inventoryItemId),
    })
    await settled(db)
    const tandemBrand = Number(seconds(started))
    const brandLagging = await lagging(db, shopify, productIds, (id) => after.get(id)!)
    if (brandLagging.length > 0) {
      failures.push(`${brandLagging.length} listings lag: ${brandLagging[0]}`)
    }
    const brandRatio = tandemBrand / bareBrand
    await print(
      `the brand's ${PRODUCTS} products changing at once on ${fmt(CREATORS)} stores ` +
        `(${fmt(CREATORS * PRODUCTS)} listings): Tandem ${tandemBrand.toFixed(2)} s, bare client ` +
        `${bareBrand.toFixed(2)} s: ${brandRatio.toFixed(2)}× (aim ≤ ${AIM.ratio}×)` +
        `${judged(brandRatio <= AIM.ratio)}; ` +
        `${writesSince(brandWritesBefore, writes(shopify))}; jobs sent ` +
        `${jobsBetween(brandSentBefore, await sent())}`,
    )

    const stopped = await worker.run<WorkerStopped>({ do: 'stop' })
    await stopChild(worker.child)
    if (stillRunning(worker.child.pid!)) failures.push("Tandem's catalog process was left running")
    console.log(
      `  peak memory of Tandem's process ${stopped.peakRssMb.toFixed(0)} MB (aim ≤ ` +
        `${AIM.peakRssMb} MB)${judged(stopped.peakRssMb <= AIM.peakRssMb)}; ` +
        `${stopped.startedRssMb.toFixed(0)} MB once started, its heap at most ` +
        `${stopped.peakHeapMb.toFixed(0)} MB, ${stopped.keptHeapMb.toFixed(0)} MB kept at the end; ` +
        `at its highest sample ${stopped.atPeak.rssMb.toFixed(0)} MB resident, V8's heap ` +
        `${stopped.atPeak.heapTotalMb.toFixed(0)} MB reserved, ${stopped.atPeak.externalMb.toFixed(0)} MB ` +
        `outside it (${stopped.atPeak.arrayBuffersMb.toFixed(0)} MB of buffers) (load ${load()})`,
    )
    for (const failure of failures) console.error(`Failed: ${failure}`)
    const figuresHold =
      oneRatio <= AIM.ratio && brandRatio <= AIM.ratio && stopped.peakRssMb <= AIM.peakRssMb
    return failures.length === 0 && (SHORT || figuresHold)
  } finally {
    if (worker) await stopChild(worker.child)
    await shopify.close()
    await db.destroy()
    await database.drop()
    await postgres.stop()
  }
}

/** The brand's products listed on every creator store, as listProducts records a new listing. */
async function insertListings(db: Db, products: { id: string; title: string }[]) {
  const at = new Date().toISOString()
  for (const shop of creators) {
    await db
      .insertInto('catalog_listings')
      .values(
        products.map((product) => ({
          id: `lst_${randomBytes(8).toString('hex')}`,
          creator_store_shop: shop,
          brand_store_shop: BRAND,
          brand_product_id: product.id,
          title: product.title,
          price_minor: null,
          status: 'ACTIVE' as const,
          creator_handle: `${product.id.split('/').pop()}-${randomBytes(4).toString('hex')}`,
          sync_state: 'PENDING' as const,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute()
  }
}

const jobsBetween = (before: Record<string, number>, after: Record<string, number>) =>
  [BRAND_PRODUCT_JOB, LISTING_SYNC_JOB]
    .map((name) => `${fmt((after[name] ?? 0) - (before[name] ?? 0))} ${name}`)
    .join(', ')

function stillRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

main().then(
  (held) => process.exit(held ? 0 : 1),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
