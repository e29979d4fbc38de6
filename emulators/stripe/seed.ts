import {
  chargeOf,
  ORDERS,
  orderTotalMinor,
  PAYOUT_ACCOUNTS,
  paymentIntentOf,
  STRIPE_PAID_ORDERS,
} from '../../server/src/seed/sandbox-data'
import { unixSeconds, type EmulatorState } from './state'

// PRODUCT.md's sandbox as Stripe would hold it: the brands' connected accounts and the creator
// orders' PaymentIntents, under the ids the server's seed and the Shopify emulator's metafields use.

export function seedSandbox(state: EmulatorState, now: Date): void {
  const created = unixSeconds(now)
  for (const { accountId, email } of PAYOUT_ACCOUNTS)
    state.accounts[accountId] = { id: accountId, email, transfersActive: true, created }
  for (const orderId of STRIPE_PAID_ORDERS) {
    const order = ORDERS.find((candidate) => candidate.id === orderId)
    if (!order) throw new Error(`Stripe-paid order ${orderId} is not a seed order`)
    const id = paymentIntentOf(orderId)
    state.paymentIntents[id] = {
      id,
      amount: orderTotalMinor(order),
      currency: order.currency.toLowerCase(),
      status: 'succeeded',
      chargeId: chargeOf(orderId),
      created,
    }
  }
}
