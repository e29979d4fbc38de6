import { createHash } from 'node:crypto'
import type {
  CatalogProduct,
  CreatorProductInput,
  CreatorProductWritten,
  SelectedOption,
} from '../adapters/commerce/catalog-port'
import { ProductRefused } from '../adapters/commerce/catalog-port'
import type { Db } from '../db/connect'
import { underLeaseInTurn } from '../db/lease'
import type { RouteDeps } from '../deps'
import type { JobContext, RegisterOptions } from '../jobs/job-queue'
import { withDeadline } from '../lib/remote-call'
import { linkVariants } from '../repositories/variant-links'
import { keptReading, readAndKeep } from './brand-readings'
import type { ListingSyncJob } from './catalog-jobs'
import { refusalInWords } from './product-refusals'
import { findListing, listingVariants, type ListingRow } from './listings-repository'

// One listing's creator product made to follow its brand product (docs/integrations.md
// "Catalog"), as the brand's Shopify last showed it (brand-readings.ts: read after each piece of
// news, never taken from it, so that deliveries twice or out of order converge on the newest
// state). What the job would write is compared with what it last wrote: news that changes nothing
// for this creator writes nothing. Runs of one listing take turns under a lease; a run killed
// after Shopify's answer and before its record writes the same again, to the same product (named
// by its handle until its id is recorded).

type Deps = Pick<RouteDeps, 'db' | 'commerce' | 'now'>

const LEASE = { ttlMs: 60_000, pollMs: 250 }
/** Each Shopify call: a third of the lease, renewed while the run works. */
const CALL_DEADLINE_MS = 20_000

/** What Tandem writes of the product, its stock aside: compared whole between runs. */
type ProductFields = Omit<CreatorProductInput, 'identifier' | 'locationId' | 'variants'> & {
  variants: (Omit<CreatorProductInput['variants'][number], 'id' | 'initialStock'> & {
    brandVariantId: string
    /** Not written: how the brand's inventory_levels/update finds the listing. */
    brandInventoryItemId: string
  })[]
}

/** What Tandem last wrote to the creator product (catalog_listings.written). */
interface Written {
  fields: ProductFields
  /** Units last set, by brand variant. */
  stock: Record<string, number>
}

/** The job. A refusal Shopify would repeat fails the listing with its reason, not the job. */
export async function syncListing(
  deps: Deps,
  { listingId }: ListingSyncJob,
  job: JobContext,
  settings: RegisterOptions,
): Promise<void> {
  await underLeaseInTurn(deps.db, `listing:${listingId}`, { ...LEASE, now: deps.now }, async () => {
    const listing = await findListing(deps.db, listingId)
    if (!listing) return
    try {
      await follow(deps, listing)
    } catch (error) {
      const refused = error instanceof ProductRefused
      // The last run's failure stays on the listing; an earlier one is retried.
      if (refused || job.attempt > settings.retryLimit) {
        const reason = refused ? refusalInWords(error) : String(error)
        await recordSync(deps, deps.db, listing.id, { sync_state: 'FAILED', sync_message: reason })
      }
      if (!refused) throw error
    }
  })
}

const remote = <T>(call: (signal: AbortSignal) => Promise<T>) =>
  withDeadline(CALL_DEADLINE_MS, call)

async function follow(deps: Deps, listing: ListingRow): Promise<void> {
  // The brand-product job's reading; one of its own for a listing whose product none read yet.
  const { product: brand } =
    (await keptReading(deps.db, listing.brand_store_shop, listing.brand_product_id)) ??
    (await readAndKeep(deps, listing.brand_store_shop, listing.brand_product_id))
  const before: Written | null = listing.written ? JSON.parse(listing.written) : null
  const seen = {
    brand_status: brand?.status ?? 'GONE',
    title: brand?.title ?? listing.title,
  }
  if (!before && (!brand || listing.status === 'REMOVED')) {
    // Nothing was written to the creator's store, and nothing is to be.
    return recordSync(deps, deps.db, listing.id, { ...seen, sync_state: 'IN_SYNC' })
  }
  const place = await stockPlace(deps, listing, brand)
  const fields = brand
    ? fieldsFrom(listing, brand)
    : { ...before!.fields, status: 'DRAFT' as const }
  const stock = brand
    ? stockOf(brand, await stockBuffer(deps.db, listing.brand_store_shop))
    : before!.stock
  let written = before
  if (!written || !listing.creator_product_id || !sameFields(written.fields, fields)) {
    written = await writeProduct(deps, listing, place.locationId, fields, stock, before)
  }
  const items = new Map(
    (await listingVariants(deps.db, listing.id)).map((row) => [row.brand_variant_id, row]),
  )
  const levels = Object.entries(stock).flatMap(([brandVariantId, quantity]) => {
    const item = items.get(brandVariantId)?.creator_inventory_item_id
    const changed = written.stock[brandVariantId] !== quantity
    return item && changed
      ? [{ inventoryItemId: item, locationId: place.locationId, quantity }]
      : []
  })
  if (levels.length > 0) {
    // The same change from the same stock is one key: a retry after a lost answer sets it once.
    const key = digest([listing.id, written.stock, stock])
    await remote((signal) =>
      deps.commerce.setStock(listing.creator_store_shop, levels, key, { signal }),
    )
  }
  await recordSync(deps, deps.db, listing.id, {
    ...seen,
    written: JSON.stringify({ fields, stock } satisfies Written),
    sync_state: 'IN_SYNC',
    sync_message: null,
    synced_at: deps.now().toISOString(),
  })
}

