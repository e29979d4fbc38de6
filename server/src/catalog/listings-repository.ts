import type { Selectable } from 'kysely'
import type { Db } from '../db/connect'
import type { CatalogListingsTable, ListingVariantsTable } from '../db/schema'

// The listings as stored (migration 019): read by the sync job, the console's lists and the news
// that sends jobs.

export type ListingRow = Selectable<CatalogListingsTable>
export type ListingVariantRow = Selectable<ListingVariantsTable>

export const findListing = (db: Db, id: string): Promise<ListingRow | undefined> =>
  db.selectFrom('catalog_listings').selectAll().where('id', '=', id).executeTakeFirst()

export const listingVariants = (db: Db, listingId: string): Promise<ListingVariantRow[]> =>
  db.selectFrom('listing_variants').selectAll().where('listing_id', '=', listingId).execute()

/** The listings following a brand product, removed ones aside (their product stays archived). */
export async function listingsOfBrandProduct(
  db: Db,
  brandShop: string,
  productId: string,
): Promise<{ id: string; syncState: ListingRow['sync_state'] }[]> {
  const rows = await db
    .selectFrom('catalog_listings')
    .select(['id', 'sync_state'])
    .where('brand_store_shop', '=', brandShop)
    .where('brand_product_id', '=', productId)
    .where('status', '!=', 'REMOVED')
    .execute()
  return rows.map((row) => ({ id: row.id, syncState: row.sync_state }))
}

/**
 * The listings behind these creator variants that transfers must refuse, by creator variant: a
 * listing paused or removed sells nothing the brand ships.
 */
export async function stoppedListingsOf(
  db: Db,
  creatorVariantIds: string[],
): Promise<Map<string, { status: 'PAUSED' | 'REMOVED'; title: string }>> {
  if (creatorVariantIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('listing_variants')
    .innerJoin('catalog_listings', 'catalog_listings.id', 'listing_variants.listing_id')
    .select([
      'listing_variants.creator_variant_id',
      'catalog_listings.status',
      'catalog_listings.title',
    ])
    .where('listing_variants.creator_variant_id', 'in', creatorVariantIds)
    .where('catalog_listings.status', '!=', 'ACTIVE')
    .execute()
  return new Map(
    rows.map((row) => [
      row.creator_variant_id,
      { status: row.status as 'PAUSED' | 'REMOVED', title: row.title },
    ]),
  )
}
