import { creditCharge } from './balance'
import { settle } from './charges'
import {
  integerParam,
  invalidParam,
  metadataParam,
  ok,
  resourceMissing,
  textParam,
  type Answer,
  type Params,
  type Prepared,
} from './http'
import {
  newId,
  unixSeconds,
  type PaymentIntentRecord,
  type PaymentIntentStatus,
  type Runtime,
} from './state'

// GET /v1/payment_intents/:id: what Tandem reads of a creator order's payment; POST
// /v1/payment_intents: the platform's checkout takes one (`npm run sandbox -- order`).

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

/**
 * A new PaymentIntent with its charge, on the platform's balance once succeeded. The charge
 * settles in USD, at `exchangeRate` when given, else at the emulator's rate for the currency.
 */
export interface NewPaymentIntent {
  amount: number
  currency: string
  status?: PaymentIntentStatus
  id?: string
  metadata?: Record<string, string>
  exchangeRate?: number
}

export function addIntent(runtime: Runtime, intent: NewPaymentIntent): PaymentIntentRecord {
  const id = intent.id ?? newId('pi')
  if (runtime.state.paymentIntents[id])
    throw new Error(`The emulator already has PaymentIntent ${id}`)
  const currency = intent.currency.toLowerCase()
  const created = unixSeconds(runtime.now())
  const record: PaymentIntentRecord = {
    id,
    amount: intent.amount,
    currency,
    status: intent.status ?? 'succeeded',
    metadata: { ...intent.metadata },
    chargeId: newId('ch'),
    amountRefunded: 0,
    balanceTransaction: settle(intent.amount, currency, intent.exchangeRate),
    created,
    availableOn: created + runtime.fundsPendingForSeconds,
  }
  runtime.state.paymentIntents[id] = record
  creditCharge(runtime, record)
  runtime.save()
  return record
}

/**
 * POST /v1/payment_intents as stripe-node 23's `PaymentIntentCreateParams` has it (amount and
 * currency required, metadata, confirm with a payment_method): confirmed with one, the payment
 * succeeds at once, as a test card's does (`pm_card_visa`); otherwise it waits for a payment
 * method. Only what the sandbox's checkout sends is taken.
 */
export function prepareCreatePaymentIntent(runtime: Runtime, params: Params): Prepared {
  const amountText = textParam(params, 'amount')
  const currency = textParam(params, 'currency')
  if (amountText === undefined)
    return {
      refusal: invalidParam('amount', 'Missing required param: amount.', 'parameter_missing'),
    }
  if (currency === undefined)
    return {
      refusal: invalidParam('currency', 'Missing required param: currency.', 'parameter_missing'),
    }
  const amount = integerParam('amount', amountText, 1)
  if (typeof amount !== 'number') return { refusal: amount }
  const paid = params.confirm === 'true' && textParam(params, 'payment_method') !== undefined
  return {
    work: () => {
      const made = addIntent(runtime, {
        amount,
        currency,
        status: paid ? 'succeeded' : 'requires_payment_method',
        metadata: metadataParam(params),
      })
      return ok(view(made))
    },
  }
}
