import { convertMinorUnits } from '../../server/src/domain/money'
import { ok, resourceMissing, type Answer } from './http'
import { latestCharge } from './payment-intents'
import {
  isPending,
  newId,
  type BalanceTransactionRecord,
  type PaymentIntentRecord,
  type Runtime,
} from './state'

// GET /v1/charges/:id (with `expand[]=balance_transaction`): a PaymentIntent's charge, what was
// refunded of it, and its balance transaction, the charge as it settled in the platform's currency.

/** The emulated platform settles in US dollars, as a US platform with a USD bank account does. */
export const SETTLEMENT_CURRENCY = 'usd'

/**
 * Stripe's exchange rate into the settlement currency, fixed per currency so that tests can rely
 * on the figures: a charge in another currency gets a balance transaction at this rate (Stripe's
 * `exchange_rate`: the charge's amount times it is the amount settled). 62.00 EUR settle as 71.92 USD
 * (EUR 1 = USD 1.16, about the rate of late 2026).
 */
export const SETTLEMENT_RATES: Readonly<Record<string, number>> = { eur: 1.16 }

/** The balance transaction of a charge of `amount` `currency`, at `exchangeRate` if given. */
export function settle(
  amount: number,
  currency: string,
  exchangeRate?: number,
): BalanceTransactionRecord {
  const id = newId('txn')
  if (currency === SETTLEMENT_CURRENCY) {
    return { id, currency, amount, exchangeRate: null }
  }
  const rate = exchangeRate ?? SETTLEMENT_RATES[currency]
  if (rate === undefined) {
    throw new Error(`The emulator has no exchange rate from ${currency} to ${SETTLEMENT_CURRENCY}`)
  }
  return {
    id,
    currency: SETTLEMENT_CURRENCY,
    amount: settledAmount(amount, currency, rate),
    exchangeRate: rate,
  }
}

/** `amount` of the charge's `currency` in the settlement currency at the charge's `rate`. */
export const settledAmount = (amount: number, currency: string, rate: number | null) =>
  rate === null
    ? amount
    : convertMinorUnits(
        amount,
        currency.toUpperCase(),
        SETTLEMENT_CURRENCY.toUpperCase(),
        String(rate),
      )

/**
 * What transfers from the charge may move in all, in the settlement currency (what it brought in
 * less its refunds, at the charge's rate), and what transfers from it already took. Reversals are
 * not subtracted: Stripe does not document whether a reversed amount may fund another transfer
 * from the same charge, and the emulator takes the stricter reading.
 */
export function fundsOf(
  runtime: Runtime,
  intent: PaymentIntentRecord,
): { source: number; transferred: number } {
  const kept = intent.status === 'succeeded' ? intent.amount - intent.amountRefunded : 0
  const transferred = runtime.state.transfers
    .filter((transfer) => transfer.sourceTransaction === intent.chargeId)
    .reduce((sum, transfer) => sum + transfer.amount, 0)
  return {
    source: settledAmount(kept, intent.currency, intent.balanceTransaction.exchangeRate),
    transferred,
  }
}

const balanceTransactionView = (
  settled: BalanceTransactionRecord,
  intent: PaymentIntentRecord,
  now: Date,
) => ({
  id: settled.id,
  object: 'balance_transaction',
  amount: settled.amount,
  currency: settled.currency,
  exchange_rate: settled.exchangeRate,
  fee: 0,
  net: settled.amount,
  source: intent.chargeId,
  status: isPending(intent, now) ? 'pending' : 'available',
  available_on: intent.availableOn,
  type: 'charge',
  created: intent.created,
})

const view = (intent: PaymentIntentRecord, expandBalanceTransaction: boolean, now: Date) => ({
  id: intent.chargeId,
  object: 'charge',
  amount: intent.amount,
  amount_captured: intent.amount,
  amount_refunded: intent.amountRefunded,
  balance_transaction: expandBalanceTransaction
    ? balanceTransactionView(intent.balanceTransaction, intent, now)
    : intent.balanceTransaction.id,
  captured: true,
  currency: intent.currency,
  payment_intent: intent.id,
  refunded: intent.amountRefunded === intent.amount,
  status: 'succeeded',
  created: intent.created,
  livemode: false,
})

export function retrieveCharge(runtime: Runtime, id: string, query: URLSearchParams): Answer {
  const intent = Object.values(runtime.state.paymentIntents).find(
    (candidate) => latestCharge(candidate) === id,
  )
  if (intent) {
    const expand = [...query.entries()].some(
      ([name, value]) => /^expand\[\d*\]$/.test(name) && value === 'balance_transaction',
    )
    return ok(view(intent, expand, runtime.now()))
  }
  return resourceMissing('charge', id)
}
