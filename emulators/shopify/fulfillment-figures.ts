import type { FulfillmentOrderRecord, OrderRecord } from './state'

// An order's shipping figures, worked out from its fulfillment orders and fulfillments: what each
// line shipped, what is left to ship, and the statuses Shopify shows for them. Nothing of it is
// kept, so that edits, refunds and cancellation change it without touching the fulfillment orders.

/** Shopify's FulfillmentOrderStatus, of which the emulator produces the first five. */
export type FulfillmentOrderStatus =
  'OPEN' | 'IN_PROGRESS' | 'ON_HOLD' | 'CLOSED' | 'CANCELLED' | 'INCOMPLETE' | 'SCHEDULED'

/** The statuses of a fulfillment order with units still to ship. */
export const UNFINISHED: FulfillmentOrderStatus[] = ['OPEN', 'IN_PROGRESS', 'ON_HOLD']

/** What the emulator can make of Shopify's OrderDisplayFulfillmentStatus. */
export type DisplayFulfillmentStatus =
  'UNFULFILLED' | 'PARTIALLY_FULFILLED' | 'FULFILLED' | 'ON_HOLD'

/** The units of an order line that successful fulfillments shipped. */
export const fulfilledQuantity = (order: OrderRecord, lineItemId: string) =>
  order.fulfillments
    .filter((fulfillment) => fulfillment.status === 'SUCCESS')
    .flatMap((fulfillment) => fulfillment.lines)
    .filter((line) => line.lineItemId === lineItemId)
    .reduce((sum, line) => sum + line.quantity, 0)

/**
 * What is left to ship of a fulfillment order line. Units taken off the order come out of what
 * was not shipped yet, so a refund of shipped units leaves nothing less than none.
 */
export function remainingQuantity(
  order: OrderRecord,
  item: FulfillmentOrderRecord['lineItems'][number],
): number {
  const removed = order.lines.find((line) => line.id === item.lineItemId)?.removedQuantity ?? 0
  return Math.max(0, item.totalQuantity - fulfilledQuantity(order, item.lineItemId) - removed)
}

export function fulfillmentOrderStatus(
  order: OrderRecord,
  fulfillmentOrder: FulfillmentOrderRecord,
): FulfillmentOrderStatus {
  const left = fulfillmentOrder.lineItems.reduce(
    (sum, item) => sum + remainingQuantity(order, item),
    0,
  )
  const shipped = fulfillmentOrder.lineItems.some(
    (item) => fulfilledQuantity(order, item.lineItemId) > 0,
  )
  // Fully shipped, it stays closed even if the order is cancelled after.
  if (left === 0 && shipped) return 'CLOSED'
  if (order.cancelledAt) return 'CANCELLED'
  if (left === 0) return 'CLOSED'
  if (fulfillmentOrder.holds.length > 0) return 'ON_HOLD'
  return shipped ? 'IN_PROGRESS' : 'OPEN'
}

/** Shopify's OrderDisplayFulfillmentStatus, as far as one location's fulfillment orders go. */
export function displayFulfillmentStatus(order: OrderRecord): DisplayFulfillmentStatus {
  const statuses = order.fulfillmentOrders.map((fo) => fulfillmentOrderStatus(order, fo))
  const open = statuses.filter((status) => UNFINISHED.includes(status))
  if (open.length > 0 && open.every((status) => status === 'ON_HOLD')) return 'ON_HOLD'
  const items = order.fulfillmentOrders.flatMap((fo) => fo.lineItems)
  if (!items.some((item) => fulfilledQuantity(order, item.lineItemId) > 0)) return 'UNFULFILLED'
  const left = items.some((item) => remainingQuantity(order, item) > 0)
  return left ? 'PARTIALLY_FULFILLED' : 'FULFILLED'
}
