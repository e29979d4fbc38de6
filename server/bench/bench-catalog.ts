import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { startShopifyEmulator } from '../../emulators/shopify/emulator'
import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import { readBrandProduct } from '../src/catalog/brand-readings'
import { followBrandProduct, followInventoryItem } from '../src/catalog/brand-news'
import {
  BRAND_PRODUCT_JOB,
  BRAND_PRODUCT_RETRIES,
  LISTING_SYNC_JOB,
  LISTING_SYNC_RETRIES,
  type BrandProductJob,
  type ListingSyncJob,
} from '../src/catalog/catalog-jobs'
import { syncListing } from '../src/catalog/listing-sync'
import { listProducts } from '../src/catalog/listings'
import { openDatabase, type Db } from '../src/db/connect'
import { openJobQueue } from '../src/jobs/open-job-queue'
import { createProductSync } from '../src/products/product-sync'
import { insertAppConfig } from '../src/repositories/app-configs'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { recordStore } from '../src/repositories/stores'
import { createSecretBox } from '../src/secrets'
import { sandboxApp } from '../src/seed/sandbox-data'
import { seedSandboxMarketplace } from '../src/seed/seed'
import { benchPostgres, freshDatabase } from './bench-postgres'
import { fmt } from './bench-support'

// `npm run bench:catalog` (issue 34): a brand product listed on 1,000 creator stores changes price
// and stock in the brand's Shopify, and its news (products/update, inventory_levels/update) reaches
// the server: the time until every creator store sells it at the new price and stock, beside the
// floor the creator stores' cost budgets allow. One server's catalog jobs (the real ones, on
// pg-boss and PostgreSQL as in production) and the Shopify emulator at Shopify's standard cost
// limits, in this process. The floor takes every creator store as busy (its bucket empty when the
// news comes): what each must then be written costs its restore time, all stores at once.
// Prints; fails only when a store does not follow.

const CREATORS = Number(process.env.BENCH_CATALOG_CREATORS || 1000)
const BUCKET = { maximumAvailable: 2_000, restoreRate: 100 }
const BRAND = 'northwind-apparel.myshopify.com'
const PRODUCT = 'gid://shopify/Product/101'
const VARIANT = 'gid://shopify/ProductVariant/201'
const NEW_PRICE = { minor: 7200, shown: '72.00' }
const NEW_STOCK = 57
const DEADLINE_MS = 10 * 60_000

const creatorShop = (n: number) => `bench-creator-${n}.myshopify.com`

/** Waits until no listing is pending; answers how many are in sync. */
async function settled(db: Db): Promise<number> {
  for (const started = Date.now(); Date.now() - started < DEADLINE_MS; await sleep(50)) {
    const states = await db
      .selectFrom('catalog_listings')
      .select(['sync_state'])
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .groupBy('sync_state')
      .execute()
    if (!states.some((row) => row.sync_state === 'PENDING')) {
      return Number(states.find((row) => row.sync_state === 'IN_SYNC')?.count ?? 0)
    }
  }
  throw new Error(`Listings still pending after ${DEADLINE_MS / 1000} s`)
}

