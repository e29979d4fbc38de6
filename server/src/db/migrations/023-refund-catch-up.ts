import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * What the refund catch-up (refunds/refund-catch-up.ts) last looked at, so that its next look
 * starts there, and a look cut short by a crash is taken up where its last page was recorded.
 *
 * refund_catch_up_shops: each creator shop, the moment from which its next look reads the orders
 * Shopify changed (`looked_from`), and when it last looked.
 *
 * refund_catch_up_orders: each transferred order the catch-up read: its Shopify updatedAt when a
 * refund job was last sent for a change of it; the charge's refunded amount as Stripe last said it,
 * and when; and when Stripe showed the charge refunded in full (nothing more can move there).
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('refund_catch_up_shops')
      .addColumn('creator_store_shop', 'text', (c) => c.primaryKey())
      .addColumn('looked_from', 'text', (c) => c.notNull())
      .addColumn('looked_at', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createTable('refund_catch_up_orders')
      .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
      .addColumn('shopify_updated_at', 'text')
      .addColumn('charge_refunded_minor', 'integer')
      .addColumn('charge_read_at', 'text')
      .addColumn('charge_refunded_in_full_at', 'text')
      .execute()
  })
