import { sql, type Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * The webhook inbox: each delivery keeps its signed body until its job has acted on it (done_at),
 * and each stored product the updatedAt of its version, so that a late products/update of an
 * older version changes nothing. The deliveries taken before were acted on as they arrived.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema.alterTable('webhook_deliveries').addColumn('body', 'text').execute()
    await trx.schema.alterTable('webhook_deliveries').addColumn('done_at', 'text').execute()
    await sql`update webhook_deliveries set done_at = received_at`.execute(trx)
    // What retention removes: the deliveries done before the keep period.
    await trx.schema
      .createIndex('webhook_deliveries_done')
      .on('webhook_deliveries')
      .column('done_at')
      .execute()
    await trx.schema.alterTable('store_products').addColumn('shopify_updated_at', 'text').execute()
  })
