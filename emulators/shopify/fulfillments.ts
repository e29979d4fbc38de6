import type { Runtime } from './context'
import {
  announceFulfillment,
  announceHold,
  announceHoldReleased,
} from './fulfillment-announcements'
import { fulfillmentOrderStatus, remainingQuantity, UNFINISHED } from './fulfillment-figures'
import {
  gid,
  gidNumber,
  type EmulatorState,
  type FulfillmentHoldReason,
  type FulfillmentHoldRecord,
  type FulfillmentOrderRecord,
  type FulfillmentRecord,
  type OrderLineRecord,
  type OrderRecord,
  type ShopRecord,
  touch,
} from './state'

// Shipping an order, as a merchant-managed location does it on Shopify: each order gets one
// fulfillment order at the shop's one location, listing its lines; fulfillments ship units of it
// with tracking, holds stop them. What is left and the statuses are worked out
// (fulfillment-figures.ts), so cancelling an order cancels its unfinished fulfillment orders.
// fulfillmentCreate has no idempotency: the same input twice ships twice while units are left,
// which is exactly what Tandem must guard against.

export interface TrackingInput {
  company?: string | null
  number?: string | null
  url?: string | null
  numbers?: string[] | null
  urls?: string[] | null
}

/** FulfillmentInput, as far as the emulator reads it (originAddress is accepted). */
export interface FulfillmentInput {
  lineItemsByFulfillmentOrder: {
    fulfillmentOrderId: string
    /** All units left of the fulfillment order when absent. */
    fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null
  }[]
  notifyCustomer?: boolean | null
  trackingInfo?: TrackingInput | null
}

/** FulfillmentOrderHoldInput, as far as the emulator reads it (it notifies no one). */
export interface HoldInput {
  reason: FulfillmentHoldReason
  reasonNotes?: string | null
}

export interface FulfillmentUserError {
  field: string[] | null
  message: string
  /** The hold mutations' errors have codes, where Shopify gives one. */
  code?: 'FULFILLMENT_ORDER_NOT_FOUND'
}

interface Refusal {
  error: FulfillmentUserError
}

/** What a change made, to show and announce, or why it was refused, nothing changed then. */
type Outcome<Made> = (Made & { order: OrderRecord; announced: Promise<void> }) | Refusal

/** The fulfillment order a new order gets: every line, none shipped yet. */
export function newFulfillmentOrder(
  state: EmulatorState,
  lines: OrderLineRecord[],
): FulfillmentOrderRecord {
  return {
    id: gid('FulfillmentOrder', ++state.lastIds.fulfillmentOrder),
    lineItems: lines.map((line) => ({
      id: gid('FulfillmentOrderLineItem', ++state.lastIds.fulfillmentOrderLineItem),
      lineItemId: line.id,
      totalQuantity: line.quantity,
    })),
    holds: [],
  }
}

export function findFulfillmentOrder(shop: ShopRecord, id: string) {
  for (const order of shop.orders) {
    const fulfillmentOrder = order.fulfillmentOrders.find((fo) => fo.id === id)
    if (fulfillmentOrder) return { order, fulfillmentOrder }
  }
  return undefined
}

export function findFulfillment(shop: ShopRecord, id: string) {
  for (const order of shop.orders) {
    const fulfillment = order.fulfillments.find((candidate) => candidate.id === id)
    if (fulfillment) return { order, fulfillment }
  }
  return undefined
}

/** One tracking entry per number (or URL), all with the company; none when nothing is given. */
function trackingOf(input: TrackingInput | null | undefined): FulfillmentRecord['trackingInfo'] {
  const numbers = input?.numbers?.length ? input.numbers : input?.number ? [input.number] : []
  const urls = input?.urls?.length ? input.urls : input?.url ? [input.url] : []
  const count = Math.max(numbers.length, urls.length, input?.company ? 1 : 0)
  return Array.from({ length: count }, (_, i) => ({
    company: input?.company ?? null,
    number: numbers[i] ?? null,
    url: urls[i] ?? null,
  }))
}

const QUANTITY_REFUSED = 'Invalid fulfillment order line item quantity requested.'

/** The units the input ships, checked as Shopify checks them, or the first refusal. */
function planFulfillment(
  shop: ShopRecord,
  input: FulfillmentInput,
): { order: OrderRecord; lines: { lineItemId: string; quantity: number }[] } | Refusal {
  const refuse = (message: string) => ({ error: { field: ['fulfillment'], message } })
  const matches = []
  for (const byOrder of input.lineItemsByFulfillmentOrder) {
    const match = findFulfillmentOrder(shop, byOrder.fulfillmentOrderId)
    if (!match) return refuse('Fulfillment order does not exist.')
    matches.push({ ...match, fulfillmentOrderLineItems: byOrder.fulfillmentOrderLineItems })
  }
  const order = matches[0]?.order
  if (!order) return refuse('Fulfillment order does not exist.')
  if (matches.some((match) => match.order !== order))
    return refuse('All fulfillment orders must belong to the same order.')
  const wanted = new Map<FulfillmentOrderRecord['lineItems'][number], number>()
  for (const { fulfillmentOrder, fulfillmentOrderLineItems } of matches) {
    const status = fulfillmentOrderStatus(order, fulfillmentOrder)
    if (status !== 'OPEN' && status !== 'IN_PROGRESS') {
      const number = gidNumber(fulfillmentOrder.id, 'FulfillmentOrder')
      return refuse(
        `Fulfillment order ${number} has an unfulfillable status= ${status.toLowerCase()}.`,
      )
    }
    const asked =
      fulfillmentOrderLineItems ??
      fulfillmentOrder.lineItems
        .map((item) => ({ id: item.id, quantity: remainingQuantity(order, item) }))
        .filter((line) => line.quantity > 0)
    for (const { id, quantity } of asked) {
      const item = fulfillmentOrder.lineItems.find((candidate) => candidate.id === id)
      if (!item) return refuse(`Fulfillment order line item ${id} does not exist.`)
      const total = (wanted.get(item) ?? 0) + quantity
      if (quantity < 1 || total > remainingQuantity(order, item)) return refuse(QUANTITY_REFUSED)
      wanted.set(item, total)
    }
  }
  const lines = [...wanted].map(([item, quantity]) => ({ lineItemId: item.lineItemId, quantity }))
  return lines.length > 0 ? { order, lines } : refuse(QUANTITY_REFUSED)
}

