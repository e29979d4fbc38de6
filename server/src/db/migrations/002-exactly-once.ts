import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Exactly-once processing: a lease on each transfer, the step each brand has under way (its
 * intent, so a crash between a remote call and its record is reconciled, not repeated), and a
 * sandbox as strict as Shopify and Stripe: idempotency keys kept apart from the transfers they
 * name (so that they can be forgotten after 24 hours), transfer groups, and scripted faults.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await inOneTransaction(db, async (trx) => {
    await trx.schema.alterTable('order_transfers').addColumn('lease_expires_at', 'text').execute()
    await trx.schema.alterTable('order_transfer_brands').addColumn('pending_step', 'text').execute()
    await trx.schema
      .alterTable('order_transfer_brands')
      .addColumn('pending_since', 'text')
      .execute()
    await trx.schema
      .alterTable('order_transfer_brands')
      .addColumn('transfer_destination', 'text')
      .execute()

    // SQLite cannot drop the unique constraint on idempotency_key: the table is rebuilt. Keys of
    // earlier sandbox transfers are not carried over (Stripe forgets them after a day anyway).
    await trx.schema
      .createTable('payment_transfers_next')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('destination_account_id', 'text', (c) => c.notNull())
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('transfer_group', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await trx
      .insertInto('payment_transfers_next' as never)
      .columns(['id', 'destination_account_id', 'amount_minor', 'currency', 'created_at'] as never)
      .expression(
        trx
          .selectFrom('payment_transfers' as never)
          .select([
            'id',
            'destination_account_id',
            'amount_minor',
            'currency',
            'created_at',
          ] as never),
      )
      .execute()
    await trx.schema.dropTable('payment_transfers').execute()
    await trx.schema.alterTable('payment_transfers_next').renameTo('payment_transfers').execute()
    await trx.schema
      .createIndex('payment_transfers_group')
      .on('payment_transfers')
      .columns(['transfer_group', 'destination_account_id'])
      .execute()
    await trx.schema
      .createTable('payment_idempotency_keys')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('transfer_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()

    await trx.schema
      .createTable('sandbox_faults')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('delay_ms', 'bigint', (c) => c.notNull())
      .addColumn('remaining', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
  })
}
