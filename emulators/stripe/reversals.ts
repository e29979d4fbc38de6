import {
  balanceInsufficient,
  displayAmount,
  integerParam,
  invalidParam,
  metadataParam,
  ok,
  resourceMissing,
  stripeError,
  textParam,
  type Answer,
  type Params,
  type Prepared,
} from './http'
import { listPage } from './lists'
import {
  addToBalance,
  findTransfer,
  newId,
  unixSeconds,
  type ReversalRecord,
  type Runtime,
  type TransferRecord,
} from './state'

// POST and GET /v1/transfers/:id/reversals: taking back some or all of a transfer from the
// connected account it went to (https://docs.stripe.com/api/transfer_reversals), as many times
// as the platform wishes until the whole transfer is reversed, each time only as far as the
// account's available balance covers it, as Stripe does for a transfer made with a
// transfer_group rather than a destination charge.

export const amountReversed = (transfer: TransferRecord): number =>
  transfer.reversals.reduce((sum, reversal) => sum + reversal.amount, 0)

export const reversalView = (transfer: TransferRecord, reversal: ReversalRecord) => ({
  id: reversal.id,
  object: 'transfer_reversal',
  amount: reversal.amount,
  balance_transaction: reversal.balanceTransaction,
  created: reversal.created,
  currency: transfer.currency,
  destination_payment_refund: reversal.destinationPaymentRefund,
  metadata: reversal.metadata,
  source_refund: null,
  transfer: transfer.id,
})

/**
 * A reversal of `transferId`: its `amount` (what is left of the transfer when absent) must be no
 * more than is left, and the destination account's available balance must cover it. Those refusals
 * come once the endpoint began, so an idempotency key keeps them, as it keeps a declined transfer.
 */
export function prepareReversal(runtime: Runtime, transferId: string, params: Params): Prepared {
  const transfer = findTransfer(runtime.state, transferId)
  if (!transfer) return { refusal: resourceMissing('transfer', transferId) }
  const amountText = textParam(params, 'amount')
  const asked = amountText === undefined ? undefined : integerParam('amount', amountText, 1)
  if (typeof asked === 'object') return { refusal: asked }

  const { currency } = transfer
  const left = transfer.amount - amountReversed(transfer)
  // Stripe documents that it refuses both, not how: no code (its list of error codes has none
  // for them), and words modelled on its refusals of a charge already refunded and of a refund
  // beyond what is left.
  if (left === 0) {
    const message = `Transfer ${transfer.id} has already been reversed.`
    return { declined: stripeError(400, { type: 'invalid_request_error', message }) }
  }
  const amount = asked ?? left
  if (amount > left) {
    const message =
      `Transfer reversal amount (${displayAmount(amount, currency)}) is greater than unreversed ` +
      `amount on transfer (${displayAmount(left, currency)})`
    return { declined: invalidParam('amount', message) }
  }
  const account = runtime.state.accounts[transfer.destination]
  if (!account) throw new Error(`The emulator lost account ${transfer.destination}`)
  const available = account.available[currency] ?? 0
  if (amount > available) {
    // Stripe's code for an account short of funds; the words are the emulator's.
    const message =
      `Insufficient funds in the destination account ${account.id} to reverse this transfer: ` +
      `its available balance is ${displayAmount(available, currency)}.`
    return { declined: balanceInsufficient(message) }
  }

  const work = () => {
    const reversal: ReversalRecord = {
      id: newId('trr'),
      amount,
      metadata: metadataParam(params),
      description: textParam(params, 'description') ?? null,
      created: unixSeconds(runtime.now()),
      balanceTransaction: newId('txn'),
      destinationPaymentRefund: newId('pyr'),
    }
    transfer.reversals.push(reversal)
    addToBalance(account, currency, -amount)
    // Back on the platform, available (balance.ts).
    addToBalance(runtime.state.platform, currency, amount)
    runtime.save()
    return ok(reversalView(transfer, reversal))
  }
  return { work }
}

/** The transfer's reversals, newest first, as Stripe lists them. */
export function listReversals(
  runtime: Runtime,
  transferId: string,
  query: URLSearchParams,
): Answer {
  const transfer = findTransfer(runtime.state, transferId)
  if (!transfer) return resourceMissing('transfer', transferId)
  return listPage(query, [...transfer.reversals].reverse(), {
    url: `/v1/transfers/${transfer.id}/reversals`,
    object: 'transfer_reversal',
    view: (reversal) => reversalView(transfer, reversal),
  })
}
