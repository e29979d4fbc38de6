import { createHash } from 'node:crypto'
import type { CatalogProduct } from '../adapters/commerce/catalog-port'
import { ProductRefused } from '../adapters/commerce/catalog-port'
import type { Db } from '../db/connect'
import { underLeaseInTurn } from '../db/lease'
import type { RouteDeps } from '../deps'
import type { JobContext, RegisterOptions } from '../jobs/job-queue'
import { withDeadline } from '../lib/remote-call'
import { transferTiming } from '../transfers/transfer-timing'
import { keptReading, readAndKeep, type BrandReading } from './brand-readings'
import { STORES_AT_ONCE, type ListingSyncJob } from './catalog-jobs'
import {
  fieldsFor,
  pairVariants,
  recordVariants,
  stockBuffer,
  stockOf,
  type ProductFields,
} from './creator-product'
import { refusalInWords } from './product-refusals'
import {
  findListing,
  listingVariants,
  type ListingRow,
  type ListingVariantRow,
} from './listings-repository'

// A batch of listings' creator products made to follow their brand products (docs/integrations.md
// "Catalog"), as the brand's Shopify last showed them (brand-readings.ts: read after each piece of
// news, never taken from it, so that deliveries twice or out of order converge on the newest
// state). What a listing's run would write is compared with what it last wrote, and the creator
// product's status and prices with the product as the creator's Shopify has it now (a creator
// controls its store, and may have changed them in its admin): news that changes nothing for this
// creator writes nothing, and a creator's change is put back. A batch's stores are written at once
// (STORES_AT_ONCE), each store's listings one after another, on its own cost budget (the adapter
// waits out a store's THROTTLED answer, which holds up no other store). Runs of one listing take
// turns under a lease; a run killed after Shopify's answer and before its record writes the same
// again, to the same product (named by its handle until its id is recorded).

type Deps = Pick<RouteDeps, 'db' | 'commerce' | 'now' | 'transferTiming'>

/** Runs of one listing wait their turn this often; the lease and deadlines are the transfers'. */
const LEASE_POLL_MS = 250

/** What Tandem last wrote to the creator product (catalog_listings.written). */
interface Written {
  fields: ProductFields
  /** Units last set, by brand variant. */
  stock: Record<string, number>
  /**
   * Stock writes made so far: each write's idempotency key is new, a retry's after an unknown
   * outcome or a refusal the same (a key Shopify refused for good, the adapter goes on past:
   * adapters/commerce/shopify/idempotency-keys.ts).
   */
  stockWrites: number
  /**
   * When the brand reading it followed was read: a run for that reading again (news fanned out
   * twice) reads the creator's store only when asked to. Absent in records made before.
   */
  readAt?: string
}

/**
 * The job. A refusal Shopify would repeat fails the listing with its reason, not the job; another
 * failure of one listing fails the job once every other listing of it has run, and its retry runs
 * again only the listings still pending (one that ran since is followed by a job of its own when
 * news comes after its run).
 */
export async function syncListings(
  deps: Deps,
  payload: ListingSyncJob,
  job: JobContext,
  settings: RegisterOptions,
): Promise<void> {
  const ids = 'listingIds' in payload ? payload.listingIds : [payload.listingId]
  const recheck = 'listingIds' in payload ? (payload.recheck ?? false) : true
  if (ids.length === 0) return
  let query = deps.db
    .selectFrom('catalog_listings')
    .select(['id', 'creator_store_shop'])
    .where('id', 'in', ids)
  if (job.attempt > 1) query = query.where('sync_state', '=', 'PENDING')
  const byStore = new Map<string, string[]>()
  for (const { id, creator_store_shop: shop } of await query.execute()) {
    byStore.set(shop, [...(byStore.get(shop) ?? []), id])
  }
  const states = new Map<string, Promise<BrandState>>()
  const failures: unknown[] = []
  const stores = [...byStore.values()]
  const worker = async () => {
    for (let listings = stores.shift(); listings; listings = stores.shift()) {
      for (const id of listings) {
        // A stopping process ends the job after the runs under way: its retry does the rest.
        if (job.signal.aborted) {
          failures.push(new Error('The process stopped before this listing ran'))
          continue
        }
        await syncListing(deps, { id, recheck, states }, job, settings).catch((error: unknown) => {
          failures.push(error)
        })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(STORES_AT_ONCE, stores.length) }, worker))
  if (failures.length > 0) {
    throw new Error(
      `${failures.length} of ${ids.length} listings did not follow, to be run again: ${String(failures[0])}`,
      { cause: failures[0] },
    )
  }
}

