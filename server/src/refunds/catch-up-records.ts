import type { Db } from '../db/connect'

// What the refund catch-up (refund-catch-up.ts) last looked at: for each creator shop, where its
// next look at the orders Shopify changed starts; for each transferred order, the change a refund
// job was last sent for, and what Stripe last said the charge had refunded.

/**
 * The creator shops Tandem can reach (an app config) with an order transferred at `since` or
 * later, each with the moment its next look starts from: where the last one stopped, and never
 * before its first such transfer less `margin` (Shopify's clock, and its search index, may be that
 * far behind Tandem's).
 */
export async function shopsToLookAt(
  db: Db,
  since: string,
  margin: number,
): Promise<{ shop: string; from: string }[]> {
  const rows = await db
    .selectFrom('order_transfers as t')
    .innerJoin('app_configs as a', 'a.shop', 't.creator_store_shop')
    .leftJoin('refund_catch_up_shops as s', 's.creator_store_shop', 't.creator_store_shop')
    .select(['t.creator_store_shop as shop', 's.looked_from'])
    .select((eb) => eb.fn.min('t.created_at').as('first_transfer'))
    .where('t.created_at', '>=', since)
    .groupBy(['t.creator_store_shop', 's.looked_from'])
    .orderBy('t.creator_store_shop')
    .execute()
  return rows.map((row) => {
    const earliest = new Date(Date.parse(row.first_transfer) - margin).toISOString()
    const from = row.looked_from && row.looked_from > earliest ? row.looked_from : earliest
    return { shop: row.shop, from }
  })
}

/** Where the shop's next look starts. */
export const recordLook = (db: Db, shop: string, lookedFrom: string, at: string) =>
  db
    .insertInto('refund_catch_up_shops')
    .values({ creator_store_shop: shop, looked_from: lookedFrom, looked_at: at })
    .onConflict((oc) =>
      oc.column('creator_store_shop').doUpdateSet({ looked_from: lookedFrom, looked_at: at }),
    )
    .execute()

/**
 * Of these orders of the shop, those transferred at `since` or later, each with the Shopify
 * change a refund job was last sent for.
 */
export async function transferredAmong(db: Db, shop: string, ids: string[], since: string) {
  if (ids.length === 0) return new Map<string, string | null>()
  const rows = await db
    .selectFrom('order_transfers as t')
    .leftJoin('refund_catch_up_orders as c', 'c.creator_order_id', 't.creator_order_id')
    .select(['t.creator_order_id', 'c.shopify_updated_at'])
    .where('t.creator_store_shop', '=', shop)
    .where('t.creator_order_id', 'in', ids)
    .where('t.created_at', '>=', since)
    .execute()
  return new Map(rows.map((row) => [row.creator_order_id, row.shopify_updated_at]))
}

/** The Shopify change of the order a refund job was sent for. */
export const recordShopifyChange = (db: Db, creatorOrderId: string, updatedAt: string) =>
  db
    .insertInto('refund_catch_up_orders')
    .values({ creator_order_id: creatorOrderId, shopify_updated_at: updatedAt })
    .onConflict((oc) =>
      oc.column('creator_order_id').doUpdateSet({ shopify_updated_at: updatedAt }),
    )
    .execute()

/**
 * The orders transferred at `since` or later that Shopify shows refunded or cancelled (a notice
 * from a webhook or the catch-up) and whose charge Stripe has not shown refunded in full, each
 * with what it last showed refunded: those last read before `readBefore` (or never), the longest
 * unread first, at most `limit`.
 */
export const chargesToRead = (db: Db, since: string, readBefore: string, limit: number) =>
  db
    .selectFrom('order_transfers as t')
    .innerJoin('order_refund_notices as n', 'n.creator_order_id', 't.creator_order_id')
    .leftJoin('refund_catch_up_orders as c', 'c.creator_order_id', 't.creator_order_id')
    .select(['t.creator_order_id', 'c.charge_refunded_minor'])
    .where('t.created_at', '>=', since)
    .where('c.charge_refunded_in_full_at', 'is', null)
    .where((eb) =>
      eb.or([eb('c.charge_read_at', 'is', null), eb('c.charge_read_at', '<', readBefore)]),
    )
    .orderBy((eb) => eb.fn.coalesce('c.charge_read_at', eb.val('')))
    .limit(limit)
    .execute()

/** What Stripe showed of the order's charge at `at`, and whether that was all of it. */
export const recordChargeReading = (
  db: Db,
  creatorOrderId: string,
  reading: { refundedMinor: number; inFull: boolean; at: string },
) => {
  const values = {
    charge_refunded_minor: reading.refundedMinor,
    charge_read_at: reading.at,
    charge_refunded_in_full_at: reading.inFull ? reading.at : null,
  }
  return db
    .insertInto('refund_catch_up_orders')
    .values({ creator_order_id: creatorOrderId, ...values })
    .onConflict((oc) => oc.column('creator_order_id').doUpdateSet(values))
    .execute()
}
