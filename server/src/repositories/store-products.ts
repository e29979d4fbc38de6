import type { CommerceProduct } from '../adapters/commerce/commerce-port'
import type { Db } from '../db/connect'

// Each store's products as Tandem last saw them (store_products), kept by the product sync and by
// brands' product webhooks; queries/store-products.ts lists them.

/** Stores the products, replacing what was stored of each; `seenAt` marks them seen. */
export async function upsertStoreProducts(
  db: Db,
  shop: string,
  products: CommerceProduct[],
  seenAt: string,
): Promise<void> {
  if (products.length === 0) return
  const rows = products.map((product) => ({
    store_shop: shop,
    product_id: product.id,
    title: product.title,
    status: product.status,
    variant_count: product.variantCount,
    min_price_minor: product.minPriceMinor,
    currency: product.currency,
    image_url: product.imageUrl,
    seen_at: seenAt,
  }))
  await db
    .insertInto('store_products')
    .values(rows)
    .onConflict((conflict) =>
      conflict.columns(['store_shop', 'product_id']).doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        status: eb.ref('excluded.status'),
        variant_count: eb.ref('excluded.variant_count'),
        min_price_minor: eb.ref('excluded.min_price_minor'),
        currency: eb.ref('excluded.currency'),
        image_url: eb.ref('excluded.image_url'),
        seen_at: eb.ref('excluded.seen_at'),
      })),
    )
    .execute()
}

export async function deleteStoreProduct(db: Db, shop: string, productId: string): Promise<void> {
  await db
    .deleteFrom('store_products')
    .where('store_shop', '=', shop)
    .where('product_id', '=', productId)
    .execute()
}

/** The currency the store's products are stored in; null for a store never synced. */
export async function findStoreProductsCurrency(db: Db, shop: string): Promise<string | null> {
  const row = await db
    .selectFrom('store_products')
    .select('currency')
    .where('store_shop', '=', shop)
    .limit(1)
    .executeTakeFirst()
  return row?.currency ?? null
}
