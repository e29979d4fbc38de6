import { hostLabel, storeName } from '@shared/contract'
import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../db/connect'
import type { Database } from '../db/schema'
import { lockStore } from './stores'

// What Tandem holds on a shop's customer or on a shop, found and erased for Shopify's compliance
// topics (docs/privacy.md lists each table and why it is erased or kept). Every statement names
// the shop: what one shop asks never reaches another shop's rows.

/** A table's column, by its name in the schema. */
type ShopColumn = { [T in keyof Database]: [T, keyof Database[T] & string] }[keyof Database]

// Every column of the schema that can name a shop is in one of the three lists below, or is said
// to name none (tests/server/shop-erasure-schema.test.ts reads the live schema and fails on a
// column in neither): a new table that names a shop cannot be forgotten.

/**
 * The shop's own rows, erased with it where the column names it: its configuration, tokens,
 * catalogue and listings, order index and deliveries. Children before `stores`, which the
 * commission and product tables reference.
 */
export const ERASED_WITH_SHOP: ShopColumn[] = [
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
  ['catalog_listings', 'brand_store_shop'],
  ['catalog_listings', 'creator_store_shop'],
  ['brand_product_readings', 'brand_store_shop'],
  ['refund_catch_up_shops', 'creator_store_shop'],
  ['shopify_key_attempts', 'shop'],
  ['stores', 'shop'],
]

/**
 * What money moved, or was decided, for orders the shop had part in: kept (the law requires the
 * money records; holds, pauses, shipments and notices are what settles them), the shop's name
 * replaced by the pseudonym in all of them at once, so that each still finds the others.
 */
export const ANONYMISED_WITH_SHOP: ShopColumn[] = [
  ['order_transfers', 'creator_store_shop'],
  ['order_transfer_brands', 'brand_store_shop'],
  ['payment_intent_orders', 'creator_store_shop'],
  ['creator_payouts', 'creator_store_shop'],
  ['order_reversals', 'store_shop'],
  ['order_refund_notices', 'store_shop'],
  ['order_automation', 'store_shop'],
  ['order_automation', 'paused_brand'],
  ['order_attention', 'brand_store_shop'],
  ['brand_pauses', 'brand_store_shop'],
  ['shipments', 'brand_store_shop'],
  ['fulfillment_mirrors', 'creator_store_shop'],
]

/**
 * Free text and JSON that may name the shop anywhere (Tandem's sentences, Stripe's and Shopify's
 * messages, job payloads, lease names, an administrator's reasons): each mention replaced by the
 * pseudonym. A domain is letters, digits, '-' and '.', none special in JSON or to LIKE (which
 * finds the candidates), so replacing it keeps the text valid.
 */
export const TEXT_NAMING_SHOP: (ShopColumn | [...ShopColumn, RawBuilder<unknown>])[] = [
  ['audit_log', 'target'],
  ['audit_log', 'details'],
  ['price_exceptions', 'accepted_lines'],
  ['price_exceptions', 'reason'],
  ['fraud_releases', 'findings'],
  ['fraud_releases', 'reason'],
  ['order_holds', 'reason'],
  ['brand_pauses', 'reason'],
  ['order_transfer_brands', 'failed_message'],
  ['creator_payouts', 'waiting_reason'],
  ['order_reversals', 'failed_message'],
  ['order_automation', 'message'],
  ['order_attention', 'sentence'],
  ['shipments', 'reading'],
  ['fulfillment_mirrors', 'message'],
  ['leases', 'name'],
  ['jobs', 'payload'],
  ['jobs', 'singleton_key'],
  ['jobs', 'error_message'],
  ['jobs', 'error_stack'],
  // A reversal's key named its shop before migration 024. One whose outcome is unknown is looked
  // for in Stripe by that key and sent again under it (party-reversal.ts), so it keeps its key
  // until it is settled; a settled one's key is never used again.
  [
    'order_reversals',
    'idempotency_key',
    sql`(reversal_id is not null or owed_since is not null or declined_at is not null)`,
  ],
]

/** Whether any table still names the shop where it names a shop: false once its redaction is done. */
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
 * Erases the shop's own rows and names it by `pseudonym` wherever else it is named (within the
 * caller's transaction: all at once, or nothing); answers how many rows of each table it erased,
 * and of each column it renamed.
 */
