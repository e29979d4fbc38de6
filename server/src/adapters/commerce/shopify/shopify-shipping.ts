import {
  FulfillmentRefused,
  type FulfillmentReading,
  type OrderShipping,
  type ShippingPort,
  type Tracking,
} from '../shipping-port'
import { CommerceError } from '../commerce-port'
import type { ShopifyApi } from './shopify-api'

// The shipping part of the commerce port on Shopify's Admin GraphQL API: an order's fulfillment
// orders and fulfillments read at once, fulfillmentCreate and fulfillmentTrackingInfoUpdate.
// An order Tandem mirrors has a few lines and shipments: one page of each is all of it.
//
// Shopify leaves out, rather than refuses, the fulfillment orders the app's scopes do not cover:
// "An API client will only receive a subset of the fulfillment orders which belong to an order if
// they don't have the necessary access scopes to view all of the fulfillment orders", an empty
// list when none (Admin GraphQL 2026-10, FulfillmentOrder and FulfillmentOrderConnection). A
// brand shipping from a fulfillment service's location (a 3PL) to an app without its scopes would
// look as if nothing shipped. The order's lines are not filtered (read_orders): each line's units
// (currentQuantity) that no fulfillment order seen has left to ship and no fulfillment seen
// shipped are units Tandem cannot see, and the shop's fulfillment services' locations are where
// they can be. That reading holds whether or not Shopify also hides the fulfillments made from a
// hidden fulfillment order (it does not say; the emulator does).

/**
 * Within Shopify's 1,000-point query cost: a variant is read once per order line, not per
 * fulfillment-order line and fulfillment line. Tandem's brand orders have a line per brand
 * variant; a creator order of more lines is read in part (its lines past these have no variant).
 */
const LINES_READ = 50
const FULFILLMENT_ORDERS_READ = 5

const ORDER_SHIPPING = /* GraphQL */ `
  query OrderShipping($id: ID!) {
    order(id: $id) {
      id
      cancelledAt
      cancelReason
      lineItems(first: ${LINES_READ}) {
        nodes {
          id
          currentQuantity
          variant {
            id
          }
        }
      }
      fulfillmentOrders(first: ${FULFILLMENT_ORDERS_READ}) {
        nodes {
          id
          status
          fulfillmentHolds {
            reason
            reasonNotes
          }
          lineItems(first: ${LINES_READ}) {
            nodes {
              id
              totalQuantity
              remainingQuantity
              lineItem {
                id
              }
            }
          }
        }
      }
      fulfillments(first: 50) {
        id
        status
        createdAt
        trackingInfo(first: 10) {
          company
          number
          url
        }
        fulfillmentLineItems(first: ${LINES_READ}) {
          nodes {
            quantity
            lineItem {
              id
            }
          }
        }
      }
    }
  }
`

/** A shop has few locations; a fulfillment service's has its service (Location, 2026-10). */
const SERVICE_LOCATIONS = /* GraphQL */ `
  query ServiceLocations {
    locations(first: 50) {
      nodes {
        name
        fulfillmentService {
          serviceName
        }
      }
    }
  }
`

const FULFILLMENT_ORDER_ORDER = /* GraphQL */ `
  query FulfillmentOrderOrder($id: ID!) {
    fulfillmentOrder(id: $id) {
      orderId
    }
  }
`

const FULFILLMENT_CREATE = /* GraphQL */ `
  mutation MirrorFulfillment($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`

/**
 * Written without emailing the customer, and saying so: notifyCustomer decides for "this update
 * and future updates for the fulfillment" (Admin GraphQL 2026-10, fulfillmentTrackingInfoUpdate),
 * so it is not left to a default (fulfillment-mirror.ts says why no email).
 */
const TRACKING_UPDATE = /* GraphQL */ `
  mutation MirrorTracking($id: ID!, $tracking: FulfillmentTrackingInput!) {
    fulfillmentTrackingInfoUpdate(
      fulfillmentId: $id
      trackingInfoInput: $tracking
      notifyCustomer: false
    ) {
      fulfillment {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`

interface OrderShippingNode {
  id: string
  cancelledAt: string | null
  cancelReason: string | null
  lineItems: { nodes: { id: string; currentQuantity: number; variant: { id: string } | null }[] }
  fulfillmentOrders: {
    nodes: {
      id: string
      status: string
      fulfillmentHolds: { reason: string; reasonNotes: string | null }[]
      lineItems: {
        nodes: {
          id: string
          totalQuantity: number
          remainingQuantity: number
          lineItem: { id: string }
        }[]
      }
    }[]
  }
  fulfillments: {
    id: string
    status: string
    createdAt: string
    trackingInfo: Tracking[]
    fulfillmentLineItems: { nodes: { quantity: number; lineItem: { id: string } }[] }
  }[]
}

/**
 * The units of the order's lines that neither a fulfillment order seen has left to ship nor a
 * fulfillment seen shipped: they are at fulfillment orders the app's scopes do not cover. A
 * cancelled order has nothing left to ship.
 */
function unseenUnits(order: OrderShippingNode): number {
  if (order.cancelledAt) return 0
  const seen = new Map<string, number>()
  const count = (lineItemId: string, units: number) =>
    seen.set(lineItemId, (seen.get(lineItemId) ?? 0) + units)
  for (const fulfillmentOrder of order.fulfillmentOrders.nodes)
    for (const line of fulfillmentOrder.lineItems.nodes)
      count(line.lineItem.id, line.remainingQuantity)
  for (const fulfillment of order.fulfillments) {
    if (fulfillment.status !== 'SUCCESS') continue
    for (const line of fulfillment.fulfillmentLineItems.nodes)
      count(line.lineItem.id, line.quantity)
  }
  return order.lineItems.nodes.reduce(
    (sum, line) => sum + Math.max(0, line.currentQuantity - (seen.get(line.id) ?? 0)),
    0,
  )
}

