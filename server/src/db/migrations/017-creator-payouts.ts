import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Creators' commissions (docs/integrations.md "After the sale"): one row per completed creator
 * order whose creator earned a commission, owed until a Stripe transfer to the creator's payout
 * account pays it. Its transfer is one more exactly-once step: its intent (the account and the
 * amount, in the currency the charge settled in) recorded before the call, its result after, under
 * a lease of its own.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('creator_payouts')
      .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
      .addColumn('creator_store_shop', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('amount_minor', 'integer', (c) => c.notNull())
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addColumn('settlement_currency', 'text')
      .addColumn('amount_settlement_minor', 'integer')
      .addColumn('transfer_destination', 'text')
      .addColumn('pending_since', 'text')
      .addColumn('transfer_key_attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('transfer_declined_at', 'text')
      .addColumn('payment_transfer_id', 'text')
      .addColumn('paid_at', 'text')
      .addColumn('waiting_reason', 'text')
      .addColumn('claimed_by', 'text')
      .addColumn('lease_expires_at', 'text')
      .execute()
    await trx.schema
      .createIndex('creator_payouts_of_store')
      .on('creator_payouts')
      .columns(['creator_store_shop', 'paid_at'])
      .execute()
  })
