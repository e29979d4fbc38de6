import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * What the order's refunds had given back (Shopify's Order.totalRefundedSet) in the order read its
 * transfer's frozen figures came from, in minor units of the order's currency: a refund made in
 * Shopify after the freeze moves money only up to what Stripe shows refunded of the charge beyond
 * it (docs/integrations.md "After the sale"). Null for a transfer frozen before this column.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .alterTable('order_transfers')
      .addColumn('refunded_at_freeze_minor', 'integer')
      .execute()
  })