/** One listing's run, under its lease. */
async function syncListing(
  deps: Deps,
  { id: listingId, recheck, states }: Run,
  job: JobContext,
  settings: RegisterOptions,
): Promise<void> {
  const { leaseMs } = transferTiming(deps.transferTiming)
  const lease = { ttlMs: leaseMs, pollMs: LEASE_POLL_MS, now: deps.now }
  await underLeaseInTurn(deps.db, `listing:${listingId}`, lease, async () => {
    const listing = await findListing(deps.db, listingId)
    if (!listing) return
    try {
      await follow(deps, listing, { recheck, states })
    } catch (error) {
      const refused = error instanceof ProductRefused
      // The last run's failure stays on the listing; an earlier one is retried.
      if (refused || job.attempt > settings.retryLimit) {
        const reason = refused ? refusalInWords(error) : String(error)
        await deps.db
          .updateTable('catalog_listings')
          .set({ sync_state: 'FAILED', sync_message: reason, updated_at: deps.now().toISOString() })
          .where('id', '=', listing.id)
          .execute()
      }
      if (!refused) throw error
    }
  })
}

/** A brand product as a batch's listings follow it: its reading kept, and its brand's buffer. */
interface BrandState extends BrandReading {
  buffer: number
}

/** A listing's run in its batch. */
interface Run {
  id: string
  /** Whether the creator's store is read even for a reading the listing followed already. */
  recheck: boolean
  /** The brand products the batch took so far. */
  states: Map<string, Promise<BrandState>>
}

/**
 * The brand product's reading kept and its brand's stock buffer, taken once a batch (a newer
 * reading kept or a buffer set while the batch runs sends every listing a run of its own); a
 * reading of its own for a product none read yet.
 */
function brandState(
  deps: Deps,
  listing: ListingRow,
  states: Map<string, Promise<BrandState>>,
): Promise<BrandState> {
  const { brand_store_shop: shop, brand_product_id: productId } = listing
  const key = `${shop} ${productId}`
  let state = states.get(key)
  if (!state) {
    state = (async () => {
      const reading =
        (await keptReading(deps.db, shop, productId)) ?? (await readAndKeep(deps, shop, productId))
      return { ...reading, buffer: await stockBuffer(deps.db, shop) }
    })()
    // A failed reading is not the batch's other listings'.
    state.catch(() => states.delete(key))
    states.set(key, state)
  }
  return state
}

/** A Shopify call within the transfers' remote deadline, a third of the lease at most. */
const remote = <T>(deps: Deps, call: (signal: AbortSignal) => Promise<T>) =>
  withDeadline(transferTiming(deps.transferTiming).remoteTimeoutMs, call)

