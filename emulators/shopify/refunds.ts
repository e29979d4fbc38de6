import { announceRefund } from './announcements'
import type { Runtime } from './context'
import { parseMinor, moneyText } from './money'
import { fulfilledQuantity } from './fulfillment-figures'
import { currentQuantity, orderTotals, shippingLeftMinor, unitsValueMinor } from './order-figures'
import { findOrder } from './orders'
import { netPaymentMinor, recordRefund, refundedMinor, settleFinancialStatus } from './payments'
import {
  findVariant,
  gid,
  touch,
  type OrderLineRecord,
  type OrderRecord,
  type RefundRecord,
  type RestockType,
  type ShopRecord,
  type TransactionRecord,
} from './state'

// Refunds as Shopify makes them (refundCreate, the merchant in the admin, a cancellation with a
// refund). A refund records what went back (units of lines, shipping) and, separately, the money
// that went back: its REFUND transactions. Shopify moves money only through them, so a refundCreate
// that names lines but no transactions gives nothing back; Order.suggestedRefund works out the
// amount a set of lines is worth, as the admin does before it refunds.

export interface RefundLineInput {
  lineItemId: string
  quantity: number
  restockType?: RestockType | null
  /** Where restocked units go; the emulator keeps one stock per variant, so it only records it. */
  locationId?: string | null
}

export interface ShippingRefundInput {
  amount?: string | number | null
  fullRefund?: boolean | null
}

export interface RefundTransactionInput {
  amount: string | number
  gateway: string
  kind: string
  orderId: string
  parentId?: string | null
}

/** RefundInput, as far as the emulator reads it (notify, processedAt and the rest are accepted). */
export interface RefundInput {
  orderId: string
  note?: string | null
  shipping?: ShippingRefundInput | null
  refundLineItems?: RefundLineInput[] | null
  transactions?: RefundTransactionInput[] | null
}

export interface UserError {
  field: string[] | null
  message: string
}

/** What a refund takes back: units of lines, each with what they cost, and shipping. */
export interface RefundPlan {
  lines: {
    line: OrderLineRecord
    quantity: number
    restockType: RestockType
    locationId: string | null
    subtotalMinor: number
  }[]
  shippingMinor: number
}

/**
 * The units of a line still on the order that never shipped (LineItem.unfulfilledQuantity): what
 * is left of it, less what shipped and was not returned since.
 */
export function unfulfilledQuantity(order: OrderRecord, line: OrderLineRecord): number {
  const returned = order.refunds
    .flatMap((refund) => refund.lines)
    .filter((refunded) => refunded.lineItemId === line.id && refunded.restockType === 'RETURN')
    .reduce((sum, refunded) => sum + refunded.quantity, 0)
  const shippedLeft = Math.max(0, fulfilledQuantity(order, line.id) - returned)
  return Math.max(0, currentQuantity(line) - shippedLeft)
}

/** The lines asked for, checked against what is left of each, or the first error Shopify gives. */
export function planLines(
  order: OrderRecord,
  inputs: RefundLineInput[],
): { lines: RefundPlan['lines'] } | { error: UserError } {
  const taken = new Map<OrderLineRecord, number>()
  const cancelled = new Map<OrderLineRecord, number>()
  const lines: RefundPlan['lines'] = []
  for (const [i, input] of inputs.entries()) {
    const field = (name: string) => ['refundLineItems', String(i), name]
    const line = order.lines.find((candidate) => candidate.id === input.lineItemId)
    if (!line) return { error: { field: field('lineItemId'), message: 'Line item does not exist' } }
    if (input.quantity < 1)
      return { error: { field: field('quantity'), message: 'Quantity must be greater than 0' } }
    const before = taken.get(line) ?? 0
    if (before + input.quantity > currentQuantity(line)) {
      const message = 'Quantity cannot refund more items than were purchased'
      return { error: { field: field('quantity'), message } }
    }
    const restockType = input.restockType ?? 'NO_RESTOCK'
    if (restockType === 'LEGACY_RESTOCK') {
      const message = 'Restock type legacy_restock is not accepted for new refunds'
      return { error: { field: field('restockType'), message } }
    }
    // RefundLineItemRestockType (Admin GraphQL 2026-10): CANCEL is "for restocking unfulfilled
    // line items", RETURN for "line items that were fulfilled". Shopify's refusal of CANCEL for
    // shipped units is not documented, nor its words: the stricter reading, in a sentence of the
    // emulator's own that says what to send instead.
    const cancelledBefore = cancelled.get(line) ?? 0
    if (restockType === 'CANCEL') {
      const unfulfilled = unfulfilledQuantity(order, line)
      if (cancelledBefore + input.quantity > unfulfilled) {
        const message = `Restock type cancel only restocks unfulfilled items, and this line item has ${unfulfilled} unfulfilled: refund fulfilled items with restock type return (at a location) or no_restock`
        return { error: { field: field('restockType'), message } }
      }
      cancelled.set(line, cancelledBefore + input.quantity)
    }
    taken.set(line, before + input.quantity)
    const removed = line.removedQuantity + before
    const subtotalMinor =
      unitsValueMinor(line, removed + input.quantity) - unitsValueMinor(line, removed)
    const locationId = restockType === 'NO_RESTOCK' ? null : (input.locationId ?? null)
    lines.push({ line, quantity: input.quantity, restockType, locationId, subtotalMinor })
  }
  return { lines }
}