/**
 * Ships the units, or answers why not, changing nothing then. `announced` settles once
 * fulfillments/create had its first attempts.
 */
export function createFulfillment(
  runtime: Runtime,
  shop: ShopRecord,
  input: FulfillmentInput,
): Outcome<{ fulfillment: FulfillmentRecord }> {
  const plan = planFulfillment(shop, input)
  if ('error' in plan) return plan
  const { order } = plan
  const { lastIds } = runtime.state
  const now = new Date().toISOString()
  const notifyCustomer = input.notifyCustomer ?? false
  const fulfillment: FulfillmentRecord = {
    id: gid('Fulfillment', ++lastIds.fulfillment),
    name: `${order.name}-F${order.fulfillments.length + 1}`,
    status: 'SUCCESS',
    createdAt: now,
    updatedAt: now,
    trackingInfo: trackingOf(input.trackingInfo),
    lines: plan.lines.map((line) => ({
      id: gid('FulfillmentLineItem', ++lastIds.fulfillmentLineItem),
      ...line,
    })),
    notifyCustomer,
    customerNotifications: notifyCustomer ? 1 : 0,
  }
  order.fulfillments.push(fulfillment)
  touch(order)
  runtime.save()
  const announced = announceFulfillment(runtime, shop, order, fulfillment, 'create')
  return { fulfillment, order, announced }
}

/** Replaces the tracking of a fulfillment that stands; fulfillments/update announces it. */
export function updateTracking(
  runtime: Runtime,
  shop: ShopRecord,
  fulfillmentId: string,
  tracking: TrackingInput,
  notifyCustomer: boolean,
): Outcome<{ fulfillment: FulfillmentRecord }> {
  const found = findFulfillment(shop, fulfillmentId)
  if (!found) return { error: { field: ['fulfillmentId'], message: 'Fulfillment not found.' } }
  const { order, fulfillment } = found
  if (fulfillment.status === 'CANCELLED') {
    const message = 'Tracking information cannot be updated on a cancelled fulfillment.'
    return { error: { field: ['fulfillmentId'], message } }
  }
  fulfillment.trackingInfo = trackingOf(tracking)
  fulfillment.updatedAt = new Date().toISOString()
  if (notifyCustomer) fulfillment.customerNotifications += 1
  touch(order)
  runtime.save()
  const announced = announceFulfillment(runtime, shop, order, fulfillment, 'update')
  return { fulfillment, order, announced }
}

const NOT_FOUND: FulfillmentUserError = {
  field: ['id'],
  message: 'The fulfillment order could not be found.',
  code: 'FULFILLMENT_ORDER_NOT_FOUND',
}

/** Puts a hold on a fulfillment order with something left to ship; it may hold several. */
export function holdFulfillmentOrder(
  runtime: Runtime,
  shop: ShopRecord,
  id: string,
  hold: HoldInput,
): Outcome<{ fulfillmentOrder: FulfillmentOrderRecord; hold: FulfillmentHoldRecord }> {
  const found = findFulfillmentOrder(shop, id)
  if (!found) return { error: NOT_FOUND }
  const { order, fulfillmentOrder } = found
  if (!UNFINISHED.includes(fulfillmentOrderStatus(order, fulfillmentOrder)))
    return { error: { field: ['id'], message: 'The fulfillment order cannot be put on hold.' } }
  const record = {
    id: gid('FulfillmentHold', ++runtime.state.lastIds.fulfillmentHold),
    reason: hold.reason,
    reasonNotes: hold.reasonNotes ?? null,
  }
  fulfillmentOrder.holds.push(record)
  touch(order)
  runtime.save()
  const announced = announceHold(runtime, shop, order, fulfillmentOrder, record)
  return { order, fulfillmentOrder, hold: record, announced }
}

/** Releases every hold of the fulfillment order. */
export function releaseFulfillmentHold(
  runtime: Runtime,
  shop: ShopRecord,
  id: string,
): Outcome<{ fulfillmentOrder: FulfillmentOrderRecord }> {
  const found = findFulfillmentOrder(shop, id)
  if (!found) return { error: NOT_FOUND }
  const { order, fulfillmentOrder } = found
  if (fulfillmentOrder.holds.length === 0)
    return { error: { field: ['id'], message: 'The fulfillment order is not on hold.' } }
  fulfillmentOrder.holds = []
  touch(order)
  runtime.save()
  const announced = announceHoldReleased(runtime, shop, order, fulfillmentOrder)
  return { order, fulfillmentOrder, announced }
}
