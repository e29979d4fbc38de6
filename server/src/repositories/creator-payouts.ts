import type { Selectable, Updateable } from 'kysely'
import type { Db } from '../db/connect'
import type { CreatorPayoutsTable } from '../db/schema'

// creator_payouts: each completed creator order's commission owed to its creator, and the steps of
// the transfer that pays it (transfers/creator-payout.ts). Writes made while paying are fenced by
// the run's lease, as a transfer's are (transfers/transfer-repository.ts).

export type CreatorPayoutRow = Selectable<CreatorPayoutsTable>

/** A write under a payout's lease that another run has taken over since. */
export class PayoutLeaseLostError extends Error {
  override name = 'PayoutLeaseLostError'
}

/**
 * Records the creator's commission on a completed order as owed (in the transaction that completes
 * it): the sum of its brands' frozen creator commissions. Answers whether anything is owed; a
 * second completion of the same order records nothing more.
 */
export async function recordCommissionDue(
  trx: Db,
  transfer: { creatorOrderId: string; creatorStoreShop: string; currency: string },
  now: string,
): Promise<boolean> {
  const { total } = await trx
    .selectFrom('order_transfer_brands')
    .select((eb) =>
      eb.fn.coalesce(eb.fn.sum<number | string>('creator_commission_minor'), eb.lit(0)).as('total'),
    )
    .where('creator_order_id', '=', transfer.creatorOrderId)
    .executeTakeFirstOrThrow()
  const amountMinor = Number(total)
  if (amountMinor <= 0) return false
  await trx
    .insertInto('creator_payouts')
    .values({
      creator_order_id: transfer.creatorOrderId,
      creator_store_shop: transfer.creatorStoreShop,
      currency: transfer.currency,
      amount_minor: amountMinor,
      due_at: now,
    })
    .onConflict((oc) => oc.column('creator_order_id').doNothing())
    .execute()
  return true
}

export const findCreatorPayout = (db: Db, creatorOrderId: string) =>
  db
    .selectFrom('creator_payouts')
    .selectAll()
    .where('creator_order_id', '=', creatorOrderId)
    .executeTakeFirst()

/** The orders whose commission the creator is still owed, oldest first. */
export const unpaidPayoutsOf = (db: Db, creatorStoreShop: string) =>
  db
    .selectFrom('creator_payouts')
    .select(['creator_order_id', 'currency', 'amount_minor', 'waiting_reason'])
    .where('creator_store_shop', '=', creatorStoreShop)
    .where('paid_at', 'is', null)
    .orderBy('due_at')
    .orderBy('creator_order_id')
    .execute()

/** Every unpaid payout of a creator with a payout account: the hourly recheck tries them again. */
export const unpaidPayoutsWithAccount = (db: Db) =>
  db
    .selectFrom('creator_payouts')
    .innerJoin('store_payment_accounts', 'store_shop', 'creator_store_shop')
    .select('creator_order_id')
    .where('paid_at', 'is', null)
    .execute()

/** Records why a run could not pay the commission, outside any lease: nothing was sent. */
export const recordPayoutWaiting = (db: Db, creatorOrderId: string, reason: string) =>
  db
    .updateTable('creator_payouts')
    .set({ waiting_reason: reason })
    .where('creator_order_id', '=', creatorOrderId)
    .where('paid_at', 'is', null)
    .execute()

/**
 * Lowers an unpaid commission after a refund, in one statement fenced like a claim: only while no
 * run holds the payout and no transfer of it is under way (none intended, or the last declined,
 * after which the next attempt sends the amount recorded here under a new key). It clears the
 * claim of a run whose lease ran out, so that run's next write fails rather than recording the
 * amount it read before. Answers whether it was lowered; when not, the caller waits for the
 * payout's run to end.
 */
export async function reduceUnpaidCommission(
  db: Db,
  creatorOrderId: string,
  lowered: {
    amountMinor: number
    settlementCurrency: string
    amountSettlementMinor: number
    now: string
  },
): Promise<boolean> {
  const result = await db
    .updateTable('creator_payouts')
    .set({
      amount_minor: lowered.amountMinor,
      settlement_currency: lowered.settlementCurrency,
      amount_settlement_minor: lowered.amountSettlementMinor,
      claimed_by: null,
      lease_expires_at: null,
    })
    .where('creator_order_id', '=', creatorOrderId)
    .where('paid_at', 'is', null)
    .where((eb) =>
      eb.and([
        eb.or([eb('claimed_by', 'is', null), eb('lease_expires_at', '<', lowered.now)]),
        eb.or([eb('pending_since', 'is', null), eb('transfer_declined_at', 'is not', null)]),
      ]),
    )
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/**
 * Takes the payout's lease for one run until `expiresAt`: only when it is unpaid and nobody holds
 * it, or the holder's lease ran out.
 */
export async function claimCreatorPayout(
  db: Db,
  creatorOrderId: string,
  token: string,
  now: string,
  expiresAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('creator_payouts')
    .set({ claimed_by: token, lease_expires_at: expiresAt })
    .where('creator_order_id', '=', creatorOrderId)
    .where('paid_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('lease_expires_at', '<', now)]))
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** The writes of the run holding the payout's lease `token`, each renewing it to `leaseEnd()`. */
export function payoutUnderLease(
  db: Db,
  creatorOrderId: string,
  token: string,
  leaseEnd: () => string,
) {
  /** Renews and writes in one statement; refuses once another run took the lease (or, given `now`, once it ran out). */
  const write = async (values: Updateable<CreatorPayoutsTable>, now?: string, trx: Db = db) => {
    const result = await trx
      .updateTable('creator_payouts')
      .set({ ...values, lease_expires_at: leaseEnd() })
      .where('creator_order_id', '=', creatorOrderId)
      .where('claimed_by', '=', token)
      .$if(now !== undefined, (qb) => qb.where('lease_expires_at', '>', now!))
      .executeTakeFirst()
    if (result.numUpdatedRows === 0n) throw new PayoutLeaseLostError(creatorOrderId)
  }
  return {
    /** Just before the call: a run that stalled past its lease must not make it. */
    renewBeforeCall: (now: string) => write({}, now),
    /**
     * Where, how much and under which key's attempt the transfer about to be sent pays, with no
     * decline of its own yet: one write, so that no crash leaves a new key beside an account
     * Stripe declined.
     */
    recordIntent: (
      values: Pick<
        Updateable<CreatorPayoutsTable>,
        'transfer_destination' | 'settlement_currency' | 'amount_settlement_minor'
      > & { pending_since: string; transfer_key_attempt: number },
    ) => write({ ...values, transfer_declined_at: null }),
    /**
     * Paid by the transfer (null when the commission settled to nothing, and nothing moved), with
     * `alongside` (its record in the audit log) in the same transaction.
     */
    recordPaid: (transferId: string | null, at: string, alongside: (trx: Db) => Promise<void>) =>
      db.transaction().execute(async (trx) => {
        await write(
          {
            payment_transfer_id: transferId,
            paid_at: at,
            pending_since: null,
            transfer_declined_at: null,
            waiting_reason: null,
          },
          undefined,
          trx,
        )
        await alongside(trx)
      }),
    /** The intent stays: the next run reconciles first. */
    recordFailure: (reason: string, declinedAt?: string) =>
      write({
        waiting_reason: reason,
        ...(declinedAt !== undefined && { transfer_declined_at: declinedAt }),
      }),
    release: () =>
      db
        .updateTable('creator_payouts')
        .set({ claimed_by: null, lease_expires_at: null })
        .where('creator_order_id', '=', creatorOrderId)
        .where('claimed_by', '=', token)
        .execute(),
  }
}
