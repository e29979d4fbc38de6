import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../db/connect'
import type { OrderReversalsTable } from '../db/schema'

// order_reversals: each reversal of a party's transfer after a refund (transfers/order-refunds.ts).
// A transfer's next reversal is inserted at the seq after the last its run saw: when another run
// added one meanwhile, the insert conflicts and nothing is sent, so money is never reversed twice
// on the strength of an old reading. Rows are told apart by their transfer, which no erasure
// renames (migration 024); store_shop says whose it is, and becomes a pseudonym with the shop.

export type OrderReversalRow = Selectable<OrderReversalsTable>

/** A reversal another run recorded after this one read the party's reversals. */
export class ReversalRaceError extends Error {
  override name = 'ReversalRaceError'
}

/** The order's reversals, each transfer's oldest first. */
export const reversalsOf = (db: Db, creatorOrderId: string) =>
  db
    .selectFrom('order_reversals')
    .selectAll()
    .where('creator_order_id', '=', creatorOrderId)
    .orderBy('transfer_id')
    .orderBy('seq')
    .execute()

/**
 * The intent of a reversal, before its call (or, with `owed_since`, a reversal owed without one);
 * refused when its seq was taken since.
 */
export async function recordReversalIntent(
  db: Db,
  row: Omit<Insertable<OrderReversalsTable>, 'reversal_id' | 'reversed_at' | 'declined_at'>,
): Promise<void> {
  const inserted = await db
    .insertInto('order_reversals')
    .values(row)
    .onConflict((oc) => oc.columns(['transfer_id', 'seq']).doNothing())
    .executeTakeFirst()
  if (inserted.numInsertedOrUpdatedRows === 0n) {
    throw new ReversalRaceError(
      `Another run reversed money of ${row.store_shop} on creator order ${row.creator_order_id} meanwhile (${row.transfer_id})`,
    )
  }
}

type RowKey = Pick<OrderReversalRow, 'transfer_id' | 'seq'>

const ofRow = (db: Db, row: RowKey) =>
  db
    .updateTable('order_reversals')
    .where('transfer_id', '=', row.transfer_id)
    .where('seq', '=', row.seq)

/** Stripe's reversal, once it answered (or reconciling found it); a second record changes nothing. */
export const recordReversed = (db: Db, row: RowKey, reversalId: string, at: string) =>
  ofRow(db, row)
    .set({ reversal_id: reversalId, reversed_at: at, owed_since: null, failed_message: null })
    .where('reversal_id', 'is', null)
    .execute()

/** Stripe refused it for the account's balance: the amount is owed by the brand from `at`. */
export const recordReversalOwed = (db: Db, row: RowKey, message: string, at: string) =>
  ofRow(db, row)
    .set({ owed_since: at, failed_message: message })
    .where('reversal_id', 'is', null)
    .execute()

/** Stripe refused a DEBT reversal: nothing was taken, and the debt is still owed. */
export const recordReversalDeclined = (db: Db, row: RowKey, message: string, at: string) =>
  ofRow(db, row)
    .set({ declined_at: at, failed_message: message })
    .where('reversal_id', 'is', null)
    .execute()

/** The call failed another way: the intent stays, and the next run reconciles it first. */
export const recordReversalFailure = (db: Db, row: RowKey, message: string) =>
  ofRow(db, row).set({ failed_message: message }).where('reversal_id', 'is', null).execute()

/** Neither reversed, nor owed, nor declined: an intent whose outcome is unknown. */
export const isUnsettled = (row: OrderReversalRow) =>
  row.reversal_id === null && row.owed_since === null && row.declined_at === null

/**
 * The stores' debt takings (DEBT rows) whose outcome is unknown: a call that failed or was cut
 * off. Each may have taken its amount or not, so it is settled (store-debt.ts) before a debt is
 * counted.
 */
export const unsettledDebtTakings = (db: Db, storeShops: readonly string[]) =>
  storeShops.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('order_reversals')
        .selectAll()
        .where('store_shop', 'in', storeShops)
        .where('party', '=', 'DEBT')
        .where('reversal_id', 'is', null)
        .where('owed_since', 'is', null)
        .where('declined_at', 'is', null)
        .execute()

