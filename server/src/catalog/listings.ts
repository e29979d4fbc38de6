import { randomBytes } from 'node:crypto'
import type { CatalogListing, ListingStatus } from '@shared/contract'
import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { formatMinorUnits, MoneyError, toMinorUnits } from '../domain/money'
import { requireStoreOf } from '../repositories/stores'
import { auditedChange, type Actor } from '../services/audited-change'
import { isRecent, keptReading } from './brand-readings'
import { sendBrandProductJob, sendListingSyncs } from './catalog-jobs'
import { findListing, type ListingRow } from './listings-repository'

// The administrator's side of listings (docs/integrations.md "Catalog"): brand products picked
// from the brand's synced catalogue are listed on a creator's store, paused, relisted, repriced or
// removed. Each change is audited and sends, in the same transaction, the job that reads the brand
// product (a new listing) or the listing's sync job (a change of one), which writes the creator's
// store (listing-sync.ts).

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

interface ListRequest {
  creatorStoreShop: string
  brandStoreShop: string
  productIds: string[]
  price?: string | null
}

/** The listing's web address on the creator's store: its title's, and a part no one can guess. */
function handleFor(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `${slug || 'product'}-${randomBytes(4).toString('hex')}`
}

/** The price asked for, in minor units of the brand's currency; never below the brand's. */
function askedPrice(
  price: string | null | undefined,
  product: { title: string; currency: string; min_price_minor: number },
): number | null {
  if (price === null || price === undefined) return null
  let minor: number
  try {
    minor = toMinorUnits(price, product.currency)
  } catch (error) {
    if (error instanceof MoneyError) throw new Refusal('invalid_input', `price: ${error.message}`)
    throw error
  }
  if (minor < product.min_price_minor) {
    const least = formatMinorUnits(product.min_price_minor, product.currency)
    throw new Refusal(
      'business_rule',
      `${price} ${product.currency} is below ${product.title}'s brand price of ${least} ${product.currency}: leave the price empty to sell at the brand's`,
    )
  }
  return minor
}

/** Lists each picked product; one that cannot be is answered with why, the others still are. */
export async function listProducts(deps: Deps, actor: Actor, request: ListRequest) {
  const { creatorStoreShop: creator, brandStoreShop: brand } = request
  await requireStoreOf(deps.db, creator, 'CREATOR', {
    wrongType: `${creator} is a brand store: products are listed on creator stores`,
  })
  await requireStoreOf(deps.db, brand, 'BRAND', {
    wrongType: `${brand} is a creator store: list products of a brand store`,
  })
  const productIds = [...new Set(request.productIds)]
  return auditedChange(deps, actor, async (trx) => {
    const listed: string[] = []
    const refused: { productId: string; message: string }[] = []
    for (const productId of productIds) {
      const product = await trx
        .selectFrom('store_products')
        .selectAll()
        .where('store_shop', '=', brand)
        .where('product_id', '=', productId)
        .executeTakeFirst()
      if (!product) {
        refused.push({
          productId,
          message: `${brand} has no such product in its synced catalogue: sync its products, then pick again`,
        })
        continue
      }
      const price = askedPrice(request.price, product)
      const id = await listOne(deps, trx, { creator, brand, product, price })
      if (id) listed.push(id)
      else refused.push({ productId, message: `${product.title} is listed on ${creator} already` })
    }
    const listings =
      listed.length === 0
        ? []
        : await listingsWhere(trx, (query) => query.where('catalog_listings.id', 'in', listed))
    return {
      result: { listed: listings, refused },
      audit: {
        action: 'catalog.list',
        target: creator,
        details: { brandStoreShop: brand, titles: listings.map((listing) => listing.title) },
      },
    }
  })
}

