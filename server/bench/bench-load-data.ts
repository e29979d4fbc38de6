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
import type { VariantLink } from '../src/repositories/variant-links'
import {
  addBenchMarketplace,
  addBenchShops,
  BENCH_CREATOR,
  benchBrands,
  copyBrandVariants,
} from './bench-data'

// One load-test run's marketplace, fresh for each run so that every run has orders left to
// process: the benchmark's (bench-data.ts: the sandbox, 10,000 stores, 20 brands with rates,
// payout accounts and apps) and a pool of small paid creator orders, each with its PaymentIntent,
// that the servers can really process. The database is prepared here, before any server starts,
// so that no server process seeds it.

/** An order of the pool: its id and the brands its lines come from. */
export interface PoolOrder {
  id: string
  brands: string[]
}

export interface LoadMarketplace {
  /**
   * In this process, its rate limit lifted: under Shopify's standard plan the inbox alone would
   * bind (each read of its first page previews every order on it for its readiness, hundreds of
   * points; bench-load-floor.ts prints what the mix asks beside what the plan allows).
   */
  shopify: ShopifyEmulator
  /** At Stripe's live rate limits. */
  stripe: StripeEmulator
  /** Oldest first, the order in which the process calls go through them. */
  pool: PoolOrder[]
  /** One more order, outside the pool: processed alone, it says what one order needs. */
  lone: PoolOrder
  brands: string[]
  /** Creator stores the unique rates pair the brands with (the pool's creator first). */
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
    const { pool: orders, links } = await addOrderPool(
      shopify,
      stripe,
      brands,
      options.poolSize + 1,
    )
    const [lone, ...pool] = orders as [PoolOrder, ...PoolOrder[]]

    const db = await openDatabase({ databaseUrl: options.databaseUrl })
    try {
      const secrets = createSecretBox(options.secretKey)
      await seedSandboxMarketplace(db, { secrets, now: new Date() })
      await addBenchMarketplace(
        db,
        secrets,
        { ...bench, links: [...bench.links, ...links] },
        STORES.length,
      )
      // In the inbox as their ORDERS_PAID webhooks would have put them, so that neither the
      // servers' start-up catch-up nor a lookup has to find them during the run.
      const headers = poolHeaders(shopify, orders)
      await db.transaction().execute(async (trx) => {
        for (const header of headers) await indexCreatorOrder(trx, header)
      })
      const others = await db
        .selectFrom('stores')
        .select('shop')
        .where('shop_type', '=', 'CREATOR')
        .where('shop', '!=', BENCH_CREATOR)
        .orderBy('shop')
        .limit(49)
        .execute()
      return {
        shopify,
        stripe,
        pool,
        lone,
        brands,
        creators: [BENCH_CREATOR, ...others.map((row) => row.shop)],
        close,
      }
    } finally {
      await db.destroy()
    }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * `size` paid orders of the bench creator, each of one or two units from each of three brands
 * (brand i, i + 7 and i + 14 of the 20, so that every brand appears as often), paid with a
 * PaymentIntent of their own that covers them many times over; with the links of the creator's
 * copies they are made of.
 */
async function addOrderPool(
  shopify: ShopifyEmulator,
  stripe: StripeEmulator,
  brands: string[],
  size: number,
): Promise<{ pool: PoolOrder[]; links: VariantLink[] }> {
  const linesPerBrand = Math.ceil((size * BRANDS_PER_ORDER) / brands.length)
  const variantsPerBrand = Math.ceil((linesPerBrand * MAX_QUANTITY) / UNITS_PER_VARIANT)
  const links = brands.flatMap((brand) =>
    copyBrandVariants(shopify, BENCH_CREATOR, brand, shopify.addProducts(brand, variantsPerBrand)),
  )
  const copiesOf = (brand: string) => links.filter((link) => link.brandStoreShop === brand)
  const copies = new Map(brands.map((brand) => [brand, copiesOf(brand)]))
  const pool: PoolOrder[] = []
  for (let i = 0; i < size; i++) {
    const orderBrands = Array.from(
      { length: BRANDS_PER_ORDER },
      (_, j) => brands[(i + j * 7) % brands.length]!,
    )
    const lines = orderBrands.map((brand, j) => {
      const variants = copies.get(brand)!
      return {
        variantId:
          variants[(Math.floor(i / brands.length) + j) % variants.length]!.creatorVariantId,
        quantity: 1 + ((i + j) % MAX_QUANTITY),
      }
    })
    const { orderId } = await createStripePaidOrder(
      { shopify, stripe },
      BENCH_CREATOR,
      { lines, email: `load-${i}@bench.example` },
      { amountMinor: 1_000_000, currency: 'usd' },
    )
    pool.push({ id: orderId, brands: orderBrands })
  }
  return { pool, links }
}

/** What the inbox lists of each pool order, from the emulator; a second apart, oldest first. */
function poolHeaders(shopify: ShopifyEmulator, pool: PoolOrder[]) {
  const inPool = new Set(pool.map((order) => order.id))
  const start = Date.now() - pool.length * 1000
  return shopify
    .orders(BENCH_CREATOR)
    .filter((order) => inPool.has(order.id.split('/').pop()!))
    .map((order, i) => ({
      id: Number(order.id.split('/').pop()),
      storeShop: BENCH_CREATOR,
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
