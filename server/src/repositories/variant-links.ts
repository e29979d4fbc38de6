import type { Db } from '../db/connect'

// Which brand variant a creator's variant stands for. Tandem's own record, written when a creator
// lists a brand's product through Tandem (seeded for the sandbox): a creator's store is the
// creator's to edit, metafields included, so nothing read from it decides what a brand ships.

export interface VariantLink {
  creatorStoreShop: string
  creatorVariantId: string
  brandStoreShop: string
  brandVariantId: string
}

/** The brand variant of each of `creatorVariantIds` that the creator's store links, by id. */
export async function findVariantLinks(
  db: Db,
  creatorStoreShop: string,
  creatorVariantIds: string[],
): Promise<Map<string, VariantLink>> {
  if (creatorVariantIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('variant_links')
    .selectAll()
    .where('creator_store_shop', '=', creatorStoreShop)
    .where('creator_variant_id', 'in', creatorVariantIds)
    .execute()
  return new Map(
    rows.map((row) => [
      row.creator_variant_id,
      {
        creatorStoreShop: row.creator_store_shop,
        creatorVariantId: row.creator_variant_id,
        brandStoreShop: row.brand_store_shop,
        brandVariantId: row.brand_variant_id,
      },
    ]),
  )
}

/** Records links; a creator variant linked again now stands for the new brand variant. */
export async function linkVariants(db: Db, links: VariantLink[], at: string): Promise<void> {
  if (links.length === 0) return
  await db
    .insertInto('variant_links')
    .values(
      links.map((link) => ({
        creator_variant_id: link.creatorVariantId,
        creator_store_shop: link.creatorStoreShop,
        brand_store_shop: link.brandStoreShop,
        brand_variant_id: link.brandVariantId,
        linked_at: at,
      })),
    )
    .onConflict((conflict) =>
      conflict.column('creator_variant_id').doUpdateSet((update) => ({
        creator_store_shop: update.ref('excluded.creator_store_shop'),
        brand_store_shop: update.ref('excluded.brand_store_shop'),
        brand_variant_id: update.ref('excluded.brand_variant_id'),
        linked_at: update.ref('excluded.linked_at'),
      })),
    )
    .execute()
}
