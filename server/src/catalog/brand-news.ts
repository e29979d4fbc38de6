import type { RouteDeps } from '../deps'
import { sendListingSync } from './listing-sync'
import { listingsOfBrandProduct, listingsOfInventoryItem } from './listings-repository'

// A brand's product or stock changed (products/update, products/delete, inventory_levels/update,
// from the webhook inbox's job): every listing that follows it gets its sync job. Listings are
// found by what Tandem recorded for the shop that signed the delivery, so a shop's news reaches
// only the listings of its own products; what changed is read by each job from the brand's
// Shopify, never taken from the body.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

export async function followBrandProduct(deps: Deps, shop: string, productId: string) {
  await sendSyncs(deps, await listingsOfBrandProduct(deps.db, shop, productId))
}

export async function followInventoryItem(deps: Deps, shop: string, inventoryItemId: string) {
  await sendSyncs(deps, await listingsOfInventoryItem(deps.db, shop, inventoryItemId))
}

async function sendSyncs(deps: Deps, listingIds: string[]) {
  if (listingIds.length === 0) return
  await deps.db.transaction().execute(async (trx) => {
    for (const id of listingIds) await sendListingSync(deps, trx, id)
  })
}
