import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Shopify for real: each shop's connection (its access token, sealed, and how it was granted),
 * the products a sync stored per shop and the sync's progress, the webhooks received (to ignore
 * repeats), the install's single-use states, and the index of creator orders. The sandbox commerce tables go: the Shopify emulator holds
 * that state now, as Shopify does for real stores.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('shop_connections')
      .addColumn('shop', 'text', (c) => c.primaryKey())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('access_token_sealed', 'text')
      .addColumn('access_token_expires_at', 'text')
      .addColumn('refresh_token_sealed', 'text')
      .addColumn('refresh_token_expires_at', 'text')
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createTable('store_products')
      .addColumn('store_shop', 'text', (c) =>
        c.notNull().references('stores.shop').onDelete('cascade'),
      )
      .addColumn('product_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('variant_count', 'bigint', (c) => c.notNull())
      .addColumn('min_price_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('seen_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('store_products_pk', ['store_shop', 'product_id'])
      .execute()
    await trx.schema
      .createTable('product_syncs')
      .addColumn('store_shop', 'text', (c) =>
        c.primaryKey().references('stores.shop').onDelete('cascade'),
      )
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('fetched', 'bigint', (c) => c.notNull())
      .addColumn('total', 'bigint')
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('synced_at', 'text')
      .addColumn('message', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('run_id', 'text')
      .execute()
    await trx.schema
      .createTable('webhook_deliveries')
      .addColumn('webhook_id', 'text', (c) => c.primaryKey())
      .addColumn('shop', 'text', (c) => c.notNull())
      .addColumn('topic', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createTable('oauth_states')
      .addColumn('state', 'text', (c) => c.primaryKey())
      .addColumn('shop', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createTable('creator_order_index')
      .addColumn('order_id', 'bigint', (c) => c.primaryKey())
      .addColumn('store_shop', 'text', (c) => c.notNull())
      .execute()
    for (const table of [
      'commerce_order_lines',
      'commerce_orders',
      'commerce_variants',
      'commerce_products',
    ]) {
      await trx.schema.dropTable(table).execute()
    }
  })