/** The shipping asked for: all that is left of it, or an amount no greater than that. */
export function planShipping(
  order: OrderRecord,
  shipping: ShippingRefundInput | null | undefined,
): { shippingMinor: number } | { error: UserError } {
  const left = shippingLeftMinor(order)
  if (shipping?.fullRefund) return { shippingMinor: left }
  if (shipping?.amount == null) return { shippingMinor: 0 }
  const amount = parseMinor(shipping.amount, order.currency)
  if (amount === null || amount < 0)
    return { error: { field: ['shipping', 'amount'], message: 'Amount is invalid' } }
  if (amount > left) {
    const message = `Shipping refund amount ${moneyText(amount, order.currency)} is greater than the refundable shipping ${moneyText(left, order.currency)}`
    return { error: { field: ['shipping', 'amount'], message } }
  }
  return { shippingMinor: amount }
}

/**
 * What the admin suggests refunding for a plan: what its units cost after their discounts, and
 * its shipping. The refund that takes the last units of the order gives back the rest of it too
 * (its tax, and what edits took off), as the emulator keeps tax for the whole order. Never more
 * than the customer paid and did not get back.
 */
export function suggestedAmountMinor(order: OrderRecord, plan: RefundPlan): number {
  const linesMinor = takesLastUnits(order, plan.lines)
    ? orderTotals(order).totalMinor - refundedMinor(order) - shippingLeftMinor(order)
    : plan.lines.reduce((sum, p) => sum + p.subtotalMinor, 0)
  return Math.max(0, Math.min(linesMinor + plan.shippingMinor, netPaymentMinor(order)))
}

/** Whether these lines are all the units the order has left. */
export function takesLastUnits(order: OrderRecord, lines: RefundPlan['lines']): boolean {
  const planned = (line: OrderLineRecord) =>
    lines.filter((p) => p.line === line).reduce((sum, p) => sum + p.quantity, 0)
  return lines.length > 0 && order.lines.every((line) => currentQuantity(line) === planned(line))
}

/** The money to give back, from refundCreate's transactions, or the first error Shopify gives. */
function planMoney(
  order: OrderRecord,
  inputs: RefundTransactionInput[],
): { money: { parent: TransactionRecord; amountMinor: number }[] } | { error: UserError } {
  const money: { parent: TransactionRecord; amountMinor: number }[] = []
  for (const input of inputs) {
    if (input.kind !== 'REFUND') {
      const message = `Kind ${input.kind.toLowerCase()} is not a valid transaction`
      return { error: { field: null, message } }
    }
    // Shopify gives the money back through the parent's gateway, whatever the input names.
    const parent = order.transactions.find((t) => t.id === input.parentId && t.kind === 'SALE')
    if (!parent) {
      const message = 'Transactions require a parent_id associated with the order'
      return { error: { field: ['transactions'], message } }
    }
    const amountMinor = parseMinor(input.amount, order.currency)
    if (amountMinor === null || amountMinor <= 0)
      return { error: { field: ['transactions'], message: 'Amount must be greater than 0' } }
    money.push({ parent, amountMinor })
  }
  return { money }
}

