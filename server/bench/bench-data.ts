import type { Db } from '../src/db/connect'

// The benchmark's marketplace on top of the sandbox: 10,000 stores in all, and order 9001 from a
// creator with 100 lines across 20 brands.

export const BENCH_ORDER_ID = 9001
/** The benchmark's baseline: the store list's bytes, computed once, behind the same auth. */
export const CEILING_PATH = '/bench/precomputed-all-stores'
const TOTAL_STORES = 10_000
const BRANDS_IN_ORDER = 20
const LINES = 100
const CREATOR = 'bench-creator.myshopify.com'
const CHUNK = 500

const brandShop = (n: number) => `bench-brand-${String(n).padStart(5, '0')}.myshopify.com`

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK))
}

export async function addBenchMarketplace(db: Db, seededStores: number): Promise<void> {
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

  const brands = Array.from({ length: BRANDS_IN_ORDER }, (_, n) => brandShop(n))
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
    .insertInto('payment_accounts')
    .values(
      brands.map((shop, n) => ({
        store_shop: shop,
        account_id: `acct_bench_${n}`,
        email: `payouts-${n}@bench.example`,
      })),
    )
    .execute()

  const lines = Array.from({ length: LINES }, (_, i) => {
    const brand = i % BRANDS_IN_ORDER
    return {
      brand,
      brandVariant: `gid://shopify/ProductVariant/${90_000 + i}`,
      copyVariant: `gid://shopify/ProductVariant/${95_000 + i}`,
      price: 999 + i * 37,
      quantity: 1 + (i % 3),
    }
  })
  await db
    .insertInto('commerce_products')
    .values(
      lines.flatMap((line, i) => [
        {
          id: `gid://shopify/Product/${90_000 + i}`,
          store_shop: brands[line.brand]!,
          title: `Bench product ${i}`,
          status: 'ACTIVE' as const,
          image_url: null,
        },
        {
          id: `gid://shopify/Product/${95_000 + i}`,
          store_shop: CREATOR,
          title: `Bench product ${i}`,
          status: 'ACTIVE' as const,
          image_url: null,
        },
      ]),
    )
    .execute()
  await db
    .insertInto('commerce_variants')
    .values(
      lines.flatMap((line, i) => [
        {
          id: line.brandVariant,
          product_id: `gid://shopify/Product/${90_000 + i}`,
          store_shop: brands[line.brand]!,
          price_minor: line.price,
          currency: 'USD',
          inventory_quantity: 1000,
          source_variant_id: null,
        },
        {
          id: line.copyVariant,
          product_id: `gid://shopify/Product/${95_000 + i}`,
          store_shop: CREATOR,
          price_minor: line.price,
          currency: 'USD',
          inventory_quantity: 1000,
          source_variant_id: line.brandVariant,
        },
      ]),
    )
    .execute()
  const subtotal = lines.reduce((sum, line) => sum + line.price * line.quantity, 0)
  await db
    .insertInto('commerce_orders')
    .values({
      id: BENCH_ORDER_ID,
      store_shop: CREATOR,
      name: `#${BENCH_ORDER_ID}`,
      email: 'bench@example.com',
      currency: 'USD',
      created_at: now,
      subtotal_minor: subtotal,
      tax_minor: 0,
      shipping_minor: 0,
      total_minor: subtotal,
      shipping_address: null,
      tags: '',
      note: null,
      paid: 1,
    })
    .execute()
  await db
    .insertInto('commerce_order_lines')
    .values(
      lines.map((line, i) => ({
        id: `gid://shopify/LineItem/${BENCH_ORDER_ID}${String(i).padStart(3, '0')}`,
        order_id: BENCH_ORDER_ID,
        position: i,
        variant_id: line.copyVariant,
        title: `Bench product ${i}`,
        quantity: line.quantity,
        unit_price_minor: line.price,
        discount_minor: 0,
        image_url: null,
      })),
    )
    .execute()
}
