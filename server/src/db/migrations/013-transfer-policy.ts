import { sql, type Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * The marketplace's transfer policy: one row, written here so that it always exists. It starts
 * AUTOMATIC with a 10-minute hold, automatic since this migration ran: a marketplace upgraded
 * while live keeps the orders already paid for an administrator to process, as they were, and
 * only orders paid from now on transfer by themselves (docs/product-rules.md "The transfer
 * policy").
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('transfer_policy')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('hold_minutes', 'integer', (c) => c.notNull())
      .addColumn('automatic_since', 'text')
      .execute()
    const ranAt = new Date().toISOString()
    await sql`
      insert into transfer_policy (id, mode, hold_minutes, automatic_since)
      values ('marketplace', 'AUTOMATIC', 10, ${ranAt})
    `.execute(trx)
  })
