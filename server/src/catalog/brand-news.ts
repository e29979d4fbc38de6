import type { RouteDeps } from '../deps'
import { sendBrandProductJob } from './catalog-jobs'

// A brand's product or stock changed (products/update, products/delete, inventory_levels/update,
// from the webhook inbox's job): the product is read again, once, for every listing of it
// (brand-readings.ts), and its listings show as pending from now. Listings are found by what
// Tandem recorded for the shop that signed the delivery, so a shop's news reaches only the
// listings of its own products; what changed is read from the brand's Shopify, never taken from
// the body.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

export async function followBrandProduct(deps: Deps, shop: string, productId: string) {
  await followProducts(deps, shop, [productId])
}

export async function followInventoryItem(deps: Deps, shop: string, inventoryItemId: string) {
  const products = await deps.db
    .selectFrom('listing_variants')
    .innerJoin('catalog_listings', 'catalog_listings.id', 'listing_variants.listing_id')
    .select('catalog_listings.brand_product_id')
    .distinct()
    .where('listing_variants.brand_inventory_item_id', '=', inventoryItemId)
    .where('catalog_listings.brand_store_shop', '=', shop)
    .execute()
  await followProducts(
    deps,
    shop,
    products.map((product) => product.brand_product_id),
  )
}

async function followProducts(deps: Deps, shop: string, productIds: string[]) {
  if (productIds.length === 0) return
  await deps.db.transaction().execute(async (trx) => {
    const pending = await trx
      .updateTable('catalog_listings')
      .set({ sync_state: 'PENDING', sync_message: null, updated_at: deps.now().toISOString() })
      .where('brand_store_shop', '=', shop)
      .where('brand_product_id', 'in', productIds)
      .where('status', '!=', 'REMOVED')
      .returning('brand_product_id')
      .execute()
    const newsAt = deps.now().toISOString()
    const followed = new Set(pending.map((row) => row.brand_product_id))
    for (const productId of followed) {
      await sendBrandProductJob(deps, trx, {
        brandStoreShop: shop,
        productId,
        newsAt,
        listingIds: null,
      })
    }
    // A product no listing follows now is not read: what was kept of it is no longer current.
    const unfollowed = productIds.filter((productId) => !followed.has(productId))
    if (unfollowed.length > 0) {
      await trx
        .deleteFrom('brand_product_readings')
        .where('brand_store_shop', '=', shop)
        .where('product_id', 'in', unfollowed)
        .execute()
    }
  })
}
