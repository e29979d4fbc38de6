import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Holds (docs/product-rules.md "Automatic transfers"): an administrator holds one order, or
 * pauses a brand, with a reason; automatic processing leaves them alone until released. An
 * automatic order stopped by a paused brand names it, so that resuming the brand puts it back on
 * the queue.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('order_holds')
      .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('held_by', 'text')
      .addColumn('held_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createTable('brand_pauses')
      .addColumn('brand_store_shop', 'text', (c) => c.primaryKey())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('paused_by', 'text')
      .addColumn('paused_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema.alterTable('order_automation').addColumn('paused_brand', 'text').execute()
  })