async function follow(
  deps: Deps,
  listing: ListingRow,
  { recheck, states }: Omit<Run, 'id'>,
): Promise<void> {
  const { product: brand, buffer, readAt } = await brandState(deps, listing, states)
  const before: Written | null = listing.written ? JSON.parse(listing.written) : null
  const seen = { brand_status: brand?.status ?? 'GONE', title: brand?.title ?? listing.title }
  if (!before && (!brand || listing.status === 'REMOVED')) {
    // Nothing was written to the creator's store, and nothing is to be.
    return recordFollowed(deps, listing, seen)
  }
  const place = await stockPlace(deps, listing, brand)
  const fields = fieldsFor(listing, brand, before?.fields ?? null)
  const stock = brand ? stockOf(brand, buffer) : before!.stock
  let variants = await listingVariants(deps.db, listing.id)
  let written = before
  // The run that followed this reading read the creator's store; the creator's news asks again.
  const readAlready = before?.readAt === readAt && !recheck
  if (
    !written ||
    !listing.creator_product_id ||
    digest(written.fields) !== digest(fields) ||
    (!readAlready && (await strayed(deps, listing, variants, fields)))
  ) {
    ;({ written, variants } = await writeProduct(deps, listing, variants, {
      locationId: place.locationId,
      fields,
      stock,
      before,
    }))
  }
  const items = new Map(variants.map((row) => [row.brand_variant_id, row]))
  const levels = Object.entries(stock).flatMap(([brandVariantId, quantity]) => {
    const item = items.get(brandVariantId)?.creator_inventory_item_id
    const changed = written.stock[brandVariantId] !== quantity
    return item && changed
      ? [{ inventoryItemId: item, locationId: place.locationId, quantity }]
      : []
  })
  let { stockWrites } = written
  if (levels.length > 0) {
    // Numbered, so that stock going back to what it was is set again; a retry of a write whose
    // answer was lost repeats its key, and is set once.
    const key = digest([listing.id, stockWrites, stock])
    await remote(deps, (signal) =>
      deps.commerce.setStock(listing.creator_store_shop, levels, key, { signal }),
    )
    stockWrites += 1
  }
  await recordFollowed(deps, listing, {
    ...seen,
    written: JSON.stringify({ fields, stock, stockWrites, readAt } satisfies Written),
    synced_at: deps.now().toISOString(),
  })
}

/**
 * Whether the creator product as its Shopify has it strays from what the listing writes: its
 * status (what sells) or a variant's price (at what price), or it is gone (the write then answers
 * why). Read on every sync rather than on the creator's news alone: a creator's news may never
 * come (it controls its store's subscriptions). One small query on the creator's own cost budget;
 * a brand's news fanned out to many stores costs each store one.
 */
async function strayed(
  deps: Deps,
  listing: ListingRow,
  variants: ListingVariantRow[],
  fields: ProductFields,
): Promise<boolean> {
  const shown = await remote(deps, () =>
    deps.commerce.readCreatorProduct(
      listing.creator_store_shop,
      listing.creator_product_id!,
      fields.variants.length,
    ),
  )
  if (!shown || shown.status !== fields.status) return true
  const creatorVariant = new Map(
    variants.map((row) => [row.brand_variant_id, row.creator_variant_id]),
  )
  const prices = new Map(shown.variants.map((variant) => [variant.id, variant.priceMinor]))
  return fields.variants.some(
    (variant) =>
      prices.get(creatorVariant.get(variant.brandVariantId) ?? '') !== variant.priceMinor,
  )
}

/**
 * productSet of the whole product: by its handle until its id is recorded, each variant made
 * before by its id (a new one with its stock). Answers what it wrote and the listing's variants;
 * new variants are recorded with the mapping transfers trust, in one transaction (a write that
 * made none leaves its record to the run's end: written again after a crash, it writes the same).
 */
