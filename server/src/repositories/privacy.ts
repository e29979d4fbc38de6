import { sql } from 'kysely'
import type { Db } from '../db/connect'
import type { Database } from '../db/schema'
import { lockStore } from './stores'

// What Tandem holds on a shop's customer or on a shop, found and erased for Shopify's compliance
// topics (docs/privacy.md lists each table and why it is erased or kept). Every statement names
// the shop: what one shop asks never reaches another shop's rows.

/** A column naming a shop, in a table whose rows are the shop's own. */
type ShopColumn = { [T in keyof Database]: [T, keyof Database[T] & string] }[keyof Database]

/**
 * The shop's configuration, tokens, catalogue, orders and deliveries: erased with the shop.
 * Children before `stores`, which the commission and product tables reference.
 */
const ERASED_WITH_SHOP: ShopColumn[] = [
  ['app_configs', 'shop'],
  ['shop_connections', 'shop'],
  ['oauth_states', 'shop'],
  ['webhook_deliveries', 'shop'],
  ['data_requests', 'shop'],
  ['creator_order_index', 'store_shop'],
  ['store_products', 'store_shop'],
  ['product_syncs', 'store_shop'],
  ['store_payment_accounts', 'store_shop'],
  ['default_commissions', 'brand_store_shop'],
  ['unique_commission_rates', 'brand_store_shop'],
  ['unique_commission_rates', 'creator_store_shop'],
  ['variant_links', 'brand_store_shop'],
  ['variant_links', 'creator_store_shop'],
  ['stores', 'shop'],
]

/** The money records: kept as the law requires, the shop's name replaced by a pseudonym. */
const ANONYMISED_WITH_SHOP: ShopColumn[] = [
  ['order_transfers', 'creator_store_shop'],
  ['order_transfer_brands', 'brand_store_shop'],
  ['payment_intent_orders', 'creator_store_shop'],
]

/** Whether any table still names the shop: false once its redaction is done. */
export async function holdsShop(db: Db, shop: string): Promise<boolean> {
  for (const [table, column] of [...ERASED_WITH_SHOP, ...ANONYMISED_WITH_SHOP]) {
    const found = await sql`select 1 from ${sql.table(table)} where ${sql.ref(column)} = ${shop}`
      .execute(db)
      .then((result) => result.rows.length > 0)
    if (found) return true
  }
  return false
}

/**
 * Erases the shop's own rows and names it by `pseudonym` in the money records, the audit log and
 * the accepted price exceptions; answers how many rows of each table it changed.
 */
