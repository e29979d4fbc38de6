import type { Db } from '../db/connect'

// Shopify's customers/data_request deliveries (data_requests) and the reads that gather what
// Tandem holds on a customer's orders in one shop: the order index, the transfers of those
// orders (a creator shop's) and the brand orders made for them (a brand shop's).

export interface DataRequestRecord {
  shop: string
  requestId: string
  customerId: string
  receivedAt: string
  /** JSON: what Tandem held on the customer for the shop. */
  report: string
}

/** Records the request; a second record of the same request keeps the first. */
export async function recordDataRequest(db: Db, request: DataRequestRecord): Promise<boolean> {
  const inserted = await db
    .insertInto('data_requests')
    .values({
      id: dataRequestId(request.shop, request.requestId),
      shop: request.shop,
      request_id: request.requestId,
      customer_id: request.customerId,
      received_at: request.receivedAt,
      report: request.report,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst()
  return inserted.numInsertedOrUpdatedRows !== 0n
}

/** A request's id in Tandem: Shopify's id within its shop. */
export const dataRequestId = (shop: string, requestId: string) => `${shop}:${requestId}`

export async function findDataRequestReport(db: Db, id: string): Promise<string | null> {
  const row = await db
    .selectFrom('data_requests')
    .select('report')
    .where('id', '=', id)
    .executeTakeFirst()
  return row?.report ?? null
}

/** The shop's index entries of the orders: what the orders inbox lists of each. */
export const indexedOrders = (db: Db, shop: string, orderIds: number[]) =>
  orderIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('creator_order_index')
        .select(['order_id', 'name', 'created_at', 'currency', 'total_minor'])
        .where('store_shop', '=', shop)
        .where('order_id', 'in', orderIds)
        .orderBy('order_id')
        .execute()

/** The transfers of the shop's creator orders, with each brand's figures and the payment. */
export async function transfersOfOrders(db: Db, shop: string, orderIds: number[]) {
  const ids = orderIds.map(String)
  if (ids.length === 0) return []
  const transfers = await db
    .selectFrom('order_transfers')
    .select(['creator_order_id', 'currency', 'status', 'processed_at', 'created_at'])
    .where('creator_store_shop', '=', shop)
    .where('creator_order_id', 'in', ids)
    .orderBy('creator_order_id')
    .execute()
  const transferred = transfers.map((transfer) => transfer.creator_order_id)
  if (transferred.length === 0) return []
  const brands = await db
    .selectFrom('order_transfer_brands')
    .select([
      'creator_order_id',
      'brand_store_shop',
      'brand_order_id',
      'base_minor',
      'brand_amount_minor',
      'creator_commission_minor',
      'tandem_commission_minor',
      'lines',
    ])
    .where('creator_order_id', 'in', transferred)
    .orderBy('position')
    .execute()
  const payments = await db
    .selectFrom('payment_intent_orders')
    .select(['creator_order_id', 'payment_intent_id'])
    .where('creator_store_shop', '=', shop)
    .where('creator_order_id', 'in', transferred)
    .execute()
  return transfers.map((transfer) => ({
    ...transfer,
    payment_intent_ids: payments
      .filter((payment) => payment.creator_order_id === transfer.creator_order_id)
      .map((payment) => payment.payment_intent_id),
    brands: brands.filter((brand) => brand.creator_order_id === transfer.creator_order_id),
  }))
}

/** The brand orders Tandem made in the shop (a brand's) that are among the orders. */
export const brandOrdersAmong = (db: Db, shop: string, orderGids: string[]) =>
  orderGids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('order_transfer_brands')
        .select([
          'creator_order_id',
          'brand_order_id',
          'base_minor',
          'brand_amount_minor',
          'lines',
          'paid_at',
        ])
        .where('brand_store_shop', '=', shop)
        .where('brand_order_id', 'in', orderGids)
        .orderBy('creator_order_id')
        .execute()
