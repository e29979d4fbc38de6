import type { OrderLineRecord, OrderRecord } from './state'

// An order's figures, worked out from its lines: what was ordered, what each unit cost after its
// discounts, what is left of it. Pure arithmetic in minor units, shared by the views, the refunds
// and the webhook bodies.

/** What every discount took off the line, for its ordered quantity. */
export const lineDiscountMinor = (line: OrderLineRecord) =>
  line.discountAllocations.reduce((sum, allocation) => sum + allocation.amountMinor, 0)

export const currentQuantity = (line: OrderLineRecord) => line.quantity - line.removedQuantity

/** As ordered: the subtotal after every discount, then tax and shipping. */
export function orderTotals(order: OrderRecord) {
  const subtotalMinor = order.lines.reduce(
    (sum, line) => sum + line.quantity * line.unitPriceMinor - lineDiscountMinor(line),
    0,
  )
  const discountsMinor = order.lines.reduce((sum, line) => sum + lineDiscountMinor(line), 0)
  const totalMinor = subtotalMinor + order.taxMinor + order.shippingMinor
  return { subtotalMinor, discountsMinor, totalMinor }
}

/**
 * What the first `units` units of a line cost after its discounts. Rounded down, and counted from
 * the first unit, so that the units of successive refunds add up to the line's total exactly.
 */
export const unitsValueMinor = (line: OrderLineRecord, units: number) =>
  Math.floor(
    ((line.quantity * line.unitPriceMinor - lineDiscountMinor(line)) * units) / line.quantity,
  )

/** What `quantity` more units of a line cost, after those already taken off it. */
export const nextUnitsValueMinor = (line: OrderLineRecord, quantity: number) =>
  unitsValueMinor(line, line.removedQuantity + quantity) -
  unitsValueMinor(line, line.removedQuantity)

/** Shipping not yet refunded. */
export const shippingLeftMinor = (order: OrderRecord) =>
  order.shippingMinor - order.refunds.reduce((sum, refund) => sum + refund.shippingMinor, 0)
