import { ok, resourceMissing, type Answer } from './http'
import type { PaymentIntentRecord, Runtime } from './state'

// GET /v1/payment_intents/:id: what Tandem reads of a creator order's payment.

/** The charge Stripe shows on the PaymentIntent: none until the payment went through. */
export const latestCharge = (intent: PaymentIntentRecord): string | null =>
  intent.status === 'succeeded' || intent.status === 'requires_capture' ? intent.chargeId : null

/** What the charge brought in, and so the most that transfers from it may move. */
export const amountReceived = (intent: PaymentIntentRecord): number =>
  intent.status === 'succeeded' ? intent.amount : 0

const view = (intent: PaymentIntentRecord) => ({
  id: intent.id,
  object: 'payment_intent',
  amount: intent.amount,
  amount_received: amountReceived(intent),
  currency: intent.currency,
  metadata: intent.metadata,
  status: intent.status,
  latest_charge: latestCharge(intent),
  created: intent.created,
  livemode: false,
})

export function retrievePaymentIntent(runtime: Runtime, id: string): Answer {
  const intent = runtime.state.paymentIntents[id]
  if (intent) return ok(view(intent))
  return resourceMissing('payment_intent', id, 'intent')
}