export async function eraseShop(
  db: Db,
  shop: string,
  pseudonym: string,
): Promise<{ erased: Record<string, number>; anonymised: Record<string, number> }> {
  const erased: Record<string, number> = {}
  const anonymised: Record<string, number> = {}
  const count = (tally: Record<string, number>, table: string, rows: bigint | undefined) => {
    if (rows) tally[table] = (tally[table] ?? 0) + Number(rows)
  }
  // The store's row first, as every change to a store's settings locks it before its other rows
  // (a commission, a payout account): in the other order, the two could deadlock.
  await lockStore(db, shop)
  for (const [table, column] of ERASED_WITH_SHOP) {
    const result =
      await sql`delete from ${sql.table(table)} where ${sql.ref(column)} = ${shop}`.execute(db)
    count(erased, table, result.numAffectedRows)
  }
  // The shop's token-renewal lease (repositories/shop-connections.ts) is named after it.
  const leases = await db.deleteFrom('leases').where('name', 'like', `%:${shop}`).executeTakeFirst()
  count(erased, 'leases', leases.numDeletedRows)
  for (const [table, column] of ANONYMISED_WITH_SHOP) {
    const result = await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${pseudonym}
      where ${sql.ref(column)} = ${shop}`.execute(db)
    count(anonymised, table, result.numAffectedRows)
  }
  // Free text and JSON that may name the shop anywhere: a domain is letters, digits, '-' and
  // '.', none special in JSON, so replacing it keeps the text valid.
  const audit = await db
    .selectFrom('audit_log')
    .select(['id', 'target', 'details'])
    .where((eb) => eb.or([eb('target', '=', shop), eb('details', 'like', `%${shop}%`)]))
    .execute()
  for (const entry of audit) {
    await db
      .updateTable('audit_log')
      .set({
        target: entry.target.replaceAll(shop, pseudonym),
        details: entry.details.replaceAll(shop, pseudonym),
      })
      .where('id', '=', entry.id)
      .execute()
  }
  count(anonymised, 'audit_log', BigInt(audit.length))
  const exceptions = await db
    .selectFrom('price_exceptions')
    .select(['creator_order_id', 'accepted_lines'])
    .where('accepted_lines', 'like', `%${shop}%`)
    .execute()
  for (const exception of exceptions) {
    await db
      .updateTable('price_exceptions')
      .set({ accepted_lines: exception.accepted_lines.replaceAll(shop, pseudonym) })
      .where('creator_order_id', '=', exception.creator_order_id)
      .execute()
  }
  count(anonymised, 'price_exceptions', BigInt(exceptions.length))
  return { erased, anonymised }
}

/** An orders/paid body Tandem keeps, of one of the customer's orders. */
export interface CustomerOrderDelivery {
  webhookId: string
  receivedAt: string
  orderId: number
  body: Record<string, unknown>
}

/**
 * The shop's stored orders/paid bodies of the customer: of the orders named, or whose customer is
 * them (an order Shopify did not list).
 */
export async function customerOrderDeliveries(
  db: Db,
  shop: string,
  customerId: number,
  orderIds: number[],
): Promise<CustomerOrderDelivery[]> {
  // Narrowed in SQL to the bodies that mention one of the ids, then checked field by field.
  const mentioned = [customerId, ...orderIds].map((id) => `%${id}%`)
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['webhook_id', 'received_at', 'body'])
    .where('shop', '=', shop)
    .where('topic', '=', 'orders/paid')
    .where((eb) => eb.or(mentioned.map((pattern) => eb('body', 'like', pattern))))
    .orderBy('received_at')
    .orderBy('webhook_id')
    .execute()
  return rows.flatMap((row) => {
    const body = JSON.parse(row.body ?? 'null') as {
      id?: unknown
      customer?: { id?: unknown } | null
    } | null
    const orderId = body?.id
    if (typeof orderId !== 'number') return []
    if (!orderIds.includes(orderId) && body?.customer?.id !== customerId) return []
    return [{ webhookId: row.webhook_id, receivedAt: row.received_at, orderId, body: body ?? {} }]
  })
}

/**
 * Erases the customer's orders from the shop's order index, the stored bodies of their orders
 * (each delivery kept, done, to ignore Shopify's resend), and their data requests.
 */
export async function eraseCustomer(
  db: Db,
  shop: string,
  customerId: number,
  orderIds: number[],
  deliveryIds: string[],
  at: string,
): Promise<{ creatorOrders: number; orderBodies: number; dataRequests: number }> {
  const creatorOrders =
    orderIds.length === 0
      ? 0n
      : (
          await db
            .deleteFrom('creator_order_index')
            .where('store_shop', '=', shop)
            .where('order_id', 'in', orderIds)
            .executeTakeFirst()
        ).numDeletedRows
  const orderBodies =
    deliveryIds.length === 0
      ? 0n
      : (
          await db
            .updateTable('webhook_deliveries')
            .set((eb) => ({ body: null, done_at: eb.fn.coalesce('done_at', eb.val(at)) }))
            .where('shop', '=', shop)
            .where('webhook_id', 'in', deliveryIds)
            .executeTakeFirst()
        ).numUpdatedRows
  const dataRequests = await db
    .deleteFrom('data_requests')
    .where('shop', '=', shop)
    .where('customer_id', '=', String(customerId))
    .executeTakeFirst()
  return {
    creatorOrders: Number(creatorOrders),
    orderBodies: Number(orderBodies),
    dataRequests: Number(dataRequests.numDeletedRows),
  }
}
