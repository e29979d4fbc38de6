import { ProductRefused, type CatalogProduct } from '../adapters/commerce/catalog-port'
import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import type { JobContext, RegisterOptions } from '../jobs/job-queue'
import { withDeadline } from '../lib/remote-call'
import { sendListingSyncs, type BrandProductJob } from './catalog-jobs'
import { listingsOfBrandProduct } from './listings-repository'
import { refusalInWords } from './product-refusals'

// A listed brand product read from the brand's Shopify once per change, whatever the number of
// creator stores listing it (the brand's cost budget pays for one reading, not one per listing),
// and kept (brand_product_readings) for every listing's sync job to take. The `brand-product` job
// is what the brand's news sends (catalog/brand-news.ts) and what listing a product sends: it
// reads, keeps the reading if it is the newest, and sends the sync job of each listing of it.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'commerce' | 'now'>

/** The product as last read; `product` null once Shopify no longer has it. */
export interface BrandReading {
  readAt: string
  product: CatalogProduct | null
}

const CALL_DEADLINE_MS = 20_000
/** How old a reading a new listing takes rather than reading the product again. */
const RECENT_FOR_LISTING_MS = 5 * 60_000

/**
 * The job: the product read now and kept, unless it is a new listing's and a recent reading is
 * kept already. When the reading changed, every listing of it follows; else only those waiting
 * for it (the listings the job names, or, for news, those it marked pending): a product listed on
 * one more store costs no other store a run, however many are being listed at once. A product
 * Shopify would not give as it is (more variants than a listing copies) fails its listings with
 * the reason, as a last failed run does.
 */
export async function readBrandProduct(
  deps: Deps,
  job: BrandProductJob,
  context: JobContext,
  settings: RegisterOptions,
): Promise<void> {
  const listings = await listingsOfBrandProduct(deps.db, job.brandStoreShop, job.productId)
  if (listings.length === 0) return
  const before = await keptReading(deps.db, job.brandStoreShop, job.productId)
  // For a new listing, a recent reading tells what the brand's Shopify has (its news keeps the
  // reading current): listing a product on a thousand stores reads it once. News is read anew:
  // news folded into this job may have come after any reading kept.
  const current = job.newsAt === null && before !== undefined && isRecent(deps, before)
  let after: BrandReading
  try {
    after = current ? before : await readAndKeep(deps, job.brandStoreShop, job.productId)
  } catch (error) {
    const refused = error instanceof ProductRefused
    if (refused || context.attempt > settings.retryLimit) {
      await deps.db
        .updateTable('catalog_listings')
        .set({
          sync_state: 'FAILED',
          sync_message: refused ? refusalInWords(error) : String(error),
          updated_at: deps.now().toISOString(),
        })
        .where(
          'id',
          'in',
          listings.map((listing) => listing.id),
        )
        .execute()
    }
    if (refused) return
    throw error
  }
  const changed = JSON.stringify(before?.product) !== JSON.stringify(after.product)
  const waiting = (listing: (typeof listings)[number]) =>
    job.listingIds ? job.listingIds.includes(listing.id) : listing.syncState === 'PENDING'
  const following = listings.filter((listing) => changed || waiting(listing))
  await deps.db.transaction().execute((trx) =>
    sendListingSyncs(
      deps,
      trx,
      following.map((listing) => listing.id),
    ),
  )
}

/** Whether a new listing takes this reading rather than read the product again. */
export const isRecent = (deps: Pick<Deps, 'now'>, reading: BrandReading) =>
  reading.readAt > new Date(deps.now().getTime() - RECENT_FOR_LISTING_MS).toISOString()

/** Reads the product from the brand's Shopify and keeps the reading unless a newer one is kept. */
export async function readAndKeep(
  deps: Pick<Deps, 'db' | 'commerce' | 'now'>,
  shop: string,
  productId: string,
): Promise<BrandReading> {
  const readAt = deps.now().toISOString()
  const product = await withDeadline(CALL_DEADLINE_MS, () =>
    deps.commerce.readCatalogProduct(shop, productId),
  )
  await deps.db
    .insertInto('brand_product_readings')
    .values({
      brand_store_shop: shop,
      product_id: productId,
      read_at: readAt,
      updated_at: product?.updatedAt ?? null,
      product: product ? JSON.stringify(product) : null,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['brand_store_shop', 'product_id'])
        .doUpdateSet((eb) => ({
          read_at: eb.ref('excluded.read_at'),
          updated_at: eb.ref('excluded.updated_at'),
          product: eb.ref('excluded.product'),
        }))
        // A later reading whose Shopify state is not older (replicas may lag behind the news).
        .where((eb) =>
          eb.and([
            eb('brand_product_readings.read_at', '<', eb.ref('excluded.read_at')),
            eb.or([
              eb('excluded.updated_at', 'is', null),
              eb('brand_product_readings.updated_at', 'is', null),
              eb('brand_product_readings.updated_at', '<=', eb.ref('excluded.updated_at')),
            ]),
          ]),
        ),
    )
    .execute()
  return (await keptReading(deps.db, shop, productId))!
}

/** The reading kept of the product; undefined when none was made. */
export async function keptReading(
  db: Db,
  shop: string,
  productId: string,
): Promise<BrandReading | undefined> {
  const row = await db
    .selectFrom('brand_product_readings')
    .select(['read_at', 'product'])
    .where('brand_store_shop', '=', shop)
    .where('product_id', '=', productId)
    .executeTakeFirst()
  if (!row) return undefined
  return { readAt: row.read_at, product: row.product ? JSON.parse(row.product) : null }
}
