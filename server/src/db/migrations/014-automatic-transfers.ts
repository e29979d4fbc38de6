import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Automatic transfers (docs/product-rules.md "Automatic transfers"): for every order the policy
 * made automatic, where its processing stands (waiting for its hold, retrying, needing a person,
 * nothing to transfer, done), and the reasons a person must act on, each naming its brand, so
 * that fixing a brand puts back on the queue every order waiting on it.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('order_automation')
      .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
      .addColumn('store_shop', 'text', (c) => c.notNull())
      // Shopify's creation time, which the policy's start is compared with, and when Tandem
      // learned of the payment, which the hold is counted from.
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('paid_at', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      // When its next run is due, while it waits or is retried.
      .addColumn('due_at', 'text')
      .addColumn('message', 'text')
      // Raised whenever the order is put back on the queue: only the newest job's outcome counts.
      .addColumn('generation', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    // The needs-attention filter and the sidebar's count.
    await trx.schema
      .createIndex('order_automation_by_state')
      .on('order_automation')
      .columns(['state', 'creator_order_id'])
      .execute()
    await trx.schema
      .createTable('order_attention')
      .addColumn('creator_order_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('brand_store_shop', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('sentence', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('order_attention_pk', ['creator_order_id', 'position'])
      .execute()
    // A brand fixed: the orders waiting on it.
    await trx.schema
      .createIndex('order_attention_by_brand')
      .on('order_attention')
      .columns(['brand_store_shop', 'creator_order_id'])
      .execute()
  })
