import type { RouteDeps } from '../deps'
import type { JobContext, RegisterOptions } from '../jobs/job-queue'
import { readBrandProduct } from './brand-readings'
import {
  BRAND_PRODUCT_JOB,
  BRAND_PRODUCT_RETRIES,
  LISTING_SYNC_JOB,
  LISTING_SYNC_RETRIES,
  type BrandProductJob,
  type ListingSyncJob,
} from './catalog-jobs'
import { syncListings } from './listing-sync'

// The catalog's two jobs, registered through the caller's `register`: the server's adds its
// logging and its retry settings (services/background-work.ts), `bench:catalog`'s none.

export type RegisterJob = <Payload extends object>(
  name: string,
  handler: (payload: Payload, job: JobContext, settings: RegisterOptions) => Promise<void>,
  settings: RegisterOptions,
) => Promise<void>

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'commerce' | 'now' | 'transferTiming'>

export async function registerCatalogJobs(register: RegisterJob, deps: Deps): Promise<void> {
  await register<BrandProductJob>(
    BRAND_PRODUCT_JOB,
    (payload, job, settings) => readBrandProduct(deps, payload, job, settings),
    BRAND_PRODUCT_RETRIES,
  )
  await register<ListingSyncJob>(
    LISTING_SYNC_JOB,
    (payload, job, settings) => syncListings(deps, payload, job, settings),
    LISTING_SYNC_RETRIES,
  )
}