/** More money back than the customer paid and did not get back yet is refused. */
function overRefund(order: OrderRecord, money: { amountMinor: number }[]): UserError | null {
  const total = money.reduce((sum, m) => sum + m.amountMinor, 0)
  const net = netPaymentMinor(order)
  if (total <= net) return null
  // allowOverRefunding does not lift this for a manual payment (captured on Shopify, 2025-01).
  const message = `Refund amount ${moneyText(total, order.currency)} is greater than net payment received ${moneyText(net, order.currency)}`
  return { field: null, message }
}

/**
 * refundCreate: every check first, so that a refused refund changes nothing; then the refund,
 * announced on refunds/create without waiting for the delivery.
 */
export function createRefund(
  runtime: Runtime,
  shop: ShopRecord,
  input: RefundInput,
): { order: OrderRecord | null; refund: RefundRecord | null; userErrors: UserError[] } {
  const order = findOrder(shop, input.orderId)
  if (!order)
    return {
      order: null,
      refund: null,
      userErrors: [{ field: ['orderId'], message: 'Order does not exist' }],
    }
  const refused = (error: UserError) => ({ order, refund: null, userErrors: [error] })
  const money = planMoney(order, input.transactions ?? [])
  if ('error' in money) return refused(money.error)
  const lines = planLines(order, input.refundLineItems ?? [])
  if ('error' in lines) return refused(lines.error)
  const shipping = planShipping(order, input.shipping)
  if ('error' in shipping) return refused(shipping.error)
  const tooMuch = overRefund(order, money.money)
  if (tooMuch) return refused(tooMuch)
  // RefundInput (Admin GraphQL 2026-10) lists what a refund gives back (line items, shipping,
  // transactions) and says nothing of a refund of none; Shopify's admin makes none. The stricter
  // reading: refused, in a sentence of the emulator's own.
  if (lines.lines.length === 0 && money.money.length === 0 && shipping.shippingMinor === 0) {
    const message =
      'A refund must give something back: refund line items, shipping or a transaction'
    return refused({ field: null, message })
  }

  const refund = applyRefund(order, { lines: lines.lines, ...shipping }, money.money, {
    note: input.note ?? null,
    shop,
  })
  runtime.save()
  void announceRefund(runtime, shop, order, refund)
  return { order, refund, userErrors: [] }
}

/**
 * Makes a planned refund, unchecked: the units leave their lines (and go back to stock when
 * returned or cancelled), the money goes back through the given payments, the status follows.
 * The caller saves and announces.
 */
export function applyRefund(
  order: OrderRecord,
  plan: RefundPlan,
  money: { parent: TransactionRecord; amountMinor: number }[],
  { note, shop }: { note: string | null; shop: ShopRecord },
): RefundRecord {
  const number = order.id * 100 + order.refunds.length + 1
  const lastUnits = takesLastUnits(order, plan.lines)
  const transactions = money.map(({ parent, amountMinor }) =>
    recordRefund(order, parent, amountMinor),
  )
  const refund: RefundRecord = {
    id: gid('Refund', number),
    createdAt: new Date().toISOString(),
    note,
    amountMinor: transactions.reduce((sum, t) => sum + t.amountMinor, 0),
    lines: plan.lines.map(({ line, quantity, restockType, locationId, subtotalMinor }, i) => ({
      id: gid('RefundLineItem', number * 100 + i + 1),
      lineItemId: line.id,
      quantity,
      restockType,
      locationId,
      subtotalMinor,
      taxMinor: lastUnits && i === 0 ? order.taxMinor : 0,
    })),
    shippingMinor: plan.shippingMinor,
    transactionIds: transactions.map((t) => t.id),
  }
  for (const { line, quantity, restockType } of plan.lines) {
    line.removedQuantity += quantity
    const restocks = restockType === 'RETURN' || restockType === 'CANCEL'
    const found = line.variantId ? findVariant(shop, line.variantId) : undefined
    if (restocks && found) found.variant.inventoryQuantity += quantity
  }
  order.refunds.push(refund)
  settleFinancialStatus(order)
  touch(order)
  return refund
}
