import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import type { JobExecutor, RegisterOptions } from '../jobs/job-queue'

// The catalog's two jobs, as their senders need them: `brand-product` reads a listed brand product
// once and sends its listings to follow (brand-readings.ts); `listing-sync` makes a batch of
// creator products follow theirs (listing-sync.ts). A brand's news of one product reaches a
// thousand stores in one reading and a thousand / LISTINGS_PER_JOB sync jobs, not one job per
// listing.

export const BRAND_PRODUCT_JOB = 'brand-product'
export const LISTING_SYNC_JOB = 'listing-sync'

/**
 * Retried 6 times, from 10 s. News of a product folds into its job not started yet (a singleton
 * key per product that binds waiting jobs only): a brand's price and stock news, or the news of
 * each of its variants, is read once, and news during a run causes one more. One at a time: a
 * run is one brand read and the sends of its batches, and news waiting its turn folds the more.
 */
export const BRAND_PRODUCT_RETRIES: RegisterOptions = {
  retryLimit: 6,
  retryDelaySeconds: 10,
  concurrency: 1,
  singletonKeys: 'waiting',
}
/** Retried 6 times, from 10 s; each job writes STORES_AT_ONCE stores at once. */
export const LISTING_SYNC_RETRIES: RegisterOptions = {
  retryLimit: 6,
  retryDelaySeconds: 10,
  concurrency: 4,
}

/** Listings one sync job makes follow: few jobs, and a retry that repeats little. */
export const LISTINGS_PER_JOB = 50
/**
 * Creator stores one sync job writes at once, each store's listings one after another on its own
 * cost budget: with LISTING_SYNC_RETRIES' concurrency, the stores one process holds at once
 * (a hundred requests in flight, their rows a few kilobytes each).
 */
export const STORES_AT_ONCE = 25

export interface BrandProductJob {
  brandStoreShop: string
  productId: string
  /**
   * When the brand's news came, or the moment a listing was listed again: such a job reads the
   * product anew, since news folded into it may have come after any reading kept. Null for a new
   * listing, which takes a recent reading.
   */
  newsAt: string | null
  /**
   * The listings an administrator just made or listed again: they follow the reading whether it
   * changed or not, and their job is theirs alone. Null for news, which marked every listing of
   * the product pending and folds into the product's waiting job.
   */
  listingIds: string[] | null
}

/**
 * `recheck`: the creator's store is read even for a brand reading its listing followed already
 * (a creator's news, an administrator's change). A job sent before sync jobs were batches names
 * one listing (`listingId`), and rechecks.
 */
export type ListingSyncJob = { listingIds: string[]; recheck?: boolean } | { listingId: string }

/**
 * How long news of a product waits before it is read: a brand's change comes as several webhooks
 * (products/update, then inventory_levels/update of each variant), a second or so apart, and
 * those that come meanwhile fold into its job rather than send every listing twice.
 */
export const NEWS_SETTLES_MS = 1_000

export const sendBrandProductJob = (
  deps: Pick<RouteDeps, 'jobs' | 'now'>,
  within: JobExecutor,
  job: BrandProductJob,
) =>
  deps.jobs.send(BRAND_PRODUCT_JOB, job satisfies BrandProductJob, {
    within,
    singletonKey: [job.brandStoreShop, job.productId, ...(job.listingIds ?? ['news'])].join(' '),
    ...(job.listingIds ? {} : { startAfter: new Date(deps.now().getTime() + NEWS_SETTLES_MS) }),
  })

/**
 * Within the caller's transaction: the listings marked pending, and their sync jobs sent, in
 * batches of LISTINGS_PER_JOB in the order given (a store's listings given together share a job).
 * Answers the jobs sent.
 */
export async function sendListingSyncs(
  deps: Pick<RouteDeps, 'jobs' | 'now'>,
  trx: Db,
  listingIds: string[],
  { recheck = false } = {},
): Promise<number> {
  let sent = 0
  for (let from = 0; from < listingIds.length; from += LISTINGS_PER_JOB) {
    const batch = listingIds.slice(from, from + LISTINGS_PER_JOB)
    await trx
      .updateTable('catalog_listings')
      .set({ sync_state: 'PENDING', sync_message: null, updated_at: deps.now().toISOString() })
      .where('id', 'in', batch)
      .execute()
    const job: ListingSyncJob = recheck ? { listingIds: batch, recheck } : { listingIds: batch }
    await deps.jobs.send(LISTING_SYNC_JOB, job, {
      within: trx,
    })
    sent += 1
  }
  return sent
}