/**
 * productSet of the whole product: by its handle until its id is recorded, each variant made
 * before by its id (a new one with its stock). Answers what it wrote; its variants are recorded
 * with the mapping transfers trust, in one transaction.
 */
async function writeProduct(
  deps: Deps,
  listing: ListingRow,
  locationId: string,
  fields: ProductFields,
  stock: Record<string, number>,
  before: Written | null,
): Promise<Written> {
  const made = new Map(
    (await listingVariants(deps.db, listing.id)).map((row) => [
      row.brand_variant_id,
      row.creator_variant_id,
    ]),
  )
  const { variants, ...product } = fields
  const answer = await remote((signal) =>
    deps.commerce.setCreatorProduct(
      listing.creator_store_shop,
      {
        ...product,
        identifier: listing.creator_product_id
          ? { id: listing.creator_product_id }
          : { handle: listing.creator_handle },
        locationId,
        variants: variants.map(({ brandVariantId, brandInventoryItemId: _item, ...variant }) => ({
          ...variant,
          id: made.get(brandVariantId) ?? null,
          initialStock: made.has(brandVariantId) ? null : (stock[brandVariantId] ?? 0),
        })),
      },
      { signal },
    ),
  )
  const writtenStock = { ...before?.stock }
  for (const variant of variants) {
    if (!made.has(variant.brandVariantId)) {
      writtenStock[variant.brandVariantId] = stock[variant.brandVariantId] ?? 0
    }
  }
  await deps.db.transaction().execute(async (trx) => {
    await recordVariants(trx, listing, variants, answer, deps.now().toISOString())
    await recordSync(deps, trx, listing.id, {
      creator_product_id: answer.id,
      creator_location_id: locationId,
      written: JSON.stringify({ fields, stock: writtenStock } satisfies Written),
    })
  })
  return { fields, stock: writtenStock }
}

/**
 * The creator product as the brand's is now: at no less than the brand's price (a higher price the
 * administrator set wins), a draft while the listing is paused or the brand does not sell it, and
 * archived once the listing is removed (deleting it would orphan its past orders' lines).
 */
function fieldsFrom(listing: ListingRow, brand: CatalogProduct): ProductFields {
  const selling = brand.status === 'ACTIVE' || brand.status === 'UNLISTED'
  const status =
    listing.status === 'REMOVED'
      ? 'ARCHIVED'
      : listing.status === 'ACTIVE' && selling
        ? 'ACTIVE'
        : 'DRAFT'
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

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex')

const sameFields = (a: ProductFields, b: ProductFields) => digest(a) === digest(b)

/** Each brand variant's units for creator stores: what the brand has, less its buffer. */
const stockOf = (brand: CatalogProduct, buffer: number) =>
  Object.fromEntries(
    brand.variants.map((variant) => [variant.id, Math.max(0, variant.available - buffer)]),
  )

async function stockBuffer(db: Db, brandShop: string): Promise<number> {
  const row = await db
    .selectFrom('stores')
    .select('stock_buffer')
    .where('shop', '=', brandShop)
    .executeTakeFirst()
  return row?.stock_buffer ?? 0
}

/**
 * Where the creator's stock is kept, read from its Shopify the first time. A creator selling in
 * another currency than the brand's cannot take the brand's prices as they are.
 */
async function stockPlace(deps: Deps, listing: ListingRow, brand: CatalogProduct | null) {
  if (listing.creator_location_id) return { locationId: listing.creator_location_id }
  const place = await remote(() => deps.commerce.stockPlace(listing.creator_store_shop))
  if (brand && place.currency !== brand.currency) {
    throw new ProductRefused([
      {
        code: 'CURRENCY_MISMATCH',
        field: null,
        message: `${listing.creator_store_shop} sells in ${place.currency}, the brand in ${brand.currency}`,
      },
    ])
  }
  return place
}

const sameOptions = (a: SelectedOption[], b: SelectedOption[]) =>
  a.length === b.length &&
  a.every((option) => b.some((other) => other.name === option.name && other.value === option.value))

/**
 * The creator variants productSet answered, each recorded with the brand variant of the same
 * options (and as the link transfers trust); those it no longer has are forgotten by the listing,
 * while their links stay for the orders that sold them.
 */
async function recordVariants(
  trx: Db,
  listing: ListingRow,
  variants: ProductFields['variants'],
  answer: CreatorProductWritten,
  at: string,
): Promise<void> {
  const pairs = answer.variants.flatMap((creator) => {
    const brand = variants.find((variant) =>
      sameOptions(variant.selectedOptions, creator.selectedOptions),
    )
    return brand ? [{ creator, brand }] : []
  })
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

async function recordSync(
  deps: Pick<Deps, 'now'>,
  db: Db,
  listingId: string,
  changes: Partial<Omit<ListingRow, 'id'>>,
): Promise<void> {
  await db
    .updateTable('catalog_listings')
    .set({ ...changes, updated_at: deps.now().toISOString() })
    .where('id', '=', listingId)
    .execute()
}
