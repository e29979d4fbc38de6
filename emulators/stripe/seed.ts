import {
  chargeOf,
  ORDERS,
  orderTotalMinor,
  CREATOR_STRIPE_ACCOUNTS,
  PAYOUT_ACCOUNTS,
  paymentIntentOf,
  STRIPE_PAID_ORDERS,
} from '../../server/src/seed/sandbox-data'
import { PAYMENT_INTENT_METADATA } from '../../server/src/adapters/payments/payments-port'
import { creditCharge } from './balance'
import { settle } from './charges'
import { unixSeconds, type PaymentIntentRecord, type Runtime } from './state'

// The sandbox (docs/product-rules.md) as Stripe would hold it: the brands' and creators' connected
// accounts and the creator orders' PaymentIntents (naming their order in their metadata; the EUR
// one settled in USD at SETTLEMENT_RATES), their funds on the platform's balance, under the ids the
// server's seed and the Shopify emulator's metafields use.

export function seedSandbox(runtime: Runtime): void {
  const { state } = runtime
  const created = unixSeconds(runtime.now())
  for (const { accountId, email } of [...PAYOUT_ACCOUNTS, ...CREATOR_STRIPE_ACCOUNTS])
    state.accounts[accountId] = {
      id: accountId,
      email,
      transfersActive: true,
      created,
      available: {},
      pending: [],
    }
  for (const orderId of STRIPE_PAID_ORDERS) {
    const order = ORDERS.find((candidate) => candidate.id === orderId)
    if (!order) throw new Error(`Stripe-paid order ${orderId} is not a seed order`)
    const id = paymentIntentOf(orderId)
    const amount = orderTotalMinor(order)
    const currency = order.currency.toLowerCase()
    const intent: PaymentIntentRecord = {
      id,
      amount,
      currency,
      status: 'succeeded',
      // As the platform's checkout writes it: which creator order this payment is for.
      metadata: {
        [PAYMENT_INTENT_METADATA.creatorShop]: order.store,
        [PAYMENT_INTENT_METADATA.creatorOrderId]: String(order.id),
      },
      chargeId: chargeOf(orderId),
      amountRefunded: 0,
      balanceTransaction: settle(amount, currency),
      created,
      availableOn: created + runtime.fundsPendingForSeconds,
    }
    state.paymentIntents[id] = intent
    creditCharge(runtime, intent)
  }
}
