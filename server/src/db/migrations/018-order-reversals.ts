import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * What went back after a creator order's refund or cancellation (transfers/order-refunds.ts): one
 * row per Stripe transfer reversal, each of one party's transfer (a brand's, or the creator's
 * commission). Its intent (the amount, under its idempotency key) is recorded before the call and
 * its result after: the reversal's id, or that Stripe refused it for the account's balance, which
 * leaves the amount owed by the party. A store's debt is then taken back from its next transfers
 * (transfers/store-debt.ts) by reversals of them, rows of party DEBT, which a refusal leaves
 * declined. `seq` numbers a store's reversals of an order's transfers from 0: a run that saw fewer
 * rows than there are cannot add one, so two runs never reverse the same money twice.
 *
 * order_refund_notices: the creator orders a refunds/create or orders/cancelled named, so that an
 * order whose transfer completes after its refund came is settled then.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('order_reversals')
      .addColumn('creator_order_id', 'text', (c) => c.notNull())
      .addColumn('store_shop', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('party', 'text', (c) => c.notNull())
      .addColumn('transfer_id', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('amount_minor', 'integer', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('pending_since', 'text', (c) => c.notNull())
      .addColumn('reversal_id', 'text')
      .addColumn('reversed_at', 'text')
      .addColumn('owed_since', 'text')
      .addColumn('declined_at', 'text')
      .addColumn('failed_message', 'text')
      .addPrimaryKeyConstraint('order_reversals_pk', ['creator_order_id', 'store_shop', 'seq'])
      .execute()
    await trx.schema
      .createTable('order_refund_notices')
      .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
      .addColumn('store_shop', 'text', (c) => c.notNull())
      .addColumn('noticed_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createIndex('order_reversals_owed')
      .on('order_reversals')
      .columns(['store_shop', 'owed_since'])
      .execute()
  })
