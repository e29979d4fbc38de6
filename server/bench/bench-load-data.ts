import { startShopifyEmulator, type ShopifyEmulator } from '../../emulators/shopify/emulator'
import {
  startStripeEmulator,
  STRIPE_LIVE_RATE_LIMITS,
  type StripeEmulator,
} from '../../emulators/stripe/emulator'
import { openDatabase } from '../src/db/connect'
import { indexCreatorOrder } from '../src/repositories/creator-orders'
import { createSecretBox } from '../src/secrets'
import { STORES } from '../src/seed/sandbox-data'
import { seedSandboxMarketplace } from '../src/seed/seed'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { insertAppConfig } from '../src/repositories/app-configs'
import { linkVariants, type VariantLink } from '../src/repositories/variant-links'
import { sandboxApp } from '../src/seed/sandbox-data'
import { addBenchMarketplace, addBenchShops, benchBrands, copyBrandVariants } from './bench-data'

// One load-test run's marketplace, fresh for each run so that every run has orders left to
// process: the benchmark's (bench-data.ts: the sandbox, 10,000 stores, 20 brands with rates,
// payout accounts and apps) and a pool of small paid creator orders, each with its PaymentIntent,
// that the servers can really process, spread over CREATORS creator stores of their own, as a
// marketplace's orders are. The database is prepared here, before any server starts, so that no
// server process seeds it.

/** An order of the pool: its id, the creator store it was placed on and its lines' brands. */
export interface PoolOrder {
  id: string
  creator: string
  brands: string[]
}

/**
 * The creator stores the pool's orders are placed on, in turn: a marketplace's newest orders are
 * many creators', and one creator's store (its cost bucket, the server's queue of calls to it)
 * is not what the test measures.
 */
const CREATORS = 50
const creatorShop = (n: number) => `bench-load-creator-${String(n).padStart(2, '0')}.myshopify.com`

export interface LoadMarketplace {
  /**
   * In this process, its rate limit lifted: the floor's Shopify lines count the inbox's first
   * page read cold (each of its orders previewed for its readiness, 2,000 points), which the
   * run's reads mostly share through the preview cache, so they would bind where the run does
   * not (bench-load-floor.ts prints them; the run prints the busiest shops' points a second).
   */
  shopify: ShopifyEmulator
  /** At Stripe's live rate limits. */
  stripe: StripeEmulator
  /** Oldest first, the order in which the process calls go through them. */
  pool: PoolOrder[]
  /** One more order, outside the pool: processed alone, it says what one order needs. */
  lone: PoolOrder
  brands: string[]
  /** The pool's creator stores, which the unique rates also pair the brands with. */
  creators: string[]
  close(): Promise<void>
}

const BRANDS_PER_ORDER = 3
const MAX_QUANTITY = 2
/** Each brand variant starts with 100 in stock (the emulator's); the pool takes at most half. */
const UNITS_PER_VARIANT = 50

