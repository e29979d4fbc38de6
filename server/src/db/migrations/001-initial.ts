import type { Kysely } from 'kysely'

/**
 * The first schema: stores, their app configs and commissions, the sandbox's commerce and
 * payments tables, and order transfers with each brand's frozen figures and steps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stores')
    .addColumn('shop', 'text', (c) => c.primaryKey())
    .addColumn('shop_type', 'text', (c) => c.notNull())
    .addColumn('product_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('products_synced_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('app_configs')
    .addColumn('shop', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('shop_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('default_commissions')
    .addColumn('brand_store_shop', 'text', (c) =>
      c.primaryKey().references('stores.shop').onDelete('cascade'),
    )
    .addColumn('tandem_rate_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('creator_rate_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('unique_commission_rates')
    .addColumn('brand_store_shop', 'text', (c) =>
      c.notNull().references('stores.shop').onDelete('cascade'),
    )
    .addColumn('creator_store_shop', 'text', (c) =>
      c.notNull().references('stores.shop').onDelete('cascade'),
    )
    .addColumn('rate_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('unique_commission_rates_pk', [
      'brand_store_shop',
      'creator_store_shop',
    ])
    .execute()

  await db.schema
    .createTable('commerce_products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('store_shop', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .execute()
  await db.schema
    .createIndex('commerce_products_store')
    .on('commerce_products')
    .column('store_shop')
    .execute()
  await db.schema
    .createTable('commerce_variants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('store_shop', 'text', (c) => c.notNull())
    .addColumn('price_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('inventory_quantity', 'bigint', (c) => c.notNull())
    .addColumn('source_variant_id', 'text')
    .execute()
  await db.schema
    .createTable('commerce_orders')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('store_shop', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('subtotal_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('shipping_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('shipping_address', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('paid', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('commerce_order_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('variant_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('unit_price_minor', 'bigint', (c) => c.notNull())
    .addColumn('discount_minor', 'bigint', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .execute()
  await db.schema
    .createIndex('commerce_order_lines_order')
    .on('commerce_order_lines')
    .column('order_id')
    .execute()

  await db.schema
    .createTable('payment_accounts')
    .addColumn('store_shop', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('payment_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('destination_account_id', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('order_transfers')
    .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
    .addColumn('creator_store_shop', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('processed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('order_transfer_brands')
    .addColumn('creator_order_id', 'text', (c) =>
      c.notNull().references('order_transfers.creator_order_id').onDelete('cascade'),
    )
    .addColumn('brand_store_shop', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('base_minor', 'bigint', (c) => c.notNull())
    .addColumn('tandem_rate_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('creator_rate_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('creator_commission_minor', 'bigint', (c) => c.notNull())
    .addColumn('tandem_commission_minor', 'bigint', (c) => c.notNull())
    .addColumn('brand_amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('brand_order_id', 'text')
    .addColumn('paid_at', 'text')
    .addColumn('payment_transfer_id', 'text')
    .addColumn('failed_step', 'text')
    .addColumn('failed_message', 'text')
    .addPrimaryKeyConstraint('order_transfer_brands_pk', ['creator_order_id', 'brand_store_shop'])
    .execute()
}
