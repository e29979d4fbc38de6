import {
  balanceInsufficient,
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
import { moveTransfer, platformAvailable } from './balance'
import { fundsOf } from './charges'
import { listPage } from './lists'
import { latestCharge } from './payment-intents'
import { amountReversed, reversalView } from './reversals'
import { findTransfer, newId, unixSeconds, type Runtime, type TransferRecord } from './state'

// POST /v1/transfers, GET /v1/transfers and GET /v1/transfers/:id: moving a charge's money to a
// connected account's balance, and finding what was moved. Refusals use Stripe's codes and
// wording where Tandem may meet them.

/** How many of its reversals a transfer shows; GET /v1/transfers/:id/reversals lists them all. */
const REVERSALS_SHOWN = 10

const view = (transfer: TransferRecord) => {
  const reversedAmount = amountReversed(transfer)
  const newestFirst = [...transfer.reversals].reverse()
  return {
    id: transfer.id,
    object: 'transfer',
    amount: transfer.amount,
    amount_reversed: reversedAmount,
    created: transfer.created,
    currency: transfer.currency,
    description: transfer.description,
    destination: transfer.destination,
    destination_payment: transfer.destinationPayment,
    livemode: false,
    metadata: transfer.metadata,
    reversals: {
      object: 'list',
      data: newestFirst
        .slice(0, REVERSALS_SHOWN)
        .map((reversal) => reversalView(transfer, reversal)),
      has_more: newestFirst.length > REVERSALS_SHOWN,
      url: `/v1/transfers/${transfer.id}/reversals`,
    },
    reversed: reversedAmount === transfer.amount,
    source_transaction: transfer.sourceTransaction,
    source_type: 'card',
    transfer_group: transfer.transferGroup,
  }
}

/**
 * Why the charge cannot fund this transfer; undefined when it can. As Stripe does, the transfer
 * must be in the currency the charge settled in (its balance transaction's), and charges fund
 * their transfers only up to what they still hold, however many there are.
 */
function refuseSource(
  runtime: Runtime,
  sourceTransaction: string,
  currency: string,
  amount: number,
): { refusal: Answer } | { declined: Answer } | undefined {
  const intent = Object.values(runtime.state.paymentIntents).find(
    (candidate) => latestCharge(candidate) === sourceTransaction,
  )
  if (!intent) {
    const message = `No such charge: '${sourceTransaction}'`
    return { refusal: invalidParam('source_transaction', message, 'resource_missing') }
  }
  const settlement = intent.balanceTransaction.currency
  if (settlement !== currency) {
    const message =
      `The currency of source_transaction's balance transaction (${settlement}) must be the ` +
      `same as the transfer currency (${currency})`
    return { declined: invalidParam('source_transaction', message) }
  }
  const { source, transferred } = fundsOf(runtime, intent)
  if (amount > source - transferred) {
    const money = (minor: number) => displayAmount(minor, currency)
    // Stripe's words (as its API answers them); the source amount is what the refunds left.
    const already =
      transferred > 0
        ? ` (There is already a transfer using this source, amounting to ${money(transferred)}.)`
        : ''
    const message =
      'Transfers using this transaction as a source must not exceed the source amount of ' +
      `${money(source)}.${already}`
    return { declined: balanceInsufficient(message) }
  }
  return undefined
}

/**
 * Why the platform's available balance cannot fund a transfer without a source_transaction;
 * undefined when it can. Stripe's words, as its test mode answers them (its code is
 * `balance_insufficient`, https://docs.stripe.com/error-codes#balance-insufficient).
 */
function refuseBalance(runtime: Runtime, currency: string, amount: number) {
  if (amount <= platformAvailable(runtime, currency)) return undefined
  const message =
    'Insufficient funds in Stripe account. In test mode, you can add funds to your available ' +
    'balance (bypassing your pending balance) by creating a charge with 4000 0000 0000 0077 as ' +
    'the card number. You can use the /v1/balance endpoint to view your Stripe balance (for ' +
    'more details, see stripe.com/docs/api#balance).'
  return { declined: balanceInsufficient(message) }
}

export function prepareTransfer(runtime: Runtime, params: Params): Prepared {
  const text = (name: string) => textParam(params, name)
  const missing = (param: string) => ({
    refusal: invalidParam(param, `Missing required param: ${param}.`, 'parameter_missing'),
  })
  const amountText = text('amount')
  const currencyText = text('currency')
  const destination = text('destination')
  if (amountText === undefined) return missing('amount')
  if (currencyText === undefined) return missing('currency')
  if (destination === undefined) return missing('destination')
  const amount = integerParam('amount', amountText, 1)
  if (typeof amount !== 'number') return { refusal: amount }
  const currency = currencyText.toLowerCase()
  const account = runtime.state.accounts[destination]
  if (!account) {
    const message = `No such destination: '${destination}'`
    return { refusal: invalidParam('destination', message, 'resource_missing') }
  }
  if (!account.transfersActive) {
    const message =
      'Your destination account needs to have at least one of the following capabilities ' +
      'enabled: transfers, crypto_transfers, legacy_payments'
    return {
      declined: invalidParam('destination', message, 'insufficient_capabilities_for_transfer'),
    }
  }

  const sourceTransaction = text('source_transaction') ?? null
  const sourceRefusal = sourceTransaction
    ? refuseSource(runtime, sourceTransaction, currency, amount)
    : refuseBalance(runtime, currency, amount)
  if (sourceRefusal) return sourceRefusal
  const source = Object.values(runtime.state.paymentIntents).find(
    (candidate) => sourceTransaction !== null && latestCharge(candidate) === sourceTransaction,
  )

  const work = () => {
    const transfer: TransferRecord = {
      id: newId('tr'),
      amount,
      currency,
      destination,
      transferGroup: text('transfer_group') ?? null,
      sourceTransaction,
      metadata: metadataParam(params),
      description: text('description') ?? null,
      created: unixSeconds(runtime.now()),
      destinationPayment: newId('py'),
      reversals: [],
    }
    runtime.state.transfers.push(transfer)
    moveTransfer(runtime, account, transfer, source)
    runtime.save()
    return ok(view(transfer))
  }
  return { work }
}

export function retrieveTransfer(runtime: Runtime, id: string): Answer {
  const transfer = findTransfer(runtime.state, id)
  return transfer ? ok(view(transfer)) : resourceMissing('transfer', id)
}

/**
 * Newest first, as Stripe lists; the filters apply before paging. The newest `lagging` of the
 * transfers the filters match are left out: not listed yet.
 */
export function listTransfers(runtime: Runtime, query: URLSearchParams, lagging = 0): Answer {
  const destination = query.get('destination')
  const group = query.get('transfer_group')
  const createdSince = integerParam('created[gte]', query.get('created[gte]') ?? '0', 0, 1e12)
  if (typeof createdSince !== 'number') return createdSince
  return listPage(query, [...runtime.state.transfers].reverse(), {
    url: '/v1/transfers',
    object: 'transfer',
    view,
    matches: (transfer) =>
      (!destination || transfer.destination === destination) &&
      (!group || transfer.transferGroup === group) &&
      transfer.created >= createdSince,
    lagging,
  })
}
