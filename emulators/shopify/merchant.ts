import type { z } from 'zod'
import type { ShippingAddress } from '../../src/shared/contract'
import { announceRefund } from './announcements'
import type { Runtime } from './context'
import { displayFulfillmentStatus, type DisplayFulfillmentStatus } from './fulfillment-figures'
import { formatMinor } from './money'
import { firstSale } from './payments'
import {
  applyRefund,
  planLines,
  planShipping,
  suggestedAmountMinor,
  takesLastUnits,
  type RefundLineInput,
} from './refunds'
import {
  gid,
  type FinancialStatus,
  type OrderRecord,
  type RestockType,
  type ShopRecord,
} from './state'

// What the merchant does to an order in the Shopify admin, for the emulator's test controls, and
// the orders and refunds as those controls report them.

export interface EmulatedOrder {
  id: string
  name: string
  tags: string[]
  note: string | null
  email: string | null
  displayFinancialStatus: FinancialStatus
  displayFulfillmentStatus: DisplayFulfillmentStatus
  cancelledAt: string | null
  currency: string
  /** As the console's contract carries an address: the country as its code. */
  shippingAddress: z.infer<typeof ShippingAddress> | null
  lines: { variantId: string | null; title: string; quantity: number; unitPrice: string }[]
}

/** A refund as the shop keeps it: what it took back, what it gave back, and its note. */
export interface EmulatedRefund {
  id: string
  note: string | null
  /** The money given back, as Shopify writes it ("64.01"). */
  amount: string
  /** The shipping it took back. */
  shipping: string
  /** Each line by its position in the order (0 for the first). */
  lines: {
    line: number
    lineItemId: string
    quantity: number
    restockType: RestockType
    /** The location the units went back to, when the refund named one. */
    locationId: string | null
  }[]
  createdAt: string
}

/**
 * A refund from the admin: the admin suggests what the units cost (the last units of the order
 * take the rest back, shipping included) and gives it back through the order's payment. Throws
 * what the admin would not allow; resolves once refunds/create was attempted.
 */
export function refundInAdmin(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  lines: RefundLineInput[],
  note: string | null,
): Promise<void> {
  const planned = planLines(order, lines)
  if ('error' in planned) throw new Error(`Order ${order.name}: ${planned.error.message}`)
  const shipping = planShipping(order, { fullRefund: takesLastUnits(order, planned.lines) })
  if ('error' in shipping) throw new Error(`Order ${order.name}: ${shipping.error.message}`)
  const plan = { lines: planned.lines, shippingMinor: shipping.shippingMinor }
  const amountMinor = suggestedAmountMinor(order, plan)
  const sale = firstSale(order)
  const money = sale && amountMinor > 0 ? [{ parent: sale, amountMinor }] : []
  const refund = applyRefund(order, plan, money, { note, shop })
  runtime.save()
  return announceRefund(runtime, shop, order, refund)
}

export const orderSummary = (order: OrderRecord): EmulatedOrder => ({
  id: gid('Order', order.id),
  name: order.name,
  tags: order.tags,
  note: order.note,
  email: order.email,
  displayFinancialStatus: order.financialStatus,
  displayFulfillmentStatus: displayFulfillmentStatus(order),
  cancelledAt: order.cancelledAt,
  currency: order.currency,
  shippingAddress: order.shippingAddress && {
    firstName: order.shippingAddress.firstName,
    lastName: order.shippingAddress.lastName,
    address1: order.shippingAddress.address1,
    city: order.shippingAddress.city,
    zip: order.shippingAddress.zip,
    country: order.shippingAddress.countryCode,
  },
  lines: order.lines.map((line) => ({
    variantId: line.variantId,
    title: line.title,
    quantity: line.quantity,
    unitPrice: formatMinor(line.unitPriceMinor, order.currency),
  })),
})

export const refundSummaries = (order: OrderRecord): EmulatedRefund[] =>
  order.refunds.map((refund) => ({
    id: refund.id,
    note: refund.note,
    amount: formatMinor(refund.amountMinor, order.currency),
    shipping: formatMinor(refund.shippingMinor, order.currency),
    lines: refund.lines.map((line) => ({
      line: order.lines.findIndex((candidate) => candidate.id === line.lineItemId),
      lineItemId: line.lineItemId,
      quantity: line.quantity,
      restockType: line.restockType,
      locationId: line.locationId ?? null,
    })),
    createdAt: refund.createdAt,
  }))
