import type { RouteDeps } from '../deps'
import { formatMinorUnits } from '../domain/money'
import type { Remote } from '../lib/remote-call'
import type { OrderReversalRow } from '../repositories/order-reversals'
import { findOrderTransfers } from './order-payment'

// A reversal Stripe refuses for the account's balance (party-reversal.ts) may find the money
// there, only not yet available: a transfer from a charge lands pending on its account until the
// charge's funds are available, days after the sale (the `stripe` package's Transfers.d.ts, on
// source_transaction). A refund in those days is not a debt of the brand's or the creator's: its
// reversal waits for the funds and is sent again (a new seq, a new key: Stripe keeps the refusal
// under the old one). Money gone from the account (paid out) is owed, as before. Which of the two
// is Stripe's word alone: the transfer's source charge and its balance transaction (pending until
// `available_on`), and the account's balance (`balance.retrieve` as the account).

type Deps = Pick<RouteDeps, 'db' | 'payments'>

/** A reversal that waits for funds Stripe holds pending on the account: retried, never owed. */
export class FundsPending extends Error {
  override name = 'FundsPending'
}

/** The account Tandem recorded the transfer as made to: a brand's, or a creator's commission. */
async function destinationOf(deps: Deps, transferId: string): Promise<string | null> {
  const [brand, creator] = await Promise.all([
    deps.db
      .selectFrom('order_transfer_brands')
      .select('transfer_destination')
      .where('payment_transfer_id', '=', transferId)
      .executeTakeFirst(),
    deps.db
      .selectFrom('creator_payouts')
      .select('transfer_destination')
      .where('payment_transfer_id', '=', transferId)
      .executeTakeFirst(),
  ])
  return brand?.transfer_destination ?? creator?.transfer_destination ?? null
}

/**
 * When Stripe makes the transfer's own funds available on its account: its source charge's
 * available_on while the charge's funds are pending; null when they are available already, or it
 * came from the platform's balance (available at once).
 */
async function fundsAvailableAt(
  deps: Deps,
  row: Pick<OrderReversalRow, 'creator_order_id' | 'transfer_id'>,
  accountId: string,
  remote: Remote,
): Promise<string | null> {
  const made = await remote((signal) =>
    findOrderTransfers(deps.payments, row.creator_order_id, { signal }, accountId),
  )
  const source = made.find((transfer) => transfer.id === row.transfer_id)?.sourceTransaction
  if (!source) return null
  const charge = await remote((signal) => deps.payments.charge(source, { signal }))
  return charge?.fundsAvailableAt ?? null
}

/**
 * What the account's balance says of a reversal of `row` Stripe refused, or would refuse:
 * - `covered`: its available balance covers it now (a refusal older than the funds, replayed by
 *   its key, or a race): it is sent anew;
 * - `{ waits }`: the transfer's own funds are still pending there (its charge's not yet
 *   available) and what Stripe holds pending would cover it: it waits, and `waits` says why;
 * - `gone`: the money was paid out of the account, however much else is pending there (a store
 *   paying out each day's funds at once never makes its debt wait): it is owed.
 */
export async function balanceFor(
  deps: Deps,
  row: Pick<
    OrderReversalRow,
    'creator_order_id' | 'store_shop' | 'transfer_id' | 'currency' | 'amount_minor'
  >,
  remote: Remote,
): Promise<'covered' | 'gone' | { waits: string }> {
  const accountId = await destinationOf(deps, row.transfer_id)
  if (accountId === null) return 'gone'
  const { currency } = row
  const balance = await remote((signal) => deps.payments.balance(accountId, currency, { signal }))
  const available = balance.availableMinor
  if (available >= row.amount_minor) return 'covered'
  if (available + balance.pendingMinor < row.amount_minor) return 'gone'
  const at = await fundsAvailableAt(deps, row, accountId, remote)
  if (at === null) return 'gone'
  const money = (minor: number) => `${formatMinorUnits(minor, currency)} ${currency}`
  return {
    waits: `Stripe still holds ${row.store_shop}'s funds pending on ${accountId} (${money(available)} available, ${money(balance.pendingMinor)} pending): the reversal of ${money(row.amount_minor)} from ${row.transfer_id} waits for them to become available on ${at.slice(0, 16).replace('T', ' ')} UTC, and is tried again then`,
  }
}
