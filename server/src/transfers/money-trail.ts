import type { MoneyMovement } from '@shared/contract'
import type { Db } from '../db/connect'
import { formatMinorUnits } from '../domain/money'
import type { CreatorPayoutRow } from '../repositories/creator-payouts'
import type { OrderReversalRow } from '../repositories/order-reversals'
import type { StoredTransfer } from './transfer-repository'

// An order's money trail (issue 33): each Stripe transfer to a party, each reversal of one after a
// refund, and each amount Stripe would not reverse (the party owes it), oldest first. Read from
// what processing, the creator's payout and the refund job recorded, so that the transfer screen,
// the history, the CSV and the receipt tell the same story without asking Stripe.

type TransferWithBrands = Pick<
  StoredTransfer,
  'creator_order_id' | 'creator_store_shop' | 'currency' | 'brands'
>

/** The money trails of these transfers, by creator order id. */
export async function readMoneyTrails(
  db: Db,
  transfers: readonly TransferWithBrands[],
): Promise<Map<string, MoneyMovement[]>> {
  const ids = transfers.map((transfer) => transfer.creator_order_id)
  const [payouts, reversals] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .selectFrom('creator_payouts')
            .selectAll()
            .where('creator_order_id', 'in', ids)
            .execute(),
          db
            .selectFrom('order_reversals')
            .selectAll()
            .where('creator_order_id', 'in', ids)
            .execute(),
        ])
  return new Map(
    transfers.map((transfer) => {
      const id = transfer.creator_order_id
      return [
        id,
        moneyTrailOf(
          transfer,
          payouts.find((payout) => payout.creator_order_id === id) ?? null,
          reversals.filter((reversal) => reversal.creator_order_id === id),
        ),
      ]
    }),
  )
}

export const readMoneyTrail = async (db: Db, transfer: TransferWithBrands) =>
  (await readMoneyTrails(db, [transfer])).get(transfer.creator_order_id) ?? []

interface Moved {
  currency: string
  minor: number
}

/** What a transfer moved: in the settlement currency once recorded, else in the order's. */
const moved = (settledCurrency: string | null, settledMinor: number | null, order: Moved): Moved =>
  settledCurrency !== null && settledMinor !== null
    ? { currency: settledCurrency, minor: settledMinor }
    : order

const movement = (
  fields: Omit<MoneyMovement, 'amount' | 'currency'>,
  { currency, minor }: Moved,
): MoneyMovement => ({ ...fields, currency, amount: formatMinorUnits(minor, currency) })

function moneyTrailOf(
  transfer: TransferWithBrands,
  payout: CreatorPayoutRow | null,
  reversals: readonly OrderReversalRow[],
): MoneyMovement[] {
  const trail: MoneyMovement[] = []
  for (const brand of transfer.brands) {
    // The brand's order is marked paid just before its transfer: paid_at is set whenever it is.
    if (brand.payment_transfer_id === null || brand.paid_at === null) continue
    const { currency } = transfer
    trail.push(
      movement(
        {
          at: brand.paid_at,
          kind: 'TRANSFER',
          party: 'BRAND',
          storeShop: brand.brand_store_shop,
          stripeId: brand.payment_transfer_id,
        },
        moved(brand.settlement_currency, brand.brand_amount_settlement_minor, {
          currency,
          minor: brand.brand_amount_minor,
        }),
      ),
    )
  }
  // A commission that settled to nothing was recorded paid with no transfer: nothing moved.
  if (payout?.payment_transfer_id && payout.paid_at !== null) {
    trail.push(
      movement(
        {
          at: payout.paid_at,
          kind: 'TRANSFER',
          party: 'CREATOR',
          storeShop: payout.creator_store_shop,
          stripeId: payout.payment_transfer_id,
        },
        moved(payout.settlement_currency, payout.amount_settlement_minor, {
          currency: payout.currency,
          minor: payout.amount_minor,
        }),
      ),
    )
  }
  // A reversal whose call has no answer yet has moved nothing that anyone knows of. A DEBT row
  // took what its store owed from this order's transfer to it: a deduction, of the brand's or the
  // creator's transfer.
  for (const reversal of reversals) {
    const party =
      reversal.party !== 'DEBT'
        ? reversal.party
        : reversal.store_shop === transfer.creator_store_shop
          ? 'CREATOR'
          : 'BRAND'
    const fields = { party, storeShop: reversal.store_shop }
    const amount = { currency: reversal.currency, minor: reversal.amount_minor }
    if (reversal.reversal_id !== null && reversal.reversed_at !== null) {
      const at = reversal.reversed_at
      const kind = reversal.party === 'DEBT' ? 'DEDUCTION' : 'REVERSAL'
      trail.push(movement({ ...fields, at, kind, stripeId: reversal.reversal_id }, amount))
    } else if (reversal.owed_since !== null) {
      const at = reversal.owed_since
      trail.push(movement({ ...fields, at, kind: 'OWED', stripeId: reversal.transfer_id }, amount))
    }
  }
  // Oldest first; the sort is stable, so brands keep the preview's order at the same moment.
  return trail.sort((a, b) => a.at.localeCompare(b.at))
}
