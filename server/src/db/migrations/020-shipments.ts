import { sql, type Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * What the brands shipped of the orders Tandem made them, and how far the creators' orders follow
 * (shipping/).
 *
 * shipments: each brand order as Tandem last read it from the brand's Shopify (`reading`, JSON of
 * its fulfillment orders, holds, fulfillments and cancellation), with what the Shipping screen
 * filters and sorts by drawn from it: the fulfillment orders' status and when every unit had
 * shipped (`shipped_at`), or the order was cancelled.
 *
 * fulfillment_mirrors: each brand fulfillment, and the creator fulfillment made for it. Its
 * intent (`lines`: the creator's fulfillment-order lines and units, `sent_tracking`, and
 * `pending_since`) is recorded before fulfillmentCreate, its result (`creator_fulfillment_id`)
 * after: a run finding the intent without the result looks for the fulfillment it may have made
 * before making one. `lines` stays, so that the units Tandem shipped of each creator line are
 * known. `mirrored_tracking` is the tracking last written to the creator's fulfillment.
 *
 * shipping_policy: the marketplace's one row, the days within which a brand order should ship.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('shipments')
      .addColumn('brand_order_id', 'text', (c) => c.primaryKey())
      .addColumn('brand_store_shop', 'text', (c) => c.notNull())
      .addColumn('creator_order_id', 'text', (c) => c.notNull())
      .addColumn('reading', 'text', (c) => c.notNull())
      .addColumn('read_at', 'text', (c) => c.notNull())
      .addColumn('fulfillment_order_status', 'text')
      .addColumn('shipped_at', 'text')
      .execute()
    await trx.schema
      .createTable('fulfillment_mirrors')
      .addColumn('brand_fulfillment_id', 'text', (c) => c.primaryKey())
      .addColumn('brand_order_id', 'text', (c) => c.notNull())
      .addColumn('creator_order_id', 'text', (c) => c.notNull())
      .addColumn('creator_store_shop', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('pending_since', 'text')
      .addColumn('lines', 'text')
      .addColumn('sent_tracking', 'text')
      .addColumn('creator_fulfillment_id', 'text')
      .addColumn('mirrored_tracking', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createIndex('fulfillment_mirrors_brand_order')
      .on('fulfillment_mirrors')
      .column('brand_order_id')
      .execute()
    // Brand news names the brand order: which transfer made it is found by its id, which Shopify
    // gives one order only.
    await trx.schema
      .createIndex('order_transfer_brands_brand_order')
      .unique()
      .on('order_transfer_brands')
      .column('brand_order_id')
      .execute()
    // The Shipping list and its catch-up read transfers newest first.
    await trx.schema
      .createIndex('order_transfers_created')
      .on('order_transfers')
      .column('created_at')
      .execute()
    await trx.schema
      .createTable('shipping_policy')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('late_after_days', 'integer', (c) => c.notNull())
      .execute()
    await sql`insert into shipping_policy (id, late_after_days) values ('marketplace', 3)`.execute(
      trx,
    )
  })
