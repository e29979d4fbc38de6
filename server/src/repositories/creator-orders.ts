import { sql } from 'kysely'
import type { CreatorOrderHeader } from '../adapters/commerce/commerce-port'
import type { CreatorOrderIndex } from '../adapters/commerce/shopify/shopify-commerce'
import type { Db } from '../db/connect'

// The creator orders Tandem knows of (creator_order_index): which shop has each, for lookups, and
// what the orders inbox lists (queries/creator-orders.ts).

/** Records the order (again): a later sighting updates what an earlier one said. */
export async function indexCreatorOrder(db: Db, order: CreatorOrderHeader): Promise<void> {
  const listed = {
    store_shop: order.storeShop,
    name: order.name,
    // One form whoever saw it (Shopify writes "…:00Z", webhooks "…:00-05:00"): the inbox sorts
    // and pages by it as text.
    created_at: new Date(order.createdAt).toISOString(),
    currency: order.currency,
    total_minor: order.totalMinor,
  }
  await db
    .insertInto('creator_order_index')
    .values({ order_id: order.id, ...listed })
    .onConflict((conflict) => conflict.column('order_id').doUpdateSet(listed))
    .execute()
}

/** Each order's name (its id while its header is unknown) and store, by id. */
export async function findOrderSubjects(
  db: Db,
  orderIds: number[],
): Promise<Map<number, { shop: string; order: string }>> {
  if (orderIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('creator_order_index')
    .select(['order_id', 'store_shop', 'name'])
    .where('order_id', 'in', orderIds)
    .execute()
  return new Map(
    rows.map((row) => [
      Number(row.order_id),
      { shop: row.store_shop, order: row.name ?? String(row.order_id) },
    ]),
  )
}

/**
 * The shop whose creator order it is, for its money: as the order's transfer or its automatic
 * processing recorded it, else as the index has it (an order known only from its sighting);
 * null when Tandem knows no such order.
 */
export async function findOrderShop(db: Db, orderId: number): Promise<string | null> {
  const id = String(orderId)
  const row = await db
    .selectFrom('order_transfers')
    .select(['creator_store_shop as shop', sql<number>`1`.as('rank')])
    .where('creator_order_id', '=', id)
    .unionAll(
      db
        .selectFrom('order_automation')
        .select(['store_shop as shop', sql<number>`2`.as('rank')])
        .where('creator_order_id', '=', id),
    )
    .unionAll(
      db
        .selectFrom('creator_order_index')
        .select(['store_shop as shop', sql<number>`3`.as('rank')])
        .where('order_id', '=', orderId),
    )
    .orderBy('rank')
    .limit(1)
    .executeTakeFirst()
  return row?.shop ?? null
}

/** The Shopify adapter's CreatorOrderIndex over the database. */
export const creatorOrderIndex = (db: Db): CreatorOrderIndex => ({
  async shopOf(orderId) {
    // Only a creator store's orders are creator orders.
    const row = await db
      .selectFrom('creator_order_index as known')
      .innerJoin('stores', 'stores.shop', 'known.store_shop')
      .select('known.store_shop')
      .where('known.order_id', '=', orderId)
      .where('stores.shop_type', '=', 'CREATOR')
      .executeTakeFirst()
    return row?.store_shop ?? null
  },
  async creatorShops() {
    const rows = await db
      .selectFrom('stores')
      .select('shop')
      .where('shop_type', '=', 'CREATOR')
      .orderBy('shop')
      .execute()
    return rows.map((row) => row.shop)
  },
  remember: (order) => indexCreatorOrder(db, order),
})
