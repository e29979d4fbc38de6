import { randomBytes } from 'node:crypto'
import type {
  CustomerDataRequestPayload,
  CustomerRedactPayload,
} from '../adapters/commerce/shopify/shopify-webhook-payloads'
import { orderGid } from '../adapters/commerce/shopify/order-gid'
import type { RouteDeps } from '../deps'
import { recordAudit } from '../repositories/audit-log'
import {
  brandOrdersAmong,
  indexedOrders,
  recordDataRequest,
  transfersOfOrders,
} from '../repositories/data-requests'
import {
  customerOrderDeliveries,
  eraseCustomer,
  eraseShop,
  holdsShop,
} from '../repositories/privacy'
import { findShopConnection } from '../repositories/shop-connections'
import { markWebhookDeliveryDone } from '../repositories/webhook-deliveries'
import type { Log } from './shopify-webhooks'

// Shopify's mandatory compliance topics (docs/privacy.md): a customer's data request answered
// with what Tandem holds on them for the shop, a customer's data erased, a shop's data erased
// with its money records kept under a pseudonym. Run by the delivery's job: each change commits
// with its audit entry (actor null: Shopify asked) and with its delivery marked done, so that a
// job run again after a crash finds the work done and repeats nothing.

type Deps = Pick<RouteDeps, 'db' | 'shopify' | 'now'>

/** The delivery being acted on: its shop (the one that signed it) and its webhook id. */
export interface SignedDelivery {
  shop: string
  webhookId: string
  /** When Tandem took it: an orders/paid delivery's time of payment. */
  receivedAt: string
}

/** What Tandem holds on the customer for the shop, as the data request's JSON reads. */
async function customerData(deps: Deps, shop: string, customerId: number, orderIds: number[]) {
  const deliveries = await customerOrderDeliveries(deps.db, shop, customerId, orderIds)
  const orders = [...new Set([...orderIds, ...deliveries.map((delivery) => delivery.orderId)])]
  const indexed = await indexedOrders(deps.db, shop, orders)
  return {
    orders,
    held: {
      creatorOrders: indexed.map((order) => ({
        id: order.order_id,
        name: order.name,
        createdAt: order.created_at,
        currency: order.currency,
        totalMinor: order.total_minor,
      })),
      orderWebhooks: deliveries.map(({ webhookId, receivedAt, body }) => ({
        webhookId,
        receivedAt,
        body,
      })),
      orderTransfers: (await transfersOfOrders(deps.db, shop, orders)).map((transfer) => ({
        creatorOrderId: transfer.creator_order_id,
        currency: transfer.currency,
        status: transfer.status,
        createdAt: transfer.created_at,
        processedAt: transfer.processed_at,
        paymentIntentIds: transfer.payment_intent_ids,
        brands: transfer.brands.map((brand) => ({
          brandStoreShop: brand.brand_store_shop,
          brandOrderId: brand.brand_order_id,
          baseMinor: brand.base_minor,
          brandAmountMinor: brand.brand_amount_minor,
          creatorCommissionMinor: brand.creator_commission_minor,
          tandemCommissionMinor: brand.tandem_commission_minor,
          lines: JSON.parse(brand.lines) as unknown,
        })),
      })),
      brandOrders: (await brandOrdersAmong(deps.db, shop, orders.map(orderGid))).map((brand) => ({
        brandOrderId: brand.brand_order_id,
        creatorOrderId: brand.creator_order_id,
        baseMinor: brand.base_minor,
        brandAmountMinor: brand.brand_amount_minor,
        paidAt: brand.paid_at,
        lines: JSON.parse(brand.lines) as unknown,
      })),
    },
  }
}

