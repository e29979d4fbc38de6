import { invalidParam, ok, stripeError, type Answer, type Params, type Prepared } from './http'
import { formatMinorUnits } from '../../server/src/domain/money'
import { fundsOf } from './charges'
import { latestCharge } from './payment-intents'
import { newId, unixSeconds, type Runtime, type TransferRecord } from './state'

// POST /v1/transfers and GET /v1/transfers: moving a charge's money to a connected account, and
// finding what was moved. Refusals use Stripe's codes and wording where Tandem may meet them.

const view = (transfer: TransferRecord) => ({
  id: transfer.id,
  object: 'transfer',
  amount: transfer.amount,
  amount_reversed: 0,
  created: transfer.created,
  currency: transfer.currency,
  description: transfer.description,
  destination: transfer.destination,
  destination_payment: transfer.destinationPayment,
  livemode: false,
  metadata: transfer.metadata,
  reversals: {
    object: 'list',
    data: [],
    has_more: false,
    url: `/v1/transfers/${transfer.id}/reversals`,
  },
  reversed: false,
  source_transaction: transfer.sourceTransaction,
  source_type: 'card',
  transfer_group: transfer.transferGroup,
})

/** The parameter as an integer within bounds, or Stripe's refusal of it. */
function integerParam(param: string, value: string, min: number, max?: number): number | Answer {
  const refuse = (message: string) => invalidParam(param, message, 'parameter_invalid_integer')
  if (!/^-?\d+$/.test(value)) return refuse(`Invalid integer: ${value}`)
  const number = Number(value)
  if (number < min) return refuse(`This value must be greater than or equal to ${min}.`)
  if (max !== undefined && number > max)
    return refuse(`This value must be less than or equal to ${max}.`)
  return number
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
    const money = (minor: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(
        formatMinorUnits(minor, currency.toUpperCase()) as Intl.StringNumericLiteral,
      )
    // Stripe's words (as its API answers them); the source amount is what the refunds left.
    const already =
      transferred > 0
        ? ` (There is already a transfer using this source, amounting to ${money(transferred)}.)`
        : ''
    const message =
      'Transfers using this transaction as a source must not exceed the source amount of ' +
      `${money(source)}.${already}`
    return {
      declined: stripeError(400, {
        type: 'invalid_request_error',
        code: 'balance_insufficient',
        message,
      }),
    }
  }
  return undefined
}

export function prepareTransfer(runtime: Runtime, params: Params): Prepared {
  const text = (name: string) => {
    const value = params[name]
    return typeof value === 'string' && value !== '' ? value : undefined
  }
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
  const sourceRefusal =
    sourceTransaction && refuseSource(runtime, sourceTransaction, currency, amount)
  if (sourceRefusal) return sourceRefusal

  const work = () => {
    const transfer: TransferRecord = {
      id: newId('tr'),
      amount,
      currency,
      destination,
      transferGroup: text('transfer_group') ?? null,
      sourceTransaction,
      metadata: typeof params.metadata === 'object' ? params.metadata : {},
      description: text('description') ?? null,
      created: unixSeconds(runtime.now()),
      destinationPayment: newId('py'),
    }
    runtime.state.transfers.push(transfer)
    runtime.save()
    return ok(view(transfer))
  }
  return { work }
}

/**
 * Newest first, as Stripe lists; the filters apply before paging. The newest `lagging` of the
 * transfers the filters match are left out: not listed yet.
 */
export function listTransfers(runtime: Runtime, query: URLSearchParams, lagging = 0): Answer {
  const limit = integerParam('limit', query.get('limit') ?? '10', 1, 100)
  if (typeof limit !== 'number') return limit
  const startingAfter = query.get('starting_after')
  const endingBefore = query.get('ending_before')
  if (startingAfter && endingBefore) {
    const message = 'You may only specify one of these parameters: ending_before, starting_after.'
    return invalidParam('ending_before', message)
  }

  const newestFirst = [...runtime.state.transfers].reverse()
  const destination = query.get('destination')
  const group = query.get('transfer_group')
  const createdSince = integerParam('created[gte]', query.get('created[gte]') ?? '0', 0, 1e12)
  if (typeof createdSince !== 'number') return createdSince
  // A transfer's place in the whole list, so that a cursor need not match the filters itself.
  let matching = newestFirst
    .map((transfer, position) => ({ transfer, position }))
    .filter(
      ({ transfer }) =>
        (!destination || transfer.destination === destination) &&
        (!group || transfer.transferGroup === group) &&
        transfer.created >= createdSince,
    )
    .slice(lagging)
  const cursorParam = startingAfter ? 'starting_after' : 'ending_before'
  const cursorId = startingAfter ?? endingBefore
  if (cursorId) {
    const cursor = newestFirst.findIndex((transfer) => transfer.id === cursorId)
    if (cursor < 0)
      return invalidParam(cursorParam, `No such transfer: '${cursorId}'`, 'resource_missing')
    matching = matching.filter(({ position }) =>
      startingAfter ? position > cursor : position < cursor,
    )
  }
  // ending_before pages towards newer transfers: the page is the one just before the cursor.
  const page = endingBefore ? matching.slice(-limit) : matching.slice(0, limit)
  return ok({
    object: 'list',
    url: '/v1/transfers',
    has_more: matching.length > limit,
    data: page.map(({ transfer }) => view(transfer)),
  })
}
