import type { RouteDeps } from '../deps'
import { sendListingSyncs } from './catalog-jobs'

// A creator's product changed in its own admin (products/update, from the webhook inbox's job):
// the product Tandem wrote for a listing follows its listing again, so that a creator's change of
// its price or status is put back (listing-sync.ts reads the product from the creator's Shopify
// and writes only what strays). Listings are found by what Tandem recorded for the shop that
// signed the delivery: a creator's news reaches only its own listings. Tandem's own write,
// announced back to it, is read once and writes nothing.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

export async function followCreatorProduct(deps: Deps, shop: string, productId: string) {
  await deps.db.transaction().execute(async (trx) => {
    const listings = await trx
      .selectFrom('catalog_listings')
      .select('id')
      .where('creator_store_shop', '=', shop)
      .where('creator_product_id', '=', productId)
      .execute()
    await sendListingSyncs(
      deps,
      trx,
      listings.map((listing) => listing.id),
      { recheck: true },
    )
  })
}
