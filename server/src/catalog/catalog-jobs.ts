import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import type { JobExecutor, RegisterOptions } from '../jobs/job-queue'

// The catalog's two jobs, as their senders need them: `brand-product` reads a listed brand product
// once and sends every listing of it to follow (brand-readings.ts); `listing-sync` makes one
// creator's product follow it (listing-sync.ts).

export const BRAND_PRODUCT_JOB = 'brand-product'
export const LISTING_SYNC_JOB = 'listing-sync'

/** Both retried 6 times, from 10 s; several listings at once, since each waits on Shopify. */
export const BRAND_PRODUCT_RETRIES: RegisterOptions = {
  retryLimit: 6,
  retryDelaySeconds: 10,
  concurrency: 4,
}
export const LISTING_SYNC_RETRIES: RegisterOptions = {
  retryLimit: 6,
  retryDelaySeconds: 10,
  concurrency: 8,
}

export interface BrandProductJob {
  brandStoreShop: string
  productId: string
  /**
   * When the brand's news came; null for a new listing. A reading begun after it tells what the
   * news told: news of many variants at once is read once.
   */
  newsAt: string | null
  /**
   * The listings an administrator just made or listed again: they follow the reading whether it
   * changed or not. Null for news, which marked every listing of the product pending.
   */
  listingIds: string[] | null
}

export interface ListingSyncJob {
  listingId: string
}

export const sendBrandProductJob = (
  deps: Pick<RouteDeps, 'jobs'>,
  within: JobExecutor,
  job: BrandProductJob,
) => deps.jobs.send(BRAND_PRODUCT_JOB, job satisfies BrandProductJob, { within })

/** Within the caller's transaction: the listing marked pending, and its job sent. */
export async function sendListingSync(
  deps: Pick<RouteDeps, 'jobs' | 'now'>,
  trx: Db,
  listingId: string,
): Promise<void> {
  await trx
    .updateTable('catalog_listings')
    .set({ sync_state: 'PENDING', sync_message: null, updated_at: deps.now().toISOString() })
    .where('id', '=', listingId)
    .execute()
  await deps.jobs.send(LISTING_SYNC_JOB, { listingId } satisfies ListingSyncJob, { within: trx })
}
