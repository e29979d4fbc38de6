import type { CommerceProduct } from '../adapters/commerce/commerce-port'
import type {
  ProductPayload,
  WebhookPayload,
} from '../adapters/commerce/shopify/shopify-webhook-payloads'
import type { RouteDeps } from '../deps'
import { toMinorUnits } from '../domain/money'
import { followBrandProduct, followInventoryItem } from '../catalog/brand-news'
import { followCreatorProduct } from '../catalog/creator-news'
import { findOrderShop, indexCreatorOrder } from '../repositories/creator-orders'
import { findShopConnection } from '../repositories/shop-connections'
import {
  deleteStoreProduct,
  findStoreProductsCurrency,
  upsertStoreProductIfNewer,
} from '../repositories/store-products'
import { findStoreType } from '../repositories/stores'
import { orderGid } from '../adapters/commerce/shopify/order-gid'
import { followBrandOrder } from '../shipping/shipping-jobs'
import { noticeRefund } from '../transfers/order-refunds'
import { scheduleAutomaticTransfer } from './automatic-transfers'
import { answerDataRequest, redactCustomer, redactShop, type SignedDelivery } from './privacy'

// What each signed delivery, checked against its topic, changes in Tandem. Run by the delivery's
// job (services/webhook-inbox.ts), after the delivery was recorded and answered: a failure throws,
// and the job is retried. Each action bears running twice (a worker may die after acting and
// before the delivery is marked done). Shopify's calls: not audited, but for the compliance
// topics (services/privacy.ts), which the law asks Tandem to account for.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'shopify' | 'commerce' | 'now' | 'transferTiming'>

/** Where what is worth knowing but changes no outcome goes: the job's log. */
export interface Log {
  warn(details: object, message: string): void
}

/**
 * Forgets the shop's connection once Shopify confirms the app is gone; a signed uninstall body
 * may be an old one sent again, so the body alone is not enough. Throws a CommerceError when
 * Shopify could not say, so that the job asks again later.
 */
async function actOnUninstall(deps: Deps, shop: string, log: Log, signal: AbortSignal) {
  const connection = await findShopConnection(deps.db, shop)
  // A shop Tandem holds no token for has nothing to confirm (asking would connect it).
  if (!connection?.holdsAccessToken) return
  if (await deps.shopify.installation.installed(shop, signal)) {
    log.warn({ shop }, 'app/uninstalled not confirmed by Shopify: the shop stays connected')
    return
  }
  await deps.shopify.connections.forget(shop)
}

export async function actOnWebhook(
  deps: Deps,
  delivery: SignedDelivery,
  payload: WebhookPayload,
  log: Log,
  signal: AbortSignal,
): Promise<void> {
  const { shop } = delivery
  switch (payload.topic) {
    case 'app/uninstalled':
      await actOnUninstall(deps, shop, log, signal)
      return
    case 'orders/paid':
      await indexPaidOrder(deps, delivery, payload.body, log)
      return
    case 'refunds/create':
      await lookAtRefunds(deps, shop, payload.body.order_id)
      return
    case 'orders/cancelled':
      // A creator's order gives money back; a brand's order Tandem made stops shipping.
      await lookAtRefunds(deps, shop, payload.body.id)
      await followBrandOrder(deps, shop, orderGid(payload.body.id))
      return
    case 'fulfillments/create':
    case 'fulfillments/update':
      await followBrandOrder(deps, shop, orderGid(payload.body.order_id))
      return
    case 'fulfillment_orders/placed_on_hold':
    case 'fulfillment_orders/hold_released':
      await followHeldOrder(deps, shop, payload.body.fulfillment_order.id)
      return
    case 'products/delete':
      await deleteStoreProduct(deps.db, shop, `gid://shopify/Product/${payload.body.id}`)
      await followBrandProduct(deps, shop, `gid://shopify/Product/${payload.body.id}`)
      return
    case 'products/update':
      // A brand's product is followed by its listings; a creator's one Tandem wrote is put back.
      await updateProduct(deps, shop, payload.body)
      await followBrandProduct(deps, shop, payload.body.admin_graphql_api_id)
      await followCreatorProduct(deps, shop, payload.body.admin_graphql_api_id)
      return
    case 'inventory_levels/update':
      await followInventoryItem(
        deps,
        shop,
        `gid://shopify/InventoryItem/${payload.body.inventory_item_id}`,
      )
      return
    case 'customers/data_request':
      await answerDataRequest(deps, delivery, payload.body)
      return
    case 'customers/redact':
      await redactCustomer(deps, delivery, payload.body)
      return
    case 'shop/redact':
      await redactShop(deps, delivery, log, signal)
      return
  }
}

