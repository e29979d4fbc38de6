import { sql, type Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Stripe for real: Stripe holds the accounts, transfers and idempotency keys, so the sandbox's
 * tables go. What stays is Tandem's own fact, which account each brand store is paid to; the
 * sandbox's accounts carry over as such.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('store_payment_accounts')
      .addColumn('store_shop', 'text', (c) =>
        c.primaryKey().references('stores.shop').onDelete('cascade'),
      )
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await sql`
      INSERT INTO store_payment_accounts (store_shop, account_id, updated_at)
      SELECT store_shop, account_id, ${new Date().toISOString()} FROM payment_accounts
      WHERE store_shop IN (SELECT shop FROM stores)
    `.execute(trx)
    for (const table of [
      'payment_accounts',
      'payment_transfers',
      'payment_idempotency_keys',
      'sandbox_faults',
    ]) {
      await trx.schema.dropTable(table).execute()
    }
  })
