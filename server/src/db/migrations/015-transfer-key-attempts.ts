import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Which attempt's idempotency key a brand's transfer is sent under: 0, the key transfers in flight
 * were already sent under, until Stripe declined the transfer under it (recorded when it did) and
 * reconciliation then found no transfer (docs/integrations.md "Exactly-once transfers").
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .alterTable('order_transfer_brands')
      .addColumn('transfer_key_attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await trx.schema
      .alterTable('order_transfer_brands')
      .addColumn('transfer_declined_at', 'text')
      .execute()
  })