/** customers/data_request: records the request with what Tandem holds on the customer. */
export async function answerDataRequest(
  deps: Deps,
  delivery: SignedDelivery,
  body: CustomerDataRequestPayload,
): Promise<void> {
  const { shop } = delivery
  const { customer } = body
  const found = await customerData(deps, shop, customer.id, body.orders_requested)
  const at = deps.now()
  const report = {
    shop,
    dataRequestId: body.data_request.id,
    customer: { id: customer.id, email: customer.email ?? null, phone: customer.phone ?? null },
    ordersRequested: body.orders_requested,
    compiledAt: at.toISOString(),
    held: found.held,
  }
  await deps.db.transaction().execute(async (trx) => {
    const recorded = await recordDataRequest(trx, {
      shop,
      requestId: String(body.data_request.id),
      customerId: String(customer.id),
      // When Shopify's request reached Tandem, not when its job ran: jobs run side by side.
      receivedAt: delivery.receivedAt,
      report: JSON.stringify(report),
    })
    if (recorded) {
      await recordAudit(trx, at, {
        actorEmail: null,
        action: 'privacy.data-request',
        target: shop,
        details: { dataRequestId: body.data_request.id, orders: found.orders.length },
      })
    }
    await markWebhookDeliveryDone(trx, delivery.webhookId, at.toISOString(), { dropBody: true })
  })
}

/**
 * customers/redact: erases what Tandem holds on the customer for the shop, and only for it. What
 * settles the orders' money (which shop has each, the money records) is kept: a creator signing
 * the erasure of its own order does not take it out of its refunds or an administrator's hold.
 */
export async function redactCustomer(
  deps: Deps,
  delivery: SignedDelivery,
  body: CustomerRedactPayload,
): Promise<void> {
  const { shop } = delivery
  const at = deps.now()
  await deps.db.transaction().execute(async (trx) => {
    const deliveries = await customerOrderDeliveries(
      trx,
      shop,
      body.customer.id,
      body.orders_to_redact,
    )
    const orders = [
      ...new Set([...body.orders_to_redact, ...deliveries.map((found) => found.orderId)]),
    ]
    const erased = await eraseCustomer(
      trx,
      shop,
      body.customer.id,
      deliveries.map((found) => found.webhookId),
      at.toISOString(),
    )
    // Order ids only: the money records keep them, and they name no one outside Shopify.
    await recordAudit(trx, at, {
      actorEmail: null,
      action: 'privacy.customer-redact',
      target: shop,
      details: { orders, erased },
    })
    await markWebhookDeliveryDone(trx, delivery.webhookId, at.toISOString(), { dropBody: true })
  })
}

/**
 * shop/redact: Shopify sends it 48 hours after the app was uninstalled. A creator holds its app's
 * secret and can sign one for its own shop at any time, so the body alone erases nothing: Shopify
 * must say that the app is not installed. Asked with the token Tandem holds, or else with one
 * asked for and thrown away (docs/privacy.md): asking as every other call does would connect the
 * shop again. Throws when Shopify could not say, so that the job asks again later.
 */
export async function redactShop(
  deps: Deps,
  delivery: SignedDelivery,
  log: Log,
  signal: AbortSignal,
): Promise<void> {
  const { shop } = delivery
  // Erased before (the job run again after a crash), or never known: nothing to ask or do.
  if (!(await holdsShop(deps.db, shop))) return
  const connection = await findShopConnection(deps.db, shop)
  const installed = connection?.holdsAccessToken
    ? await deps.shopify.installation.installed(shop, signal)
    : await deps.shopify.connections.installedWithoutConnecting(shop, signal)
  if (installed) {
    log.warn({ shop }, 'shop/redact ignored: Shopify says the app is still installed in the shop')
    return
  }
  // The token this process may hold goes with the stored one.
  await deps.shopify.connections.forget(shop)
  // Random, not derived from the domain: a hash of a guessable name could be reversed.
  const pseudonym = `redacted-shop-${randomBytes(6).toString('hex')}`
  const at = deps.now()
  await deps.db.transaction().execute(async (trx) => {
    const changed = await eraseShop(trx, shop, pseudonym)
    await recordAudit(trx, at, {
      actorEmail: null,
      action: 'privacy.shop-redact',
      target: pseudonym,
      details: changed,
    })
  })
}
