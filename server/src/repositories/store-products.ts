import type { ExpressionBuilder, OnConflictDatabase, OnConflictTables } from 'kysely'
import type { CommerceProduct } from '../adapters/commerce/commerce-port'
import type { Db } from '../db/connect'
import type { Database } from '../db/schema'

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
  await db
    .insertInto('store_products')
    .values(products.map((product) => storedProduct(shop, product, seenAt)))
    .onConflict((conflict) =>
      conflict.columns(['store_shop', 'product_id']).doUpdateSet(replacingStored),
    )
    .execute()
}

/**
 * Stores one version of a product unless Tandem holds a newer one (by Shopify's updatedAt): a
 * products/update delivery that arrives after a later one, or after a sync, changes nothing.
 */
export async function upsertStoreProductIfNewer(
  db: Db,
  shop: string,
  product: CommerceProduct,
  seenAt: string,
): Promise<void> {
  await db
    .insertInto('store_products')
    .values(storedProduct(shop, product, seenAt))
    .onConflict((conflict) =>
      conflict
        .columns(['store_shop', 'product_id'])
        .doUpdateSet(replacingStored)
        .where((eb) =>
          eb.or([
            eb('store_products.shopify_updated_at', 'is', null),
            eb('store_products.shopify_updated_at', '<', eb.ref('excluded.shopify_updated_at')),
          ]),
        ),
    )
    .execute()
}

const storedProduct = (shop: string, product: CommerceProduct, seenAt: string) => ({
  store_shop: shop,
  product_id: product.id,
  title: product.title,
  status: product.status,
  variant_count: product.variantCount,
  min_price_minor: product.minPriceMinor,
  currency: product.currency,
  image_url: product.imageUrl,
  // One spelling, so that two versions compare as text: Shopify writes offsets (-05:00) in REST.
  shopify_updated_at: new Date(product.updatedAt).toISOString(),
  seen_at: seenAt,
})

/** Every stored field of a product from the version being stored (`excluded`), its key aside. */
const replacingStored = (
  eb: ExpressionBuilder<
    OnConflictDatabase<Database, 'store_products'>,
    OnConflictTables<'store_products'>
  >,
) => ({
  title: eb.ref('excluded.title'),
  status: eb.ref('excluded.status'),
  variant_count: eb.ref('excluded.variant_count'),
  min_price_minor: eb.ref('excluded.min_price_minor'),
  currency: eb.ref('excluded.currency'),
  image_url: eb.ref('excluded.image_url'),
  shopify_updated_at: eb.ref('excluded.shopify_updated_at'),
  seen_at: eb.ref('excluded.seen_at'),
})

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