/**
 * What each store (a brand, a creator) still owes, per currency: reversals Stripe refused for its
 * balance, less what reversals of its later transfers took back or are taking (an intent counts
 * until declined: one whose outcome is unknown is settled first, see unsettledDebtTakings).
 */
export async function outstandingDebts(
  db: Db,
  storeShops: readonly string[],
): Promise<{ storeShop: string; currency: string; owedMinor: number; since: string }[]> {
  if (storeShops.length === 0) return []
  const rows = await db
    .selectFrom('order_reversals')
    .select(['store_shop', 'currency', 'party', 'amount_minor', 'owed_since'])
    .where('store_shop', 'in', storeShops)
    .where((eb) =>
      eb.or([
        eb.and([eb('party', '!=', 'DEBT'), eb('owed_since', 'is not', null)]),
        eb.and([eb('party', '=', 'DEBT'), eb('declined_at', 'is', null)]),
      ]),
    )
    .execute()
  const debts = new Map<
    string,
    { storeShop: string; currency: string; owedMinor: number; since: string }
  >()
  for (const row of rows) {
    const key = `${row.store_shop} ${row.currency}`
    const debt = debts.get(key) ?? {
      storeShop: row.store_shop,
      currency: row.currency,
      owedMinor: 0,
      since: row.owed_since ?? '',
    }
    debt.owedMinor += row.party === 'DEBT' ? -row.amount_minor : row.amount_minor
    if (row.owed_since !== null && (debt.since === '' || row.owed_since < debt.since)) {
      debt.since = row.owed_since
    }
    debts.set(key, debt)
  }
  return [...debts.values()].filter((debt) => debt.owedMinor > 0)
}

/**
 * The store's transfers made since `since`, in `currency` (a brand's for its orders, a creator's
 * commissions), oldest first, with what is left of each once its reversals (made, or under way)
 * are taken off: where its debt is taken back from.
 */
export async function transfersSince(db: Db, storeShop: string, currency: string, since: string) {
  const [brandTransfers, commissions] = await Promise.all([
    db
      .selectFrom('order_transfer_brands')
      .innerJoin(
        'order_transfers',
        'order_transfers.creator_order_id',
        'order_transfer_brands.creator_order_id',
      )
      .select([
        'order_transfer_brands.creator_order_id',
        'order_transfer_brands.payment_transfer_id as transfer_id',
        'order_transfer_brands.brand_amount_settlement_minor as amount_minor',
        'order_transfers.processed_at as made_at',
      ])
      .where('order_transfer_brands.brand_store_shop', '=', storeShop)
      .where('order_transfer_brands.settlement_currency', '=', currency)
      .where('order_transfers.status', '=', 'COMPLETED')
      .where('order_transfers.processed_at', '>=', since)
      .execute(),
    db
      .selectFrom('creator_payouts')
      .select([
        'creator_order_id',
        'payment_transfer_id as transfer_id',
        'amount_settlement_minor as amount_minor',
        'paid_at as made_at',
      ])
      .where('creator_store_shop', '=', storeShop)
      .where('settlement_currency', '=', currency)
      .where('paid_at', '>=', since)
      .execute(),
  ])
  const transfers = [...brandTransfers, ...commissions]
    .flatMap((made) =>
      made.transfer_id === null || made.amount_minor === null
        ? []
        : [{ ...made, transfer_id: made.transfer_id, amount_minor: made.amount_minor }],
    )
    .sort((a, b) => (a.made_at ?? '').localeCompare(b.made_at ?? ''))
  if (transfers.length === 0) return []
  const taken = await db
    .selectFrom('order_reversals')
    .select(['transfer_id', 'amount_minor'])
    .where('declined_at', 'is', null)
    .where('owed_since', 'is', null)
    .where(
      'transfer_id',
      'in',
      transfers.map((transfer) => transfer.transfer_id),
    )
    .execute()
  return transfers.map((transfer) => ({
    creatorOrderId: transfer.creator_order_id,
    transferId: transfer.transfer_id,
    leftMinor:
      transfer.amount_minor -
      taken
        .filter((row) => row.transfer_id === transfer.transfer_id)
        .reduce((sum, row) => sum + row.amount_minor, 0),
  }))
}
