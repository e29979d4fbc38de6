import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { startShopifyEmulator } from '../../emulators/shopify/emulator'
import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import { SHOPIFY_API_VERSION } from '../src/adapters/commerce/shopify/shopify-endpoint'
import { BULK_THRESHOLD } from '../src/adapters/commerce/shopify/shopify-products'
import { openDatabase } from '../src/db/connect'
import { sqliteJobQueue } from '../src/jobs/sqlite-job-queue'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { createProductSync } from '../src/products/product-sync'
import { createSecretBox } from '../src/secrets'
import { testShopConnection } from '../src/services/shop-connections'
import { sandboxApp } from '../src/seed/sandbox-data'
import { seedSandboxMarketplace } from '../src/seed/seed'

const appCredentials = (shop: string) => ({
  client_id: sandboxApp(shop).clientId,
  client_secret: sandboxApp(shop).clientSecret,
})

// `npm run bench:sync`: a store's product sync through the real adapter and product sync, against
// the Shopify emulator at Shopify's standard rate limit (a 2,000-point bucket restoring 100 points
// a second), each beside the least time Shopify allows for it, in one run: 10,000 products the
// way Tandem reads them (one bulk operation), and the largest store read page by page. Exits 1
// when the bulk reading passes its aim (1.25× the least time Shopify allows), or a sync misses a
// product. `--short` (CI's form): the smallest store read in bulk and 450 products page by page
// (still past the bucket, so the bound holds a wait), every product still checked, the figures
// printed and not judged.

const SHORT = process.argv.includes('--short')
const BUCKET = { maximumAvailable: 2_000, restoreRate: 100 }
const SHOP = 'ironpeak-outdoor.myshopify.com'
const LARGE_STORE = SHORT ? BULK_THRESHOLD + 1 : 10_000
const PAGED_STORE = SHORT ? 450 : BULK_THRESHOLD
const BULK_AIM = 1.25

interface Measured {
  products: number
  ms: number
  /** Points Shopify charged in all (its actualQueryCost, summed). */
  points: number
  /** How long Shopify's bulk operation ran, from its createdAt to its completedAt; 0 without one. */
  bulkMs: number
}

/** Syncs a store of `products` products; the points are read off the emulator's answers. */
async function timeSync(products: number): Promise<Measured> {
  const folder = mkdtempSync(join(tmpdir(), 'tandem-bench-sync-'))
  const db = await openDatabase({ sqliteFile: join(folder, 'tandem.sqlite') })
  const shopify = await startShopifyEmulator({ imageBaseUrl: 'http://127.0.0.1', throttle: BUCKET })
  const plainFetch = globalThis.fetch
  let points = 0
  globalThis.fetch = async (...args) => {
    const response = await plainFetch(...args)
    if (String(args[0]).endsWith('/graphql.json')) {
      const answer = (await response.clone().json()) as {
        extensions?: { cost?: { actualQueryCost?: number | null } }
      }
      points += answer.extensions?.cost?.actualQueryCost ?? 0
    }
    return response
  }
  try {
    const secrets = createSecretBox(randomBytes(32))
    const now = () => new Date()
    await seedSandboxMarketplace(db, { secrets, now: now() })
    // Ironpeak has one product of its own.
    shopify.addProducts(SHOP, products - 1)
    const adapter = connectShopify({
      connectionStore: shopConnectionStore(db, secrets),
      creatorOrders: creatorOrderIndex(db),
      keyAttempts: shopifyKeyAttempts(db),
      endpoint: shopify.url,
      publicUrl: 'http://127.0.0.1',
      now,
      log: () => {},
    })
    const sync = createProductSync({ db, commerce: adapter.commerce, now })
    // A store that is connected already, as stores are when someone syncs them: its token held
    // and its webhooks registered.
    // Never started: a connected brand's orders that need attention are requeued, and it has none.
    const jobs = sqliteJobQueue(db)
    await testShopConnection({ db, secrets, shopify: adapter, now, jobs }, SHOP)
    while (shopify.webhookSubscriptions(SHOP).length < 3) await sleep(10)
    points = 0
    const started = performance.now()
    const { productCount } = await sync.sync(SHOP)
    const ms = performance.now() - started
    if (productCount !== products) throw new Error(`Synced ${productCount} of ${products}`)
    return { products, ms, points, bulkMs: await bulkDuration(shopify.url) }
  } finally {
    globalThis.fetch = plainFetch
    await shopify.close()
    await db.destroy()
    rmSync(folder, { recursive: true, force: true })
  }
}

/** How long the shop's latest bulk operation ran, as Shopify reports it. */
async function bulkDuration(emulatorUrl: string): Promise<number> {
  const origin = `${emulatorUrl}/${SHOP}`
  const grant = (await (
    await fetch(`${origin}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', ...appCredentials(SHOP) }),
    })
  ).json()) as { access_token: string }
  const answer = (await (
    await fetch(`${origin}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': grant.access_token },
      body: JSON.stringify({ query: '{ currentBulkOperation { createdAt completedAt } }' }),
    })
  ).json()) as {
    data: { currentBulkOperation: { createdAt: string; completedAt: string } | null }
  }
  const operation = answer.data.currentBulkOperation
  return operation ? Date.parse(operation.completedAt) - Date.parse(operation.createdAt) : 0
}

/** The rate limit's bound: the points beyond a full bucket, restored at the bucket's rate. */
const costBoundMs = (points: number) =>
  (Math.max(0, points - BUCKET.maximumAvailable) / BUCKET.restoreRate) * 1000

async function main(): Promise<void> {
  const bulk = await timeSync(LARGE_STORE)
  const paged = await timeSync(PAGED_STORE)
  // A bulk operation costs a few points; what bounds it is Shopify reading the store on its side.
  const bulkBound = Math.max(costBoundMs(bulk.points), bulk.bulkMs)
  const pagedBound = costBoundMs(paged.points)
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
  const row = (label: string, measured: Measured, bound: number, aim: string) =>
    console.log(
      `  ${label.padEnd(36)}${seconds(measured.ms).padStart(9)}   ${measured.points} points; ` +
        `least Shopify allows ${seconds(bound)}; ${(measured.ms / bound).toFixed(2)}× that${aim}`,
    )
  console.log(
    `Product sync at ${BUCKET.restoreRate} points/s (bucket ${BUCKET.maximumAvailable}), through the adapter`,
  )
  const aim = SHORT ? ' (short form: not judged)' : `; aim ≤ ${BULK_AIM}×`
  row(`${LARGE_STORE.toLocaleString('en-US')} products, one bulk operation`, bulk, bulkBound, aim)
  row(`${PAGED_STORE.toLocaleString('en-US')} products, page by page`, paged, pagedBound, '')
  if (!SHORT && bulk.ms / bulkBound > BULK_AIM) {
    console.error(`The bulk reading took more than ${BULK_AIM}× the least Shopify allows.`)
    process.exitCode = 1
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
