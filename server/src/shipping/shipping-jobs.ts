import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import type { JobExecutor, RegisterOptions } from '../jobs/job-queue'

// The shipping job, as its senders need it: `brand-shipment` reads one brand order Tandem made
// from the brand's Shopify and makes the creator's order follow what it shipped
// (brand-shipment.ts). Sent by the brand's news (fulfillments, holds, a cancellation) and by the
// catch-up (shipping-catch-up.ts).

export const BRAND_SHIPMENT_JOB = 'brand-shipment'

/** Retried 6 times, from 10 s; several orders at once, since each waits on Shopify. */
export const BRAND_SHIPMENT_RETRIES: RegisterOptions = {
  retryLimit: 6,
  retryDelaySeconds: 10,
  concurrency: 4,
}

export interface BrandShipmentJob {
  brandStoreShop: string
  /** The brand order's GID, as the transfer recorded it. */
  brandOrderId: string
}

export const sendShipmentJob = (
  deps: Pick<RouteDeps, 'jobs'>,
  within: JobExecutor,
  job: BrandShipmentJob,
) => deps.jobs.send(BRAND_SHIPMENT_JOB, job satisfies BrandShipmentJob, { within })

/**
 * The brand orders Tandem made (b), the transfers that made them (t), and their last reading (s,
 * absent before the first): what the Shipping list and the catch-up each select from.
 */
export const brandOrdersMade = (db: Db) =>
  db
    .selectFrom('order_transfer_brands as b')
    .innerJoin('order_transfers as t', 't.creator_order_id', 'b.creator_order_id')
    .leftJoin('shipments as s', 's.brand_order_id', 'b.brand_order_id')
    .where('b.brand_order_id', 'is not', null)

/** The transfer's record of a brand order Tandem made in `shop`, or undefined for any other. */
export const findBrandOrderMade = (db: Db, shop: string, brandOrderId: string) =>
  db
    .selectFrom('order_transfer_brands')
    .innerJoin(
      'order_transfers',
      'order_transfers.creator_order_id',
      'order_transfer_brands.creator_order_id',
    )
    .select([
      'order_transfer_brands.creator_order_id as creatorOrderId',
      'order_transfers.creator_store_shop as creatorStoreShop',
      'order_transfer_brands.brand_store_shop as brandStoreShop',
      'order_transfer_brands.brand_order_id as brandOrderId',
      'order_transfer_brands.lines',
    ])
    .where('order_transfer_brands.brand_store_shop', '=', shop)
    .where('order_transfer_brands.brand_order_id', '=', brandOrderId)
    .executeTakeFirst()

/**
 * A brand's news about one of its orders (a fulfillment made or changed, a hold, a cancellation):
 * its shipping is read again, if Tandem made that order in that shop. Which order is named by
 * what Tandem recorded for the shop that signed the news, so that a brand's news reaches only its
 * own orders; what changed is read from Shopify, never taken from the body.
 */
export async function followBrandOrder(
  deps: Pick<RouteDeps, 'db' | 'jobs'>,
  shop: string,
  brandOrderId: string,
): Promise<void> {
  if (!(await findBrandOrderMade(deps.db, shop, brandOrderId))) return
  await sendShipmentJob(deps, deps.db, { brandStoreShop: shop, brandOrderId })
}
