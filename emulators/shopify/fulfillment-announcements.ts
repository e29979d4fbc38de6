import type { Runtime } from './context'
import { fulfillmentOrderStatus } from './fulfillment-figures'
import {
  assignedLocation,
  gidNumber,
  type FulfillmentHoldRecord,
  type FulfillmentOrderRecord,
  type FulfillmentRecord,
  type OrderRecord,
  type ShopRecord,
} from './state'

// The webhooks shipping sends (fulfillments/create, fulfillments/update,
// fulfillment_orders/placed_on_hold, fulfillment_orders/hold_released) and their bodies, shaped
// as Shopify's: a fulfillment as its REST resource (numeric ids, statuses in lower case), a
// fulfillment order by its GID. Each delivery settles once every subscription had its first attempt.

export function announceFulfillment(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  fulfillment: FulfillmentRecord,
  event: 'create' | 'update',
) {
  const topic = event === 'create' ? 'FULFILLMENTS_CREATE' : 'FULFILLMENTS_UPDATE'
  return runtime.webhooks.deliver(shop, topic, fulfillmentBody(shop, order, fulfillment))
}

export function announceHold(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  fulfillmentOrder: FulfillmentOrderRecord,
  hold: FulfillmentHoldRecord,
) {
  return runtime.webhooks.deliver(shop, 'FULFILLMENT_ORDERS_PLACED_ON_HOLD', {
    fulfillment_order: {
      ...fulfillmentOrderBody(order, fulfillmentOrder),
      fulfillment_holds: fulfillmentOrder.holds.map(({ reason, reasonNotes }) => ({
        reason: reason.toLowerCase(),
        reason_notes: reasonNotes,
      })),
    },
    created_fulfillment_hold: {
      id: hold.id,
      reason: hold.reason.toLowerCase(),
      reason_notes: hold.reasonNotes,
    },
  })
}

export function announceHoldReleased(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  fulfillmentOrder: FulfillmentOrderRecord,
) {
  return runtime.webhooks.deliver(shop, 'FULFILLMENT_ORDERS_HOLD_RELEASED', {
    fulfillment_order: fulfillmentOrderBody(order, fulfillmentOrder),
  })
}

const fulfillmentOrderBody = (order: OrderRecord, fulfillmentOrder: FulfillmentOrderRecord) => ({
  id: fulfillmentOrder.id,
  status: fulfillmentOrderStatus(order, fulfillmentOrder).toLowerCase(),
})

/** The REST Fulfillment, as fulfillments/create and fulfillments/update post it. */
function fulfillmentBody(shop: ShopRecord, order: OrderRecord, fulfillment: FulfillmentRecord) {
  const tracking = fulfillment.trackingInfo
  const numbers = tracking.flatMap((info) => (info.number === null ? [] : [info.number]))
  const urls = tracking.flatMap((info) => (info.url === null ? [] : [info.url]))
  const location = assignedLocation(shop, fulfillment)
  const { serviceName } = location
  return {
    id: gidNumber(fulfillment.id, 'Fulfillment'),
    admin_graphql_api_id: fulfillment.id,
    order_id: order.id,
    name: fulfillment.name,
    status: fulfillment.status.toLowerCase(),
    created_at: fulfillment.createdAt,
    updated_at: fulfillment.updatedAt,
    // The fulfillment service's handle, or "manual" when the merchant fulfilled it.
    service: serviceName?.toLowerCase().replace(/\W+/g, '-') ?? 'manual',
    tracking_company: tracking[0]?.company ?? null,
    tracking_number: numbers[0] ?? null,
    tracking_numbers: numbers,
    tracking_url: urls[0] ?? null,
    tracking_urls: urls,
    shipment_status: null,
    location_id: gidNumber(location.id, 'Location'),
    line_items: fulfillment.lines.map((fulfilled) => {
      const line = order.lines.find((candidate) => candidate.id === fulfilled.lineItemId)
      return {
        id: gidNumber(fulfilled.lineItemId, 'LineItem'),
        admin_graphql_api_id: fulfilled.lineItemId,
        variant_id: line?.variantId ? gidNumber(line.variantId, 'ProductVariant') : null,
        title: line?.title ?? null,
        quantity: fulfilled.quantity,
      }
    }),
  }
}
