import { refundFromPlatform } from './balance'
import {
  displayAmount,
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
import { latestCharge } from './payment-intents'
import { newId, unixSeconds, type PaymentIntentRecord, type Runtime } from './state'

// POST /v1/refunds: the platform gives a charge's money back to the customer, as the creator's
// payment app does when its merchant refunds an order. Parameters as stripe-node 23's
// `RefundCreateParams` (node_modules/stripe/cjs/resources/Refunds.d.ts): `charge` or
// `payment_intent`, `amount` (minor units; the rest of the charge when absent), `metadata`,
// `reason`; the answer is its `Refund` (id, object 'refund', amount, charge, currency,
// payment_intent, status, created, metadata, reason). Refunds take back no transfer here
// (`reverse_transfer` is refused): Tandem reverses its transfers itself.

const REASONS = ['duplicate', 'fraudulent', 'requested_by_customer']

/** `amount` more of the charge goes back to the customer, out of the platform's balance. */
export function refundCharge(runtime: Runtime, intent: PaymentIntentRecord, amount: number) {
  intent.amountRefunded += amount
  refundFromPlatform(runtime, intent, amount)
  runtime.save()
}

function refundedIntent(runtime: Runtime, params: Params): PaymentIntentRecord | Answer {
  const chargeId = textParam(params, 'charge')
  const intentId = textParam(params, 'payment_intent')
  if (!chargeId && !intentId)
    return invalidParam('charge', 'One of `charge` or `payment_intent` is required.')
  const intents = Object.values(runtime.state.paymentIntents)
  const intent = chargeId
    ? intents.find((candidate) => latestCharge(candidate) === chargeId)
    : runtime.state.paymentIntents[intentId!]
  if (!intent)
    return chargeId
      ? resourceMissing('charge', chargeId, 'charge')
      : resourceMissing('payment_intent', intentId!, 'payment_intent')
  if (chargeId && intentId && intent.id !== intentId)
    return invalidParam('payment_intent', `Charge ${chargeId} is not of PaymentIntent ${intentId}.`)
  if (!latestCharge(intent) || intent.status !== 'succeeded')
    return invalidParam(
      'payment_intent',
      `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
    )
  return intent
}

export function prepareRefund(runtime: Runtime, params: Params): Prepared {
  const intent = refundedIntent(runtime, params)
  if (!('chargeId' in intent)) return { refusal: intent }
  const left = intent.amount - intent.amountRefunded
  if (left === 0)
    return {
      refusal: invalidParam(
        'charge',
        `Charge ${intent.chargeId} has already been refunded.`,
        'charge_already_refunded',
      ),
    }
  const amountText = textParam(params, 'amount')
  const amount = amountText === undefined ? left : integerParam('amount', amountText, 1)
  if (typeof amount !== 'number') return { refusal: amount }
  if (amount > left)
    return {
      refusal: invalidParam(
        'amount',
        `Refund amount (${displayAmount(amount, intent.currency)}) is greater than unrefunded ` +
          `amount on charge (${displayAmount(left, intent.currency)})`,
        'amount_too_large',
      ),
    }
  const reason = textParam(params, 'reason')
  if (reason !== undefined && !REASONS.includes(reason))
    return {
      refusal: invalidParam('reason', `Invalid reason: must be one of ${REASONS.join(', ')}`),
    }
  if (params.reverse_transfer === 'true')
    return {
      refusal: invalidParam(
        'reverse_transfer',
        'The emulator does not reverse transfers on refunds.',
      ),
    }
  return {
    work: () => {
      refundCharge(runtime, intent, amount)
      return ok({
        id: newId('re'),
        object: 'refund',
        amount,
        charge: intent.chargeId,
        currency: intent.currency,
        payment_intent: intent.id,
        status: 'succeeded',
        reason: reason ?? null,
        metadata: metadataParam(params),
        created: unixSeconds(runtime.now()),
      })
    },
  }
}