async function main(): Promise<void> {
  const postgres = await benchPostgres()
  const database = await freshDatabase(postgres)
  const db = await openDatabase({ databaseUrl: database.url })
  const shopify = await startShopifyEmulator({ imageBaseUrl: 'http://127.0.0.1', throttle: BUCKET })
  const jobs = openJobQueue(db, { databaseUrl: database.url, pollMs: 500, onError: console.error })
  try {
    const secrets = createSecretBox(randomBytes(32))
    const now = () => new Date()
    await seedSandboxMarketplace(db, { secrets, now: now() })
    for (let n = 1; n <= CREATORS; n++) {
      const shop = creatorShop(n)
      shopify.addShop(shop)
      const { clientId, clientSecret } = sandboxApp(shop)
      await insertAppConfig(
        db,
        secrets,
        { shop, clientId, clientSecret, shopType: 'CREATOR' },
        now().toISOString(),
      )
      await recordStore(db, shop, 'CREATOR', now().toISOString())
    }
    const adapter = connectShopify({
      connectionStore: shopConnectionStore(db, secrets),
      creatorOrders: creatorOrderIndex(db),
      keyAttempts: shopifyKeyAttempts(db),
      endpoint: shopify.url,
      publicUrl: 'http://127.0.0.1',
      now,
      log: () => {},
    })
    const deps = { db, jobs, commerce: adapter.commerce, now }
    await jobs.register<BrandProductJob>(
      BRAND_PRODUCT_JOB,
      (payload, context) => readBrandProduct(deps, payload, context, BRAND_PRODUCT_RETRIES),
      BRAND_PRODUCT_RETRIES,
    )
    await jobs.register<ListingSyncJob>(
      LISTING_SYNC_JOB,
      (payload, context) => syncListing(deps, payload, context, LISTING_SYNC_RETRIES),
      LISTING_SYNC_RETRIES,
    )
    await jobs.start()
    await createProductSync({ db, commerce: adapter.commerce, now }).sync(BRAND)

    let started = performance.now()
    for (let n = 1; n <= CREATORS; n++) {
      await listProducts(deps, null, {
        creatorStoreShop: creatorShop(n),
        brandStoreShop: BRAND,
        productIds: [PRODUCT],
      })
    }
    const listed = await settled(db)
    const listingSeconds = (performance.now() - started) / 1000
    if (listed !== CREATORS) throw new Error(`${listed} of ${CREATORS} listings in sync`)
    const writesBefore = writes(shopify)

    // The brand changes price and stock; the webhook inbox's jobs act on its news as they would.
    await shopify.editVariant(BRAND, VARIANT, { priceMinor: NEW_PRICE.minor })
    await shopify.setStock(BRAND, VARIANT, NEW_STOCK)
    const item = shopify.product(BRAND, PRODUCT)!.variants[0]!.inventoryItemId
    started = performance.now()
    await followBrandProduct(deps, BRAND, PRODUCT)
    await followInventoryItem(deps, BRAND, item)
    await settled(db)
    const seconds = (performance.now() - started) / 1000

    const lagging = Array.from({ length: CREATORS }, (_, i) => creatorShop(i + 1)).filter(
      (shop) => {
        const variant = shopify.products(shop)[0]?.variants[0]
        return variant?.price !== NEW_PRICE.shown || variant.inventoryQuantity !== NEW_STOCK
      },
    )
    const asked = writes(shopify)
    const points =
      (asked.productSet - writesBefore.productSet + asked.stock - writesBefore.stock) * 10
    const floor = points / CREATORS / BUCKET.restoreRate
    console.log(
      `Catalog: ${fmt(CREATORS)} creator stores listing one brand product, Shopify's standard cost ` +
        `limits (${fmt(BUCKET.maximumAvailable)} points, ${BUCKET.restoreRate}/s per store); one ` +
        `server's catalog jobs on ${postgres.origin}\n` +
        `  listing it on every store      ${listingSeconds.toFixed(2)} s\n` +
        `  a price and stock change       ${seconds.toFixed(2)} s until every store has it; ` +
        `floor of the stores' budgets ${floor.toFixed(2)} s (${fmt(points / CREATORS)} points a ` +
        `store, every bucket empty at the news); ${(seconds / floor).toFixed(1)}× the floor, aim ≤ 1.5×\n` +
        `  writes: ${fmt(asked.productSet - writesBefore.productSet)} productSet, ` +
        `${fmt(asked.stock - writesBefore.stock)} inventorySetQuantities; brand reads ` +
        `${shopify.calls(BRAND, 'product')}`,
    )
    if (lagging.length > 0)
      throw new Error(`${lagging.length} stores did not follow: ${lagging[0]}…`)
  } finally {
    await jobs.stop()
    await shopify.close()
    await db.destroy()
    await database.drop()
    await postgres.stop()
  }
}

/** Shopify writes the creator stores took so far. */
function writes(shopify: Awaited<ReturnType<typeof startShopifyEmulator>>) {
  let productSet = 0
  let stock = 0
  for (let n = 1; n <= CREATORS; n++) {
    productSet += shopify.calls(creatorShop(n), 'productSet')
    stock += shopify.calls(creatorShop(n), 'inventorySetQuantities')
  }
  return { productSet, stock }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
