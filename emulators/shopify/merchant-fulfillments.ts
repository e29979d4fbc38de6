import type { Runtime } from './context'
import {
  fulfillmentOrderStatus,
  remainingQuantity,
  UNFINISHED,
  type FulfillmentOrderStatus,
} from './fulfillment-figures'
import {
  createFulfillment,
  holdFulfillmentOrder,
  releaseFulfillmentHold,
  updateTracking,
  type FulfillmentInput,
  type TrackingInput,
} from './fulfillments'
import {
  assignedLocation,
  type FulfillmentHoldReason,
  type FulfillmentHoldRecord,
  type FulfillmentRecord,
  type OrderRecord,
  type ShopRecord,
} from './state'

// What the merchant does to ship an order in the Shopify admin, for the emulator's test controls,
// and the fulfillments and fulfillment orders as those controls report them. The admin refuses
// what fulfillmentCreate refuses, with the same words; each change is announced as the mutation's
// is, and the promise settles once every subscription had its first attempt.

/** A fulfillment as the merchant sees it in the admin. */
export interface EmulatedFulfillment {
  id: string
  name: string
  status: FulfillmentRecord['status']
  tracking: FulfillmentRecord['trackingInfo']
  notifyCustomer: boolean
  /** The shipping emails the customer got: the creation's and each tracking update's. */
  customerNotifications: number
  lines: { lineItemId: string; variantId: string | null; quantity: number }[]
}

export interface EmulatedFulfillmentOrder {
  id: string
  /** The name of the location it is assigned to. */
  location: string
  status: FulfillmentOrderStatus
  holds: FulfillmentHoldRecord[]
  lines: { lineItemId: string; totalQuantity: number; remainingQuantity: number }[]
}

export const fulfillmentSummaries = (order: OrderRecord): EmulatedFulfillment[] =>
  order.fulfillments.map((fulfillment) => ({
    id: fulfillment.id,
    name: fulfillment.name,
    status: fulfillment.status,
    tracking: fulfillment.trackingInfo.map((info) => ({ ...info })),
    notifyCustomer: fulfillment.notifyCustomer,
    customerNotifications: fulfillment.customerNotifications,
    lines: fulfillment.lines.map(({ lineItemId, quantity }) => ({
      lineItemId,
      variantId: order.lines.find((line) => line.id === lineItemId)?.variantId ?? null,
      quantity,
    })),
  }))

export const fulfillmentOrderSummaries = (
  shop: ShopRecord,
  order: OrderRecord,
): EmulatedFulfillmentOrder[] =>
  order.fulfillmentOrders.map((fulfillmentOrder) => ({
    id: fulfillmentOrder.id,
    location: assignedLocation(shop, fulfillmentOrder).name,
    status: fulfillmentOrderStatus(order, fulfillmentOrder),
    holds: fulfillmentOrder.holds.map((hold) => ({ ...hold })),
    lines: fulfillmentOrder.lineItems.map((item) => ({
      lineItemId: item.lineItemId,
      totalQuantity: item.totalQuantity,
      remainingQuantity: remainingQuantity(order, item),
    })),
  }))

/**
 * Ships these units of the order's lines (all that is left when none are given); answers the
 * fulfillment's GID once fulfillments/create was first attempted.
 */
export async function fulfillInAdmin(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  options: {
    lines?: { lineItemId: string; quantity: number }[]
    tracking?: TrackingInput
    notifyCustomer: boolean
  },
): Promise<string> {
  const { lines } = options
  const byFulfillmentOrder = order.fulfillmentOrders.map((fulfillmentOrder) => ({
    fulfillmentOrderId: fulfillmentOrder.id,
    fulfillmentOrderLineItems: lines?.flatMap(({ lineItemId, quantity }) => {
      const item = fulfillmentOrder.lineItems.find((each) => each.lineItemId === lineItemId)
      return item ? [{ id: item.id, quantity }] : []
    }),
  }))
  const input: FulfillmentInput = {
    // Only the fulfillment orders that hold the units asked for.
    lineItemsByFulfillmentOrder: byFulfillmentOrder.filter(
      (each) => each.fulfillmentOrderLineItems?.length !== 0,
    ),
    notifyCustomer: options.notifyCustomer,
    trackingInfo: options.tracking,
  }
  const result = createFulfillment(runtime, shop, input)
  if ('error' in result) throw new Error(`Order ${order.name}: ${result.error.message}`)
  await result.announced
  return result.fulfillment.id
}

export async function updateTrackingInAdmin(
  runtime: Runtime,
  shop: ShopRecord,
  fulfillmentId: string,
  tracking: TrackingInput,
  notifyCustomer: boolean,
): Promise<void> {
  const result = updateTracking(runtime, shop, fulfillmentId, tracking, notifyCustomer)
  if ('error' in result) throw new Error(`${fulfillmentId}: ${result.error.message}`)
  await result.announced
}

/** Holds every fulfillment order of the order that has something left to ship. */
export async function holdInAdmin(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  hold: { reason: FulfillmentHoldReason; reasonNotes: string | null },
): Promise<void> {
  const unfinished = order.fulfillmentOrders.filter((fulfillmentOrder) =>
    UNFINISHED.includes(fulfillmentOrderStatus(order, fulfillmentOrder)),
  )
  if (unfinished.length === 0) throw new Error(`Order ${order.name} has nothing left to ship`)
  await Promise.all(
    unfinished.map((fulfillmentOrder) => {
      const result = holdFulfillmentOrder(runtime, shop, fulfillmentOrder.id, hold)
      if ('error' in result) throw new Error(`Order ${order.name}: ${result.error.message}`)
      return result.announced
    }),
  )
}

/** Releases the holds of every fulfillment order of the order that has any. */
export async function releaseInAdmin(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
): Promise<void> {
  const held = order.fulfillmentOrders.filter((fulfillmentOrder) => fulfillmentOrder.holds.length)
  if (held.length === 0) throw new Error(`Order ${order.name} is not on hold`)
  await Promise.all(
    held.map((fulfillmentOrder) => {
      const result = releaseFulfillmentHold(runtime, shop, fulfillmentOrder.id)
      if ('error' in result) throw new Error(`Order ${order.name}: ${result.error.message}`)
      return result.announced
    }),
  )
}
