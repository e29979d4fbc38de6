import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Which brand variant each creator variant stands for (Tandem's record, never the creator's
 * store's), and the price exceptions administrators accepted for single orders.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('variant_links')
      .addColumn('creator_variant_id', 'text', (c) => c.primaryKey())
      // No foreign keys: a link outlives its store, so that an order of a brand the marketplace
      // dropped is refused ("Store not found") rather than taken for the creator's own product.
      .addColumn('creator_store_shop', 'text', (c) => c.notNull())
      .addColumn('brand_store_shop', 'text', (c) => c.notNull())
      .addColumn('brand_variant_id', 'text', (c) => c.notNull())
      .addColumn('linked_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createTable('price_exceptions')
      .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
      .addColumn('accepted_lines', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('accepted_by', 'text')
      .addColumn('accepted_at', 'text', (c) => c.notNull())
      .execute()
  })
