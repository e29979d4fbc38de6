import { EVERY_KIND, kindOf, type Reach } from './access'
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

// Shipping an order, as Shopify does it: each order gets a fulfillment order per location its
// lines are assigned to (the shop's own, merchant-managed, or a fulfillment service's, for the
// variants it stocks), listing those lines; fulfillments ship units of them with tracking, holds
// stop them. A request reaches only the fulfillment orders its scopes cover (access.ts): one out
// of its reach is not found, and the admin's controls reach them all. What is left and the statuses are worked out
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

/** A fulfillment order of these lines, none shipped yet, at the location (absent: the shop's). */
export function newFulfillmentOrder(
  state: EmulatorState,
  lines: OrderLineRecord[],
  locationId?: string,
): FulfillmentOrderRecord {
  return {
    id: gid('FulfillmentOrder', ++state.lastIds.fulfillmentOrder),
    ...(locationId ? { locationId } : {}),
    lineItems: lines.map((line) => ({
      id: gid('FulfillmentOrderLineItem', ++state.lastIds.fulfillmentOrderLineItem),
      lineItemId: line.id,
      totalQuantity: line.quantity,
    })),
    holds: [],
  }
}

/**
 * The fulfillment orders new lines get: those of variants a fulfillment service stocks at its
 * location, the rest at the shop's own; the shop's first when it has lines.
 */
export function newFulfillmentOrders(
  state: EmulatorState,
  shop: ShopRecord,
  lines: OrderLineRecord[],
): FulfillmentOrderRecord[] {
  const services = shop.serviceLocations ?? []
  const serviceOf = (line: OrderLineRecord) =>
    services.find((location) => line.variantId && location.variantIds.includes(line.variantId))
  const own = lines.filter((line) => !serviceOf(line))
  return [
    ...(own.length > 0 || lines.length === 0 ? [newFulfillmentOrder(state, own)] : []),
    ...services.flatMap((location) => {
      const stocked = lines.filter((line) => serviceOf(line) === location)
      return stocked.length > 0 ? [newFulfillmentOrder(state, stocked, location.id)] : []
    }),
  ]
}

export function findFulfillmentOrder(shop: ShopRecord, id: string, reach: Reach = EVERY_KIND) {
  for (const order of shop.orders) {
    const fulfillmentOrder = order.fulfillmentOrders.find((fo) => fo.id === id)
    if (fulfillmentOrder)
      return reach(kindOf(fulfillmentOrder)) ? { order, fulfillmentOrder } : undefined
  }
  return undefined
}

export function findFulfillment(shop: ShopRecord, id: string, reach: Reach = EVERY_KIND) {
  for (const order of shop.orders) {
    const fulfillment = order.fulfillments.find((candidate) => candidate.id === id)
    if (fulfillment) return reach(kindOf(fulfillment)) ? { order, fulfillment } : undefined
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
  reach: Reach,
):
  | { order: OrderRecord; locationId?: string; lines: { lineItemId: string; quantity: number }[] }
  | Refusal {
  const refuse = (message: string) => ({ error: { field: ['fulfillment'], message } })
  const matches = []
  for (const byOrder of input.lineItemsByFulfillmentOrder) {
    const match = findFulfillmentOrder(shop, byOrder.fulfillmentOrderId, reach)
    if (!match) return refuse('Fulfillment order does not exist.')
    matches.push({ ...match, fulfillmentOrderLineItems: byOrder.fulfillmentOrderLineItems })
  }
  const order = matches[0]?.order
  if (!order) return refuse('Fulfillment order does not exist.')
  if (matches.some((match) => match.order !== order))
    return refuse('All fulfillment orders must belong to the same order.')
  // "The fulfillment orders are associated with the same order and are assigned to the same
  // location" (fulfillmentCreate, Admin GraphQL 2026-10).
  const { locationId } = matches[0]!.fulfillmentOrder
  if (matches.some((match) => match.fulfillmentOrder.locationId !== locationId))
    return refuse('All fulfillment orders must be assigned to the same location.')
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
  return lines.length > 0 ? { order, locationId, lines } : refuse(QUANTITY_REFUSED)
}

/**
 * Ships the units, or answers why not, changing nothing then. `announced` settles once
 * fulfillments/create had its first attempts.
 */
export function createFulfillment(
  runtime: Runtime,
  shop: ShopRecord,
  input: FulfillmentInput,
  reach: Reach = EVERY_KIND,
): Outcome<{ fulfillment: FulfillmentRecord }> {
  const plan = planFulfillment(shop, input, reach)
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
    ...(plan.locationId ? { locationId: plan.locationId } : {}),
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
  reach: Reach = EVERY_KIND,
): Outcome<{ fulfillment: FulfillmentRecord }> {
  const found = findFulfillment(shop, fulfillmentId, reach)
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
  reach: Reach = EVERY_KIND,
): Outcome<{ fulfillmentOrder: FulfillmentOrderRecord; hold: FulfillmentHoldRecord }> {
  const found = findFulfillmentOrder(shop, id, reach)
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

/**
 * Releases the holds named, or every hold of the fulfillment order when none are named
 * (fulfillmentOrderReleaseHold's `holdIds`, Admin GraphQL 2026-10: "Holds will only be released if
 * they belong to the fulfillment order specified by the id argument. If not supplied, all holds
 * for the fulfillment order will be released"). Shopify does not say what naming none of its
 * holds answers; the emulator takes the stricter reading and refuses it. fulfillment_orders/
 * hold_released is announced once no hold is left: until then the order stays on hold.
 */
export function releaseFulfillmentHold(
  runtime: Runtime,
  shop: ShopRecord,
  id: string,
  { holdIds, reach = EVERY_KIND }: { holdIds?: string[] | null; reach?: Reach } = {},
): Outcome<{ fulfillmentOrder: FulfillmentOrderRecord }> {
  const found = findFulfillmentOrder(shop, id, reach)
  if (!found) return { error: NOT_FOUND }
  const { order, fulfillmentOrder } = found
  if (fulfillmentOrder.holds.length === 0)
    return { error: { field: ['id'], message: 'The fulfillment order is not on hold.' } }
  const released = (hold: FulfillmentHoldRecord) => !holdIds || holdIds.includes(hold.id)
  if (!fulfillmentOrder.holds.some(released)) {
    const message = 'None of the holds given belong to the fulfillment order.'
    return { error: { field: ['holdIds'], message } }
  }
  fulfillmentOrder.holds = fulfillmentOrder.holds.filter((hold) => !released(hold))
  touch(order)
  runtime.save()
  const announced =
    fulfillmentOrder.holds.length === 0
      ? announceHoldReleased(runtime, shop, order, fulfillmentOrder)
      : Promise.resolve()
  return { order, fulfillmentOrder, announced }
}