/**
 * The creator-order index: the order's shop, known without asking every creator shop. Only a
 * creator's orders are creator orders, and a shop signs for its own orders only: a creator holds
 * its app's secret and can sign any body, so the order is read from the signing shop's Shopify,
 * and only an order that shop has is indexed, with Shopify's header rather than the body's. An
 * order id claimed by another shop before (its body signed ahead of the order) is taken back by
 * the shop Shopify says has it. Paid when the delivery came, the order is put on the queue if the
 * policy makes it automatic; its processing still checks its payment with Stripe.
 */
async function indexPaidOrder(
  deps: Deps,
  { shop, receivedAt }: SignedDelivery,
  body: { id: number },
  log: Log,
) {
  if ((await findStoreType(deps.db, shop)) !== 'CREATOR') return
  const order = await deps.commerce.findOrderInShop(shop, body.id)
  if (!order) {
    log.warn({ shop, orderId: body.id }, 'orders/paid of an order its shop does not have ignored')
    return
  }
  await deps.db.transaction().execute(async (trx) => {
    await indexCreatorOrder(trx, order)
    const times = { createdAt: new Date(order.createdAt), paidAt: new Date(receivedAt) }
    const creatorOrder = { creatorOrderId: String(order.id), storeShop: shop }
    await scheduleAutomaticTransfer(deps, trx, creatorOrder, times)
  })
}

/**
 * A refund or cancellation of one of the shop's creator orders, as Tandem's records have it:
 * noticed, and settled by a job that reads the order from Shopify and the charge from Stripe, now
 * if its transfer froze, else once it completes (transfers/order-refunds.ts). The body is only a
 * reason to look (a creator can sign any): an order Tandem does not hold for this shop is left
 * alone; one not transferred yet is transferred only for what it still sells.
 */
async function lookAtRefunds(deps: Deps, shop: string, orderId: number) {
  if ((await findOrderShop(deps.db, orderId)) === shop) {
    await noticeRefund(deps, String(orderId), shop)
  }
}

/**
 * A hold placed on or released from a fulfillment order: its order is asked of the shop that
 * signed (a body can name any fulfillment order), and followed if Tandem made it there.
 */
async function followHeldOrder(deps: Deps, shop: string, fulfillmentOrderId: string) {
  if ((await findStoreType(deps.db, shop)) !== 'BRAND') return
  const orderId = await deps.commerce.fulfillmentOrderOrder(shop, fulfillmentOrderId)
  if (orderId) await followBrandOrder(deps, shop, orderId)
}

/**
 * Keeps the stored product in step, unless Tandem holds a newer version of it. A store never
 * synced is left alone: its first sync reads everything, in the store's currency, which only a
 * sync has told (the payload does not).
 */
async function updateProduct(deps: Deps, shop: string, product: ProductPayload) {
  const currency = await findStoreProductsCurrency(deps.db, shop)
  if (currency === null || product.variants.length === 0) return
  const stored: CommerceProduct = {
    id: product.admin_graphql_api_id,
    title: product.title,
    // The REST body writes statuses in lower case ("unlisted"); the Admin API in upper case.
    status: product.status.toUpperCase(),
    variantCount: product.variants.length,
    // Not Math.min(...prices): a 4 MB body can hold more variants than a call takes arguments.
    minPriceMinor: product.variants.reduce(
      (least, variant) => Math.min(least, toMinorUnits(variant.price, currency)),
      Infinity,
    ),
    currency,
    imageUrl: product.image?.src ?? null,
    updatedAt: product.updated_at,
  }
  await upsertStoreProductIfNewer(deps.db, shop, stored, deps.now().toISOString())
}