/**
 * A shop connected before Tandem asked for the fulfillment scopes is refused them until it is
 * connected again: a refusal, not an outage to wait out.
 */
async function grantedOrRefused<T>(shop: string, call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (error) {
    if (error instanceof CommerceError && /Access denied/.test(error.message)) {
      throw new FulfillmentRefused(
        `${error.message} Test the connection of ${shop} on its store page to grant it.`,
      )
    }
    throw error
  }
}

const refusedWith = (shop: string, userErrors: { message: string }[]) =>
  new FulfillmentRefused(
    `Shopify refused the fulfillment in ${shop}: ${userErrors.map((e) => e.message).join('; ')}`,
  )

/**
 * Tracking as the brand's shop gave it, its address kept only when it is a web page's: the brand
 * writes it, and it becomes a link in the console and in the creator's customer's email.
 */
function trackingOf(tracking: Tracking): Tracking {
  const url = tracking.url && /^https?:\/\//i.test(tracking.url) ? tracking.url : null
  return { ...tracking, url }
}

/** Shopify's tracking input: only what the brand gave, so that nothing is cleared by a null. */
const trackingInput = (tracking: Tracking) =>
  Object.fromEntries(Object.entries(tracking).filter(([, value]) => value !== null))

export function shopifyShipping(api: ShopifyApi): ShippingPort {
  /** The names of the shop's fulfillment services' locations. */
  async function serviceLocations(shop: string): Promise<string[]> {
    const answer: {
      locations: { nodes: { name: string; fulfillmentService: object | null }[] }
    } = await api.request(shop, SERVICE_LOCATIONS, {})
    return answer.locations.nodes
      .filter((location) => location.fulfillmentService !== null)
      .map((location) => location.name)
  }

  return {
    async readOrderShipping(shop, orderId): Promise<OrderShipping | null> {
      const answer: { order: OrderShippingNode | null } = await api.request(shop, ORDER_SHIPPING, {
        id: orderId,
      })
      const order = answer.order
      if (!order) return null
      const unseen = unseenUnits(order)
      const variants = new Map(order.lineItems.nodes.map((line) => [line.id, line.variant?.id]))
      const variantOf = (lineItemId: string) => variants.get(lineItemId) ?? null
      return {
        id: order.id,
        cancelledAt: order.cancelledAt,
        cancelReason: order.cancelReason,
        unseen: unseen > 0 ? { units: unseen, locations: await serviceLocations(shop) } : null,
        fulfillmentOrders: order.fulfillmentOrders.nodes.map((fulfillmentOrder) => ({
          id: fulfillmentOrder.id,
          status: fulfillmentOrder.status,
          holds: fulfillmentOrder.fulfillmentHolds.map((hold) => ({
            reason: hold.reason,
            notes: hold.reasonNotes,
          })),
          lines: fulfillmentOrder.lineItems.nodes.map((line) => ({
            id: line.id,
            lineItemId: line.lineItem.id,
            variantId: variantOf(line.lineItem.id),
            totalQuantity: line.totalQuantity,
            remainingQuantity: line.remainingQuantity,
          })),
        })),
        fulfillments: order.fulfillments.map((fulfillment): FulfillmentReading => ({
          id: fulfillment.id,
          status: fulfillment.status,
          createdAt: fulfillment.createdAt,
          tracking: fulfillment.trackingInfo.map(trackingOf),
          lines: fulfillment.fulfillmentLineItems.nodes.map((line) => ({
            lineItemId: line.lineItem.id,
            variantId: variantOf(line.lineItem.id),
            quantity: line.quantity,
          })),
        })),
      }
    },

    async fulfillmentOrderOrder(shop, fulfillmentOrderId) {
      const answer: { fulfillmentOrder: { orderId: string } | null } = await api.request(
        shop,
        FULFILLMENT_ORDER_ORDER,
        { id: fulfillmentOrderId },
      )
      return answer.fulfillmentOrder?.orderId ?? null
    },

    async createFulfillment(shop, input, options) {
      const fulfillmentOrderIds = [...new Set(input.lines.map((line) => line.fulfillmentOrderId))]
      const answer: {
        fulfillmentCreate: { fulfillment: { id: string } | null; userErrors: { message: string }[] }
      } = await grantedOrRefused(
        shop,
        api.request(
          shop,
          FULFILLMENT_CREATE,
          {
            fulfillment: {
              lineItemsByFulfillmentOrder: fulfillmentOrderIds.map((id) => ({
                fulfillmentOrderId: id,
                fulfillmentOrderLineItems: input.lines
                  .filter((line) => line.fulfillmentOrderId === id)
                  .map((line) => ({
                    id: line.fulfillmentOrderLineItemId,
                    quantity: line.quantity,
                  })),
              })),
              notifyCustomer: input.notifyCustomer,
              ...(input.tracking ? { trackingInfo: trackingInput(input.tracking) } : {}),
            },
          },
          options,
        ),
      )
      const { fulfillment, userErrors } = answer.fulfillmentCreate
      if (userErrors.length > 0 || !fulfillment) throw refusedWith(shop, userErrors)
      return fulfillment.id
    },

    async updateTracking(shop, fulfillmentId, tracking, options) {
      const answer: {
        fulfillmentTrackingInfoUpdate: { userErrors: { message: string }[] }
      } = await grantedOrRefused(
        shop,
        api.request(
          shop,
          TRACKING_UPDATE,
          { id: fulfillmentId, tracking: trackingInput(tracking) },
          options,
        ),
      )
      const { userErrors } = answer.fulfillmentTrackingInfoUpdate
      if (userErrors.length > 0) throw refusedWith(shop, userErrors)
    },
  }
}