/** A new listing, or a removed one listed again; null when it is listed already. */
async function listOne(
  deps: Deps,
  trx: Db,
  input: {
    creator: string
    brand: string
    product: { product_id: string; title: string }
    price: number | null
  },
): Promise<string | null> {
  const at = deps.now().toISOString()
  const existing = await trx
    .selectFrom('catalog_listings')
    .selectAll()
    .where('creator_store_shop', '=', input.creator)
    .where('brand_store_shop', '=', input.brand)
    .where('brand_product_id', '=', input.product.product_id)
    .executeTakeFirst()
  if (existing) {
    if (existing.status !== 'REMOVED') return null
    await relist(deps, trx, existing, { status: 'ACTIVE', price: input.price })
    return existing.id
  }
  const id = `lst_${randomBytes(8).toString('hex')}`
  const inserted = await trx
    .insertInto('catalog_listings')
    .values({
      id,
      creator_store_shop: input.creator,
      brand_store_shop: input.brand,
      brand_product_id: input.product.product_id,
      title: input.product.title,
      price_minor: input.price,
      status: 'ACTIVE',
      creator_handle: handleFor(input.product.title),
      sync_state: 'PENDING',
      created_at: at,
      updated_at: at,
    })
    // Listed at the same moment by another request: that one's.
    .onConflict((conflict) => conflict.doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return null
  await readBrandProductFor(deps, trx, {
    id,
    brand: input.brand,
    productId: input.product.product_id,
    now: false,
  })
  return id
}

/**
 * The brand product read for a listing: a listing follows it as the brand's Shopify has it, not as
 * synced. A new listing takes a recent reading (`newsAt` null), its sync job sent at once when one
 * is kept (a product listed on a thousand stores costs them a sync job each, not two jobs); one
 * listed again reads it now.
 */
async function readBrandProductFor(
  deps: Deps,
  trx: Db,
  listing: { id: string; brand: string; productId: string; now: boolean },
) {
  const kept = listing.now ? undefined : await keptReading(trx, listing.brand, listing.productId)
  if (kept && isRecent(deps, kept)) {
    await sendListingSyncs(deps, trx, [listing.id])
    return
  }
  await sendBrandProductJob(deps, trx, {
    brandStoreShop: listing.brand,
    productId: listing.productId,
    newsAt: listing.now ? deps.now().toISOString() : null,
    listingIds: [listing.id],
  })
}

/**
 * A removed listing listed again starts anew, under a new handle: its archived product stays
 * archived with its past orders' variants (their links kept), or was deleted by the creator, and a
 * product of its own is made again. Nothing written before is trusted.
 */
async function relist(
  deps: Deps,
  trx: Db,
  listing: ListingRow,
  change: { status: 'ACTIVE' | 'PAUSED'; price: number | null },
) {
  await trx.deleteFrom('listing_variants').where('listing_id', '=', listing.id).execute()
  await trx
    .updateTable('catalog_listings')
    .set({
      status: change.status,
      price_minor: change.price,
      creator_handle: handleFor(listing.title),
      creator_product_id: null,
      first_write_at: null,
      written: null,
      sync_state: 'PENDING',
      sync_message: null,
      updated_at: deps.now().toISOString(),
    })
    .where('id', '=', listing.id)
    .execute()
  await readBrandProductFor(deps, trx, {
    id: listing.id,
    brand: listing.brand_store_shop,
    productId: listing.brand_product_id,
    now: true,
  })
}

/** Pauses, relists or removes a listing, and reprices it when a price is given. */
export async function setListing(
  deps: Deps,
  actor: Actor,
  request: { listingId: string; status: ListingStatus; price?: string | null },
): Promise<CatalogListing> {
  return auditedChange(deps, actor, async (trx) => {
    const listing = await findListing(trx, request.listingId)
    if (!listing) throw new Refusal('not_found', `Listing not found: ${request.listingId}`)
    const product = await trx
      .selectFrom('store_products')
      .select(['title', 'currency', 'min_price_minor'])
      .where('store_shop', '=', listing.brand_store_shop)
      .where('product_id', '=', listing.brand_product_id)
      .executeTakeFirst()
    const price =
      request.price === undefined
        ? listing.price_minor
        : product
          ? askedPrice(request.price, product)
          : refuseRepricing(listing)
    if (listing.status === 'REMOVED' && request.status !== 'REMOVED') {
      await relist(deps, trx, listing, { status: request.status, price })
    } else {
      await trx
        .updateTable('catalog_listings')
        .set({ status: request.status, price_minor: price })
        .where('id', '=', listing.id)
        .execute()
      await sendListingSyncs(deps, trx, [listing.id], { recheck: true })
    }
    const [changed] = await listingsWhere(trx, (query) =>
      query.where('catalog_listings.id', '=', listing.id),
    )
    return {
      result: changed!,
      audit: {
        action: 'catalog.set-listing',
        target: listing.creator_store_shop,
        details: {
          title: listing.title,
          brandStoreShop: listing.brand_store_shop,
          from: listing.status,
          to: request.status,
          ...(request.price === undefined ? {} : { price: changed!.price }),
        },
      },
    }
  })
}

function refuseRepricing(listing: ListingRow): never {
  throw new Refusal(
    'business_rule',
    `${listing.brand_store_shop} no longer has ${listing.title} in its synced catalogue: its price cannot be changed`,
  )
}

/** The units of each variant a brand keeps back from creator stores; every listing follows. */
export async function setStockBuffer(
  deps: Deps,
  actor: Actor,
  request: { brandStoreShop: string; units: number },
) {
  await requireStoreOf(deps.db, request.brandStoreShop, 'BRAND', {
    wrongType: `${request.brandStoreShop} is a creator store: a stock buffer is a brand's`,
  })
  return auditedChange(deps, actor, async (trx) => {
    await trx
      .updateTable('stores')
      .set({ stock_buffer: request.units })
      .where('shop', '=', request.brandStoreShop)
      .execute()
    const listings = await trx
      .selectFrom('catalog_listings')
      .select('id')
      .where('brand_store_shop', '=', request.brandStoreShop)
      .where('status', '!=', 'REMOVED')
      // A store's listings together, to share a sync job.
      .orderBy('creator_store_shop')
      .execute()
    await sendListingSyncs(
      deps,
      trx,
      listings.map((listing) => listing.id),
    )
    return {
      result: { brandStoreShop: request.brandStoreShop, stockBuffer: request.units },
      audit: {
        action: 'catalog.stock-buffer',
        target: request.brandStoreShop,
        details: { units: request.units },
      },
    }
  })
}

/** A creator's listings, or a brand's with its stock buffer, by title. */
export async function catalogListings(
  deps: Pick<Deps, 'db'>,
  query: { creatorStoreShop?: string; brandStoreShop?: string },
) {
  const { creatorStoreShop: creator, brandStoreShop: brand } = query
  if (creator) {
    await requireStoreOf(deps.db, creator, 'CREATOR', {
      wrongType: `${creator} is a brand store: ask for its listings with brandStoreShop`,
    })
    const listings = await listingsWhere(deps.db, (rows) =>
      rows.where('catalog_listings.creator_store_shop', '=', creator),
    )
    return { listings, stockBuffer: null }
  }
  await requireStoreOf(deps.db, brand!, 'BRAND', {
    wrongType: `${brand} is a creator store: ask for its listings with creatorStoreShop`,
  })
  const listings = await listingsWhere(deps.db, (rows) =>
    rows.where('catalog_listings.brand_store_shop', '=', brand!),
  )
  const store = await deps.db
    .selectFrom('stores')
    .select('stock_buffer')
    .where('shop', '=', brand!)
    .executeTakeFirstOrThrow()
  return { listings, stockBuffer: store.stock_buffer }
}

const listingQuery = (db: Db) =>
  db
    .selectFrom('catalog_listings')
    .leftJoin('store_products', (join) =>
      join
        .onRef('store_products.store_shop', '=', 'catalog_listings.brand_store_shop')
        .onRef('store_products.product_id', '=', 'catalog_listings.brand_product_id'),
    )
    .selectAll('catalog_listings')
    .select([
      'store_products.image_url',
      'store_products.currency',
      'store_products.min_price_minor',
    ])

async function listingsWhere(
  db: Db,
  filter: (query: ReturnType<typeof listingQuery>) => ReturnType<typeof listingQuery>,
): Promise<CatalogListing[]> {
  const rows = await filter(listingQuery(db))
    .orderBy('catalog_listings.title')
    .orderBy('catalog_listings.id')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    creatorStoreShop: row.creator_store_shop,
    brandStoreShop: row.brand_store_shop,
    brandProductId: row.brand_product_id,
    title: row.title,
    imageUrl: row.image_url,
    status: row.status,
    price:
      row.price_minor === null || !row.currency
        ? null
        : formatMinorUnits(Number(row.price_minor), row.currency),
    brandPrice:
      row.min_price_minor === null || !row.currency
        ? null
        : formatMinorUnits(Number(row.min_price_minor), row.currency),
    currency: row.currency,
    syncState: row.sync_state,
    syncMessage: row.sync_message,
    brandStatus: row.brand_status,
    creatorProductId: row.creator_product_id,
    syncedAt: row.synced_at,
  }))
}
