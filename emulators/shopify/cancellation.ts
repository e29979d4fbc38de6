import { randomUUID } from 'node:crypto'
import { announceCancelled, announceRefund } from './announcements'
import type { Runtime } from './context'
import { fulfilledQuantity } from './fulfillment-figures'
import { currentQuantity, shippingLeftMinor } from './order-figures'
import { findOrder } from './orders'
import { firstSale, netPaymentMinor, receivedMinor } from './payments'
import { applyRefund, planLines, unfulfilledQuantity } from './refunds'
import {
  findVariant,
  gid,
  touch,
  type CancelReason,
  type RefundRecord,
  type ShopRecord,
} from './state'
import type { Timers } from './timers'

// orderCancel, with Shopify's refusals as captured on API 2026-04 and as documented on 2026-10
// ("An order can only be cancelled if it meets the following criteria: ... no pending payment
// authorizations, no active returns in progress, no outstanding fulfillments that can't be
// cancelled"). Shopify cancels in a job (OrderCancelPayload.job: "The job that asynchronously
// cancels the order"): the mutation answers `done: false`, and the order is cancelled only when
// the job runs, after a delay a test sets (CancelJobs), so that a read right after may still see
// it standing. `restock` restocks "the inventory committed to the order": its unfulfilled units.
// A cancellation that refunds gives back all the money left, as a refund of every unit left
// (refunds/create), before orders/cancelled. The merchant's cancel in the admin waits for its job.

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
  // The emulator cannot cancel a fulfillment, so every shipped unit is one that "can't be
  // cancelled" (the stricter reading; the words are the emulator's, as Shopify documents none). It
  // models no returns, which are of shipped units, nor payment authorizations: the two other
  // refusals never arise here.
  if (order.lines.some((line) => fulfilledQuantity(order, line.id) > 0)) {
    const message =
      'Cannot cancel an order with fulfillments that cannot be canceled: refund its fulfilled items instead'
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

/** orderCancel's jobs: each cancels its order once its delay has passed, then is done. */
export class CancelJobs {
  private readonly done = new Map<string, boolean>()

  constructor(
    private readonly timers: Timers,
    /** How long a job waits before it cancels; a test may change it. */
    public delayMs: number,
  ) {}

  /** A new job that runs `cancel` after the delay; its Job GID. */
  start(cancel: () => void): string {
    const id = gid('Job', randomUUID())
    this.done.set(id, false)
    this.timers.after(this.delayMs, () => {
      cancel()
      this.done.set(id, true)
    })
    return id
  }

  /** Query.job: null for an id no job of this process has. */
  view(id: string): { id: string; done: boolean } | null {
    const done = this.done.get(id)
    return done === undefined ? null : { id, done }
  }
}

/**
 * orderCancel: refuses at once what Shopify refuses, or answers the job that cancels. The job checks
 * again when it runs (another cancel may have come first) and then does nothing if refused.
 */
export function requestCancel(
  runtime: Runtime,
  shop: ShopRecord,
  args: CancelArgs,
): { jobId: string | null; userErrors: CancelUserError[] } {
  const refused = refusal(args, shop)
  if (refused) return { jobId: null, userErrors: [refused] }
  const jobId = runtime.cancelJobs.start(() => void cancelOrder(runtime, shop, args).announced)
  return { jobId, userErrors: [] }
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
    // Every unit left is refunded; `restock` puts back only the committed (unfulfilled) ones.
    const inputs = order.lines.flatMap((line) => {
      const committed = args.restock ? unfulfilledQuantity(order, line) : 0
      const parts = [
        { lineItemId: line.id, quantity: committed, restockType: 'CANCEL' as const },
        {
          lineItemId: line.id,
          quantity: currentQuantity(line) - committed,
          restockType: 'NO_RESTOCK' as const,
        },
      ]
      return parts.filter((part) => part.quantity > 0)
    })
    const planned = planLines(order, inputs)
    if ('error' in planned) throw new Error(`Order ${order.name}: ${planned.error.message}`)
    const amountMinor = netPaymentMinor(order)
    const sale = firstSale(order)
    const money = sale && amountMinor > 0 ? [{ parent: sale, amountMinor }] : []
    const plan = { lines: planned.lines, shippingMinor: shippingLeftMinor(order) }
    if (money.length > 0 || plan.lines.length > 0)
      refund = applyRefund(order, plan, money, { note: CANCELLATION_NOTE, shop })
  } else if (args.restock) {
    // The committed units back to stock; they stay on the order, which nothing refunded.
    for (const line of order.lines) {
      const found = line.variantId ? findVariant(shop, line.variantId) : undefined
      if (found) found.variant.inventoryQuantity += unfulfilledQuantity(order, line)
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
