import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../db/connect'
import type { OrderReversalsTable } from '../db/schema'

// order_reversals: each reversal of a party's transfer after a refund (transfers/order-refunds.ts).
// A party's next reversal is inserted at the seq after the last its run saw: when another run
// added one meanwhile, the insert conflicts and nothing is sent, so money is never reversed twice
// on the strength of an old reading.

export type OrderReversalRow = Selectable<OrderReversalsTable>

/** A reversal another run recorded after this one read the party's reversals. */
export class ReversalRaceError extends Error {
  override name = 'ReversalRaceError'
}

/** The order's reversals, each party's oldest first. */
export const reversalsOf = (db: Db, creatorOrderId: string) =>
  db
    .selectFrom('order_reversals')
    .selectAll()
    .where('creator_order_id', '=', creatorOrderId)
    .orderBy('store_shop')
    .orderBy('seq')
    .execute()

/** The intent of a reversal, before its call; refused when its seq was taken since. */
export async function recordReversalIntent(
  db: Db,
  row: Omit<
    Insertable<OrderReversalsTable>,
    'reversal_id' | 'reversed_at' | 'owed_since' | 'failed_message'
  >,
): Promise<void> {
  const inserted = await db
    .insertInto('order_reversals')
    .values(row)
    .onConflict((oc) => oc.columns(['creator_order_id', 'store_shop', 'seq']).doNothing())
    .executeTakeFirst()
  if (inserted.numInsertedOrUpdatedRows === 0n) {
    throw new ReversalRaceError(
      `Another run reversed money of ${row.store_shop} on creator order ${row.creator_order_id} meanwhile`,
    )
  }
}

const ofRow = (db: Db, row: Pick<OrderReversalRow, 'creator_order_id' | 'store_shop' | 'seq'>) =>
  db
    .updateTable('order_reversals')
    .where('creator_order_id', '=', row.creator_order_id)
    .where('store_shop', '=', row.store_shop)
    .where('seq', '=', row.seq)

type RowKey = Pick<OrderReversalRow, 'creator_order_id' | 'store_shop' | 'seq'>

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

/** The call failed another way: the intent stays, and the next run reconciles it first. */
export const recordReversalFailure = (db: Db, row: RowKey, message: string) =>
  ofRow(db, row).set({ failed_message: message }).where('reversal_id', 'is', null).execute()