export async function prepareLoadMarketplace(options: {
  databaseUrl: string
  secretKey: Buffer
  poolSize: number
}): Promise<LoadMarketplace> {
  const shopify = await startShopifyEmulator({
    imageBaseUrl: 'http://127.0.0.1',
    throttle: { maximumAvailable: 1e12, restoreRate: 1e12 },
  })
  const stripe = await startStripeEmulator({ rateLimits: STRIPE_LIVE_RATE_LIMITS })
  const close = async () => {
    await shopify.close()
    await stripe.close()
  }
  try {
    const bench = await addBenchShops(shopify, stripe)
    const brands = benchBrands()
    const creators = Array.from({ length: CREATORS }, (_, n) => creatorShop(n))
    for (const creator of creators) shopify.addShop(creator)
    const { pool: orders, links } = await addOrderPool(
      { shopify, stripe },
      { brands, creators },
      options.poolSize + 1,
    )
    const [lone, ...pool] = orders as [PoolOrder, ...PoolOrder[]]

    const db = await openDatabase({ databaseUrl: options.databaseUrl })
    try {
      const secrets = createSecretBox(options.secretKey)
      await seedSandboxMarketplace(db, { secrets, now: new Date() })
      await addBenchMarketplace(db, secrets, bench, STORES.length)
      const now = new Date().toISOString()
      await db
        .insertInto('stores')
        .values(
          creators.map((shop) => ({
            shop,
            shop_type: 'CREATOR' as const,
            product_count: 0,
            products_synced_at: null,
            created_at: now,
          })),
        )
        .execute()
      for (const shop of creators) {
        await insertAppConfig(db, secrets, { shop, ...sandboxApp(shop), shopType: 'CREATOR' }, now)
      }
      await linkVariants(db, links, now)
      // In the inbox as their ORDERS_PAID webhooks would have put them, so that neither the
      // servers' start-up catch-up nor a lookup has to find them during the run.
      const headers = poolHeaders(shopify, orders)
      await db.transaction().execute(async (trx) => {
        for (const header of headers) await indexCreatorOrder(trx, header)
      })
      return { shopify, stripe, pool, lone, brands, creators, close }
    } finally {
      await db.destroy()
    }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * `size` paid orders, placed on the creators in turn, each of one or two units from each of three
 * brands (brand i, i + 7 and i + 14 of the 20, so that every brand appears as often), paid with a
 * PaymentIntent of their own that covers them many times over; with the links of the creators'
 * copies they are made of.
 */
async function addOrderPool(
  emulators: { shopify: ShopifyEmulator; stripe: StripeEmulator },
  stores: { brands: string[]; creators: string[] },
  size: number,
): Promise<{ pool: PoolOrder[]; links: VariantLink[] }> {
  const { shopify } = emulators
  const { brands, creators } = stores
  const linesPerBrand = Math.ceil((size * BRANDS_PER_ORDER) / brands.length)
  const variantsPerBrand = Math.ceil((linesPerBrand * MAX_QUANTITY) / UNITS_PER_VARIANT)
  const brandVariants = brands.map((brand) => shopify.addProducts(brand, variantsPerBrand))
  // Each creator's copies, by brand.
  const copies = creators.map((creator) =>
    brands.map((brand, b) => copyBrandVariants(shopify, creator, brand, brandVariants[b]!)),
  )
  const pool: PoolOrder[] = []
  for (let i = 0; i < size; i++) {
    const c = i % creators.length
    const brandIndexes = Array.from(
      { length: BRANDS_PER_ORDER },
      (_, j) => (i + j * 7) % brands.length,
    )
    const lines = brandIndexes.map((b, j) => {
      const variants = copies[c]![b]!
      return {
        variantId:
          variants[(Math.floor(i / brands.length) + j) % variants.length]!.creatorVariantId,
        quantity: 1 + ((i + j) % MAX_QUANTITY),
      }
    })
    const { orderId } = await createStripePaidOrder(
      emulators,
      creators[c]!,
      { lines, email: `load-${i}@bench.example` },
      { amountMinor: 1_000_000, currency: 'usd' },
    )
    pool.push({ id: orderId, creator: creators[c]!, brands: brandIndexes.map((b) => brands[b]!) })
  }
  return { pool, links: copies.flat(2) }
}

/** What the inbox lists of each pool order, from the emulator; a second apart, oldest first. */
function poolHeaders(shopify: ShopifyEmulator, pool: PoolOrder[]) {
  const start = Date.now() - pool.length * 1000
  return pool
    .map((placed) => {
      const gid = `gid://shopify/Order/${placed.id}`
      const order = shopify.orders(placed.creator).find((each) => each.id === gid)
      if (!order) throw new Error(`Order ${placed.id} is not in ${placed.creator}`)
      return { placed, order }
    })
    .map(({ placed, order }, i) => ({
      id: Number(placed.id),
      storeShop: placed.creator,
      name: order.name,
      createdAt: new Date(start + i * 1000).toISOString(),
      currency: order.currency,
      // The lines' total: the inbox's figure only, which nothing here checks.
      totalMinor: order.lines.reduce(
        (sum, line) => sum + line.quantity * Math.round(Number(line.unitPrice) * 100),
        0,
      ),
    }))
}
