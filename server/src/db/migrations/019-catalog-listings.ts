import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Brand products listed on creator stores through Tandem (catalog/listings.ts).
 *
 * catalog_listings: one brand product on one creator store. `status` is the administrator's word
 * (ACTIVE, PAUSED, REMOVED); `sync_state` is how far the creator's store follows it (PENDING,
 * IN_SYNC, FAILED with `sync_message`). The creator product is written under `creator_handle`
 * until Shopify's id is recorded, so that a write whose answer was lost updates the same product
 * rather than making a second; `first_write_at` is when that began, before which a product under
 * the handle is none Tandem made. `written` is what Tandem last wrote there (JSON of the product's
 * fields and each variant's stock), so that news changing nothing writes nothing.
 *
 * listing_variants: each creator variant a listing made, the brand variant it stands for, and the
 * two inventory items, by which a brand's inventory_levels/update finds the listings it changes.
 * The mapping transfers trust stays in variant_links, written in the same transaction.
 *
 * brand_product_readings: each listed brand product as Tandem last read it from the brand's
 * Shopify (JSON; null once Shopify no longer has it), read once per change for every listing of
 * it. A reading replaces the stored one only if it was made later and Shopify's updatedAt did not
 * go back, so that the newest state wins whatever order the news and the reads came in.
 *
 * stores.stock_buffer: units of each brand variant kept back from creator stores (brands only).
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('catalog_listings')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('creator_store_shop', 'text', (c) => c.notNull())
      .addColumn('brand_store_shop', 'text', (c) => c.notNull())
      .addColumn('brand_product_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('price_minor', 'integer')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('creator_handle', 'text', (c) => c.notNull())
      .addColumn('creator_product_id', 'text')
      .addColumn('first_write_at', 'text')
      .addColumn('creator_location_id', 'text')
      .addColumn('sync_state', 'text', (c) => c.notNull())
      .addColumn('sync_message', 'text')
      .addColumn('brand_status', 'text')
      .addColumn('written', 'text')
      .addColumn('synced_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('catalog_listings_product', [
        'creator_store_shop',
        'brand_store_shop',
        'brand_product_id',
      ])
      .execute()
    await trx.schema
      .createIndex('catalog_listings_brand_product')
      .on('catalog_listings')
      .columns(['brand_store_shop', 'brand_product_id'])
      .execute()
    await trx.schema
      .createTable('listing_variants')
      .addColumn('creator_variant_id', 'text', (c) => c.primaryKey())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('brand_variant_id', 'text', (c) => c.notNull())
      .addColumn('brand_inventory_item_id', 'text')
      .addColumn('creator_inventory_item_id', 'text')
      .execute()
    await trx.schema
      .createIndex('listing_variants_brand_item')
      .on('listing_variants')
      .column('brand_inventory_item_id')
      .execute()
    await trx.schema
      .createIndex('listing_variants_listing')
      .on('listing_variants')
      .column('listing_id')
      .execute()
    await trx.schema
      .createTable('brand_product_readings')
      .addColumn('brand_store_shop', 'text', (c) => c.notNull())
      .addColumn('product_id', 'text', (c) => c.notNull())
      .addColumn('read_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text')
      .addColumn('product', 'text')
      .addPrimaryKeyConstraint('brand_product_readings_pk', ['brand_store_shop', 'product_id'])
      .execute()
    await trx.schema
      .alterTable('stores')
      .addColumn('stock_buffer', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  })