async function writeProduct(
  deps: Deps,
  listing: ListingRow,
  recorded: ListingVariantRow[],
  {
    locationId,
    fields,
    stock,
    before,
  }: {
    locationId: string
    fields: ProductFields
    stock: Record<string, number>
    before: Written | null
  },
): Promise<{ written: Written; variants: ListingVariantRow[] }> {
  const made = new Map(recorded.map((row) => [row.brand_variant_id, row.creator_variant_id]))
  if (!listing.creator_product_id && !listing.first_write_at) {
    listing = { ...listing, first_write_at: deps.now().toISOString() }
    await recordWrite(deps.db, listing.id, { first_write_at: listing.first_write_at })
  }
  const { variants, images, ...product } = fields
  const answer = await remote(deps, (signal) =>
    deps.commerce.setCreatorProduct(
      listing.creator_store_shop,
      {
        ...product,
        identifier: listing.creator_product_id
          ? { id: listing.creator_product_id }
          : { handle: listing.creator_handle },
        locationId,
        // Sent again only when they changed: each one sent is uploaded to the store again.
        images:
          before && listing.creator_product_id && digest(before.fields.images) === digest(images)
            ? null
            : images,
        variants: variants.map(({ brandVariantId, brandInventoryItemId: _item, ...variant }) => ({
          ...variant,
          id: made.get(brandVariantId) ?? null,
          initialStock: made.has(brandVariantId) ? null : (stock[brandVariantId] ?? 0),
        })),
      },
      { signal },
    ),
  )
  // Where the crash harness kills the process: the product written, nothing recorded.
  await transferTiming(deps.transferTiming).failpoint('listing:after-call')
  const pairs = await pairVariants(deps.db, listing, variants, made, answer)
  const writtenStock = { ...before?.stock }
  for (const variant of variants) {
    if (!made.has(variant.brandVariantId)) {
      writtenStock[variant.brandVariantId] = stock[variant.brandVariantId] ?? 0
    }
  }
  const written = { fields, stock: writtenStock, stockWrites: before?.stockWrites ?? 0 }
  const variantRows = pairs.map(({ creator, brand }) => ({
    creator_variant_id: creator.id,
    listing_id: listing.id,
    brand_variant_id: brand.brandVariantId,
    brand_inventory_item_id: brand.brandInventoryItemId,
    creator_inventory_item_id: creator.inventoryItemId,
  }))
  if (listing.creator_product_id === answer.id && samePairs(variantRows, recorded)) {
    return { written, variants: recorded }
  }
  await deps.db.transaction().execute(async (trx) => {
    await recordVariants(trx, listing, pairs, deps.now().toISOString())
    await recordWrite(trx, listing.id, {
      creator_product_id: answer.id,
      creator_location_id: locationId,
      written: JSON.stringify(written satisfies Written),
    })
  })
  return { written, variants: variantRows }
}

/** Whether two sets of a listing's variants pair the same brand and creator variants. */
const samePairs = (a: ListingVariantRow[], b: ListingVariantRow[]) => {
  const pairs = (rows: ListingVariantRow[]) =>
    rows
      .map((row) =>
        [
          row.brand_variant_id,
          row.brand_inventory_item_id,
          row.creator_variant_id,
          row.creator_inventory_item_id,
        ].join(' '),
      )
      .sort()
  return digest(pairs(a)) === digest(pairs(b))
}

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex')

type ListingChanges = Partial<Omit<ListingRow, 'id'>>

/**
 * What a run wrote, recorded as it goes: `updated_at` is left to what marks the listing pending,
 * so that the run's end can tell whether it was marked again meanwhile.
 */
const recordWrite = (db: Db, listingId: string, changes: ListingChanges) =>
  db.updateTable('catalog_listings').set(changes).where('id', '=', listingId).execute()

/**
 * The run's end: the listing in sync, unless it was marked pending since the run read it (news,
 * an administrator's change): what the run did is recorded, and it stays pending for the run that
 * mark sent.
 */
async function recordFollowed(deps: Deps, listing: ListingRow, changes: ListingChanges) {
  const followed = await deps.db
    .updateTable('catalog_listings')
    .set({
      ...changes,
      sync_state: 'IN_SYNC',
      sync_message: null,
      updated_at: deps.now().toISOString(),
    })
    .where('id', '=', listing.id)
    .where('updated_at', '=', listing.updated_at)
    .executeTakeFirst()
  if (followed.numUpdatedRows === 0n) await recordWrite(deps.db, listing.id, changes)
}

/**
 * Where the creator's stock is kept, read from its Shopify the first time. A creator selling in
 * another currency than the brand's cannot take the brand's prices as they are.
 */
async function stockPlace(deps: Deps, listing: ListingRow, brand: CatalogProduct | null) {
  if (listing.creator_location_id) return { locationId: listing.creator_location_id }
  const place = await remote(deps, () => deps.commerce.stockPlace(listing.creator_store_shop))
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
