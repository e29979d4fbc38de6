import type {
  CatalogProduct,
  CreatorProductInput,
  CreatorProductWritten,
  SelectedOption,
} from '../adapters/commerce/catalog-port'
import { ProductRefused } from '../adapters/commerce/catalog-port'
import type { Db } from '../db/connect'
import { linkVariants } from '../repositories/variant-links'
import type { ListingRow } from './listings-repository'

// What a listing's creator product is to be (listing-sync.ts writes it), and how productSet's
// answer becomes the mapping transfers trust.

/** What Tandem writes of the product, its stock aside: compared whole between runs. */
export type ProductFields = Omit<
  CreatorProductInput,
  'identifier' | 'locationId' | 'variants' | 'images'
> & {
  images: NonNullable<CreatorProductInput['images']>
  variants: (Omit<CreatorProductInput['variants'][number], 'id' | 'initialStock'> & {
    brandVariantId: string
    /** Not written: how the brand's inventory_levels/update finds the listing. */
    brandInventoryItemId: string
  })[]
}

/** How long before a listing's first write Shopify's clock may date the product it made. */
const CLOCK_SKEW_MS = 60_000

/**
 * The creator product as the brand's is now: at no less than the brand's price (a higher price the
 * administrator set wins), a draft while the listing is paused or the brand does not sell it, and
 * archived once the listing is removed (deleting it would orphan its past orders' lines). A brand
 * product gone leaves what was written, as a draft (archived for a removed listing).
 */
export function fieldsFor(
  listing: ListingRow,
  brand: CatalogProduct | null,
  before: ProductFields | null,
): ProductFields {
  const selling = brand?.status === 'ACTIVE' || brand?.status === 'UNLISTED'
  const status =
    listing.status === 'REMOVED'
      ? 'ARCHIVED'
      : listing.status === 'ACTIVE' && selling
        ? 'ACTIVE'
        : 'DRAFT'
  if (!brand) return { ...before!, status }
  return {
    handle: listing.creator_handle,
    title: brand.title,
    descriptionHtml: brand.descriptionHtml,
    vendor: brand.vendor,
    status,
    currency: brand.currency,
    options: brand.options,
    images: brand.images,
    variants: brand.variants.map((variant) => ({
      brandVariantId: variant.id,
      brandInventoryItemId: variant.inventoryItemId,
      selectedOptions: variant.selectedOptions,
      sku: variant.sku,
      priceMinor: Math.max(variant.priceMinor, listing.price_minor ?? 0),
    })),
  }
}

/** Each brand variant's units for creator stores: what the brand has, less its buffer. */
export const stockOf = (brand: CatalogProduct, buffer: number): Record<string, number> =>
  Object.fromEntries(
    brand.variants.map((variant) => [variant.id, Math.max(0, variant.available - buffer)]),
  )

export async function stockBuffer(db: Db, brandShop: string): Promise<number> {
  const row = await db
    .selectFrom('stores')
    .select('stock_buffer')
    .where('shop', '=', brandShop)
    .executeTakeFirst()
  return row?.stock_buffer ?? 0
}

const sameOptions = (a: SelectedOption[], b: SelectedOption[]) =>
  a.length === b.length &&
  a.every((option) => b.some((other) => other.name === option.name && other.value === option.value))

const refused = (code: string, message: string) =>
  new ProductRefused([{ code, field: null, message }])

/**
 * Each variant written paired with the creator variant productSet answered for it: by its id when
 * it was sent one, else by its options. Every variant must have exactly one, or nothing is linked.
 * Written under the handle, the product must be the one Tandem made (dated after its first write)
 * and its variants linked to nothing yet: a creator who gave the handle to a product of its own
 * does not get that product's variants taken for the brand's.
 */
export async function pairVariants(
  db: Db,
  listing: ListingRow,
  variants: ProductFields['variants'],
  sentIds: ReadonlyMap<string, string>,
  answer: CreatorProductWritten,
) {
  const pairs = variants.map((brand) => {
    const sentId = sentIds.get(brand.brandVariantId)
    const matching = answer.variants.filter((creator) =>
      sentId ? creator.id === sentId : sameOptions(brand.selectedOptions, creator.selectedOptions),
    )
    if (matching.length !== 1) {
      throw refused(
        'VARIANTS_UNMATCHED',
        `Shopify answered ${matching.length} variants of the creator's product for ${brand.selectedOptions.map((o) => o.value).join(' / ')}`,
      )
    }
    return { creator: matching[0]!, brand }
  })
  if (!listing.creator_product_id) {
    const madeBefore =
      Date.parse(answer.createdAt) < Date.parse(listing.first_write_at!) - CLOCK_SKEW_MS
    const ids = pairs.map((pair) => pair.creator.id)
    const linked = await db
      .selectFrom('variant_links')
      .select('creator_variant_id')
      .where('creator_variant_id', 'in', ids)
      .union(
        db
          .selectFrom('listing_variants')
          .select('creator_variant_id')
          .where('creator_variant_id', 'in', ids),
      )
      .execute()
    if (madeBefore || linked.length > 0) {
      throw refused(
        'PRODUCT_NOT_TANDEMS',
        `${answer.id} under the handle ${listing.creator_handle}`,
      )
    }
  }
  return pairs
}

/**
 * The pairs recorded: the listing's variants, and the links transfers trust. Variants the product
 * no longer has are forgotten by the listing, while their links stay for the orders that sold them.
 */
export async function recordVariants(
  trx: Db,
  listing: ListingRow,
  pairs: Awaited<ReturnType<typeof pairVariants>>,
  at: string,
): Promise<void> {
  await trx.deleteFrom('listing_variants').where('listing_id', '=', listing.id).execute()
  if (pairs.length === 0) return
  await trx
    .insertInto('listing_variants')
    .values(
      pairs.map(({ creator, brand }) => ({
        creator_variant_id: creator.id,
        listing_id: listing.id,
        brand_variant_id: brand.brandVariantId,
        brand_inventory_item_id: brand.brandInventoryItemId,
        creator_inventory_item_id: creator.inventoryItemId,
      })),
    )
    .execute()
  await linkVariants(
    trx,
    pairs.map(({ creator, brand }) => ({
      creatorStoreShop: listing.creator_store_shop,
      creatorVariantId: creator.id,
      brandStoreShop: listing.brand_store_shop,
      brandVariantId: brand.brandVariantId,
    })),
    at,
  )
}
