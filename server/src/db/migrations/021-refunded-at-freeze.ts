import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * What Stripe showed refunded of the order's charge when its transfer froze, in minor units of the
 * charge's currency: a refund made in Shopify after the freeze moves money only up to what the
 * charge was refunded since (docs/integrations.md "After the sale"). Null for a transfer frozen
 * before this column, or one frozen with no payment read (nobody was owed money).
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .alterTable('order_transfers')
      .addColumn('refunded_at_freeze_minor', 'integer')
      .execute()
  })
