import type { ShopifyEmulator } from '../../emulators/shopify/emulator'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import type { StripeEmulator } from '../../emulators/stripe/emulator'
import type { Db } from '../src/db/connect'
import { insertAppConfig } from '../src/repositories/app-configs'
import { linkVariants, type VariantLink } from '../src/repositories/variant-links'
import type { SecretBox } from '../src/secrets'
import { sandboxApp } from '../src/seed/sandbox-data'
import { SHORT } from './bench-args'

// The benchmark's marketplace on top of the sandbox: 10,000 stores in all, and an order from a
// creator with 100 lines across 20 brands, the order and its products in the Shopify emulator,
// the brands' accounts and the order's payment in the Stripe emulator.

/** The benchmark's baseline: the store list's bytes, computed once, behind the same auth. */
export const CEILING_PATH = '/bench/precomputed-all-stores'
/** A marketplace's stores; in a benchmark's short form (`--short`, CI's) a tenth of them. */
const TOTAL_STORES = SHORT ? 1_000 : 10_000
const BRANDS_IN_ORDER = 20
const LINES = 100
const CREATOR = 'bench-creator.myshopify.com'
const CHUNK = 500

const brandShop = (n: number) => `bench-brand-${String(n).padStart(5, '0')}.myshopify.com`
const brandAccount = (n: number) => `acct_bench_${n}`

/** The creator of the bench order; the load test's orders are its too. */
export const BENCH_CREATOR = CREATOR
/** The brands of the bench order: each has a default commission, a payout account and an app. */
export const benchBrands = (): string[] =>
  Array.from({ length: BRANDS_IN_ORDER }, (_, n) => brandShop(n))

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK))
}

/** The bench order in the emulators, and the links Tandem keeps of the creator's copies. */
export interface BenchShops {
  orderId: string
  links: VariantLink[]
}

/**
 * Adds the benchmark's stores, rates, accounts, app configs and variant links, and indexes its
 * order.
 */
export async function addBenchMarketplace(
  db: Db,
  secrets: SecretBox,
  bench: BenchShops,
  seededStores: number,
): Promise<void> {
  const now = new Date().toISOString()
  const extra = TOTAL_STORES - seededStores - 1
  const stores = [
    { shop: CREATOR, shop_type: 'CREATOR' as const },
    ...Array.from({ length: extra }, (_, n) => ({
      shop: n < BRANDS_IN_ORDER || n % 2 === 0 ? brandShop(n) : `bench-creator-${n}.myshopify.com`,
      shop_type: n < BRANDS_IN_ORDER || n % 2 === 0 ? ('BRAND' as const) : ('CREATOR' as const),
    })),
  ].map((store) => ({ ...store, product_count: 0, products_synced_at: null, created_at: now }))
  await insertInChunks(stores, (chunk) => db.insertInto('stores').values(chunk).execute())

  const brands = benchBrands()
  await db
    .insertInto('default_commissions')
    .values(
      brands.map((shop, n) => ({
        brand_store_shop: shop,
        tandem_rate_hundredths: 500 + n * 25,
        creator_rate_hundredths: 1000 + n * 50,
        updated_at: now,
      })),
    )
    .execute()
  await db
    .insertInto('store_payment_accounts')
    .values(
      brands.map((shop, n) => ({ store_shop: shop, account_id: brandAccount(n), updated_at: now })),
    )
    .execute()

  // Each bench shop has its sandbox-style app, so that the adapter gets tokens.
  for (const shop of [CREATOR, ...brands]) {
    await insertAppConfig(
      db,
      secrets,
      { shop, ...sandboxApp(shop), shopType: shop === CREATOR ? 'CREATOR' : 'BRAND' },
      now,
    )
  }
  await linkVariants(db, bench.links, now)
  // Known to the server as its ORDERS_PAID webhook would make it: by id, with its shop.
  await db
    .insertInto('creator_order_index')
    .values({ order_id: Number(bench.orderId), store_shop: CREATOR })
    .execute()
}

/**
 * The bench shops as Shopify and Stripe hold them: the brands' products and connected accounts,
 * the creator's copies, and the creator's 100-line order across the 20 brands, paid with a
 * PaymentIntent. Answers the order's id.
 */
export async function addBenchShops(
  shopify: ShopifyEmulator,
  stripe: StripeEmulator,
): Promise<BenchShops> {
  const brands = benchBrands()
  for (const shop of [CREATOR, ...brands]) shopify.addShop(shop)
  brands.forEach((_, n) =>
    stripe.addAccount({ id: brandAccount(n), email: `payouts-${n}@bench.example` }),
  )
  const links = brands.flatMap((brand) =>
    copyBrandVariants(shopify, CREATOR, brand, shopify.addProducts(brand, LINES / BRANDS_IN_ORDER)),
  )
  const lines = links.map((link, i) => ({
    variantId: link.creatorVariantId,
    quantity: 1 + (i % 3),
  }))
  // Enough to pay every brand from its charge.
  const { orderId } = await createStripePaidOrder(
    { shopify, stripe },
    CREATOR,
    { lines, email: 'bench@example.com' },
    { amountMinor: 10_000_000, currency: 'usd' },
  )
  return { orderId, links }
}

/** Copies of a brand's variants in a creator's store, and the links Tandem keeps of them. */
export function copyBrandVariants(
  shopify: ShopifyEmulator,
  creator: string,
  brand: string,
  brandVariantIds: string[],
): VariantLink[] {
  return shopify.addCopies(creator, brand, brandVariantIds).map((creatorVariantId, i) => ({
    creatorStoreShop: creator,
    creatorVariantId,
    brandStoreShop: brand,
    brandVariantId: brandVariantIds[i]!,
  }))
}
