import { announceCancelled, announceRefund } from './announcements'
import type { Runtime } from './context'
import { currentQuantity, shippingLeftMinor } from './order-figures'
import { findOrder } from './orders'
import { firstSale, netPaymentMinor, receivedMinor } from './payments'
import { applyRefund, planLines } from './refunds'
import {
  findVariant,
  touch,
  type CancelReason,
  type RefundRecord,
  type ShopRecord,
} from './state'

// orderCancel, with Shopify's refusals as captured on API 2026-04. Shopify cancels in a job and
// answers `done: false`; the emulator cancels at once, so a read right after sees the order
// cancelled, as one does on Shopify a moment later. A cancellation that refunds gives back all the
// money left, as a refund of every unit left (refunds/create), before orders/cancelled.

export interface CancelArgs {
  orderId: string
  /** Deprecated by Shopify for refundMethod; only one of the two may be given. */
  refund?: boolean | null
  refundMethod?: {
    originalPaymentMethodsRefund?: boolean | null
    storeCreditRefund?: { expiresAt?: string | null } | null
  } | null
  restock: boolean
  reason: CancelReason
  notifyCustomer?: boolean | null
  staffNote?: string | null
}

export interface CancelUserError {
  field: string[] | null
  message: string
  code: 'INVALID' | 'NOT_FOUND' | 'STORE_CREDIT_REFUND_MISSING_CUSTOMER'
}

/** The note Shopify gives the refund a cancellation makes. */
const CANCELLATION_NOTE = 'Order canceled'
const MAX_STAFF_NOTE = 255

function refusal(args: CancelArgs, shop: ShopRecord): CancelUserError | null {
  const order = findOrder(shop, args.orderId)
  if (!order) return { field: ['orderId'], message: 'Order does not exist', code: 'NOT_FOUND' }
  if (args.refund != null && args.refundMethod != null) {
    const message = 'Only one of the arguments `refund` or `refund_method` is allowed.'
    return { field: ['refund'], message, code: 'INVALID' }
  }
  if ((args.staffNote ?? '').length > MAX_STAFF_NOTE) {
    const message = `Staff note is too long. Maximum length is ${MAX_STAFF_NOTE} characters.`
    return { field: ['staffNote'], message, code: 'INVALID' }
  }
  if (order.cancelledAt) {
    const message = 'Cannot cancel an order that has already been canceled'
    return { field: ['orderId'], message, code: 'INVALID' }
  }
  // Store credit goes to a customer, and the emulator's orders have none.
  if (args.refundMethod?.storeCreditRefund) {
    const message = 'Store credit can only be issued to an order with a customer'
    return {
      field: ['refundMethod', 'storeCreditRefund'],
      message,
      code: 'STORE_CREDIT_REFUND_MISSING_CUSTOMER',
    }
  }
  return null
}

/**
 * Cancels, or answers why not, changing nothing then. `announced` settles once refunds/create (if
 * it refunded) and orders/cancelled had their first attempts.
 */
export function cancelOrder(
  runtime: Runtime,
  shop: ShopRecord,
  args: CancelArgs,
): { userErrors: CancelUserError[]; announced: Promise<void> } {
  const refused = refusal(args, shop)
  const order = findOrder(shop, args.orderId)
  if (refused || !order)
    return { userErrors: refused ? [refused] : [], announced: Promise.resolve() }

  const refunds = args.refund === true || args.refundMethod?.originalPaymentMethodsRefund === true
  let refund: RefundRecord | undefined
  if (refunds && receivedMinor(order) > 0) {
    const left = order.lines.filter((line) => currentQuantity(line) > 0)
    const restockType = args.restock ? ('CANCEL' as const) : ('NO_RESTOCK' as const)
    const inputs = left.map((line) => ({
      lineItemId: line.id,
      quantity: currentQuantity(line),
      restockType,
    }))
    const planned = planLines(order, inputs)
    if ('error' in planned) throw new Error(`Order ${order.name}: ${planned.error.message}`)
    const amountMinor = netPaymentMinor(order)
    const sale = firstSale(order)
    const money = sale && amountMinor > 0 ? [{ parent: sale, amountMinor }] : []
    const plan = { lines: planned.lines, shippingMinor: shippingLeftMinor(order) }
    if (money.length > 0 || plan.lines.length > 0)
      refund = applyRefund(order, plan, money, { note: CANCELLATION_NOTE, shop })
  } else if (args.restock) {
    // Units back to stock; they stay on the order, which nothing refunded.
    for (const line of order.lines) {
      const found = line.variantId ? findVariant(shop, line.variantId) : undefined
      if (found) found.variant.inventoryQuantity += currentQuantity(line)
    }
  }
  const now = new Date().toISOString()
  order.cancelledAt = now
  order.closedAt = now
  order.cancelReason = args.reason
  order.cancelStaffNote = args.staffNote ?? null
  touch(order)
  runtime.save()
  const announced = (async () => {
    if (refund) await announceRefund(runtime, shop, order, refund)
    await announceCancelled(runtime, shop, order)
  })()
  return { userErrors: [], announced }
}
