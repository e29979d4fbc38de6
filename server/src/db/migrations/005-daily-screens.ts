import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * The daily screens: the creator-order index carries what the orders inbox lists (newest first,
 * paged by created_at and id), products are listed by title, a transfer names who processed it,
 * and the audit log.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    for (const [column, type] of [
      ['name', 'text'],
      ['created_at', 'text'],
      ['currency', 'text'],
      ['total_minor', 'bigint'],
    ] as const) {
      await trx.schema.alterTable('creator_order_index').addColumn(column, type).execute()
    }
    await trx.schema
      .createIndex('creator_order_index_newest')
      .on('creator_order_index')
      .columns(['created_at', 'order_id'])
      .execute()
    await trx.schema
      .createIndex('creator_order_index_shop_newest')
      .on('creator_order_index')
      .columns(['store_shop', 'created_at', 'order_id'])
      .execute()
    await trx.schema
      .createIndex('store_products_by_title')
      .on('store_products')
      .columns(['store_shop', 'title', 'product_id'])
      .execute()
    await trx.schema.alterTable('order_transfers').addColumn('processed_by', 'text').execute()
    await trx.schema
      .createIndex('order_transfers_newest')
      .on('order_transfers')
      .columns(['created_at', 'creator_order_id'])
      .execute()
    await trx.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_email', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .execute()
    await trx.schema.createIndex('audit_log_newest').on('audit_log').columns(['at', 'id']).execute()
  })