export async function eraseShop(
  db: Db,
  shop: string,
  pseudonym: string,
): Promise<{ erased: Record<string, number>; anonymised: Record<string, number> }> {
  const erased: Record<string, number> = {}
  const anonymised: Record<string, number> = {}
  const count = (tally: Record<string, number>, name: string, rows: bigint | undefined) => {
    if (rows) tally[name] = (tally[name] ?? 0) + Number(rows)
  }
  // The store's row first, as every change to a store's settings locks it before its other rows
  // (a commission, a payout account): in the other order, the two could deadlock.
  await lockStore(db, shop)
  // A listing's variants name no shop: they go with their listing.
  const variants = await db
    .deleteFrom('listing_variants')
    .where('listing_id', 'in', (eb) =>
      eb
        .selectFrom('catalog_listings')
        .select('id')
        .where((listing) =>
          listing.or([
            listing('brand_store_shop', '=', shop),
            listing('creator_store_shop', '=', shop),
          ]),
        ),
    )
    .executeTakeFirst()
  count(erased, 'listing_variants', variants.numDeletedRows)
  for (const [table, column] of ERASED_WITH_SHOP) {
    const result =
      await sql`delete from ${sql.table(table)} where ${sql.ref(column)} = ${shop}`.execute(db)
    count(erased, table, result.numAffectedRows)
  }
  for (const [table, column] of ANONYMISED_WITH_SHOP) {
    const result = await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${pseudonym}
      where ${sql.ref(column)} = ${shop}`.execute(db)
    count(anonymised, `${table}.${column}`, result.numAffectedRows)
  }
  const mentions = mentionsOf(shop)
  const [label, name] = [hostLabel(shop), storeName(shop)]
  for (const [table, column, only] of TEXT_NAMING_SHOP) {
    // The label finds the domain too (it begins it).
    const where = sql`(${sql.ref(column)} like ${`%${label}%`} or ${sql.ref(column)} like ${`%${name}%`})
      ${only ? sql`and ${only}` : sql``}`
    const texts = await sql<{ text: string }>`select distinct ${sql.ref(column)} as text
      from ${sql.table(table)} where ${where}`.execute(db)
    // Each text rewritten once: every row holding it gets the same.
    for (const { text } of texts.rows) {
      const renamed = mentions.reduce((each, mention) => each.replace(mention, pseudonym), text)
      if (renamed === text) continue
      const result = await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${renamed}
        where ${sql.ref(column)} = ${text} and ${where}`.execute(db)
      count(anonymised, `${table}.${column}`, result.numAffectedRows)
    }
  }
  return { erased, anonymised }
}

/**
 * Each way a text names the shop, where it stands as a whole: its domain (not the tail of another
 * shop's that ends like it, `a.myshopify.com` in `ba.myshopify.com`, whose mentions are that
 * shop's), then the name sentences give it ("maya makes", storeName) and its host's first label
 * ("maya-makes", which sentences gave it before issue 47). A name another shop's ends with, after
 * a space ("kept maya makes"), is renamed too: more is forgotten, never less.
 */
const mentionsOf = (shop: string) => {
  const whole = (text: string, after: string) =>
    new RegExp(`(?<![A-Za-z0-9.-])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${after}`, 'g')
  return [
    whole(shop, '(?![A-Za-z0-9-])'),
    whole(hostLabel(shop), '(?![A-Za-z0-9.-])'),
    whole(storeName(shop), '(?![A-Za-z0-9-])'),
  ]
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
 * Erases the stored bodies of the customer's orders (each delivery kept, done, to ignore
 * Shopify's resend) and their data requests, for the shop only. The order index is kept: an
 * order's id, shop, number, date and total name no one (docs/privacy.md), and its shop is what
 * the order's refunds, holds and transfer are settled by.
 */
export async function eraseCustomer(
  db: Db,
  shop: string,
  customerId: number,
  deliveryIds: string[],
  at: string,
): Promise<{ orderBodies: number; dataRequests: number }> {
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
    orderBodies: Number(orderBodies),
    dataRequests: Number(dataRequests.numDeletedRows),
  }
}
