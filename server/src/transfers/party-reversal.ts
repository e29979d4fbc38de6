import { BALANCE_INSUFFICIENT, PaymentsError } from '../adapters/payments/payments-port'
import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import { formatMinorUnits } from '../domain/money'
import type { Remote } from '../lib/remote-call'
import { recordAudit } from '../repositories/audit-log'
import {
  isUnsettled,
  recordReversalDeclined,
  recordReversalFailure,
  recordReversalIntent,
  recordReversalOwed,
  recordReversed,
  type OrderReversalRow,
} from '../repositories/order-reversals'
import { PRODUCT_NAME } from '@shared/product'
import { balanceFor, FundsPending } from './pending-funds'

// Taking back from one party's transfer what a refund says it no longer earns (order-refunds.ts):
// each reversal an exactly-once step of its own. Its intent (amount, idempotency key) is recorded
// before the call and its result after; an intent whose outcome is unknown is looked for among the
// transfer's reversals by its key before it is sent again, under the same key. What Stripe refuses
// for the account's balance is recorded as owed by the party, and is not asked of Stripe again,
// unless Stripe holds the money pending there: then the refusal is recorded declined (nothing
// went back) and the reversal waits for the funds, sent anew once they are available
// (pending-funds.ts).

type Deps = Pick<RouteDeps, 'db' | 'payments' | 'now'>

export interface PartyReversal {
  creatorOrderId: string
  party: 'BRAND' | 'CREATOR'
  storeShop: string
  /** The party's transfer, its currency (the charge's settlement currency) and its amount. */
  transferId: string
  currency: string
  transferredMinor: number
  /**
   * All that should have gone back from the transfer by now: paid less what is still earned, and
   * for a creator what she refunded beyond it (order-refunds.ts), which may exceed the transfer.
   */
  owedBackMinor: number
  /** Why what the transfer cannot carry is owed, when it is more than it was paid. */
  beyondTransfer?: string
}

/**
 * Named after the transfer, which nothing renames: a shop's domain in the key would outlive the
 * shop's erasure, in Tandem's records and in Stripe's.
 */
const reversalKey = (transferId: string, seq: number) => `reversal:${transferId}:${seq}`

/**
 * Brings the party's reversals up to `owedBackMinor`. `recorded` is the order's reversals as read
 * before: a reversal recorded by another run since makes this one's insert fail, not reverse again.
 * What went back is summed over the party's own transfer, never by its shop's name, which a
 * shop's erasure changes. A party owed a minor unit by rounding (owedBackMinor below what went
 * back) gets nothing back.
 */
export async function reverseParty(
  deps: Deps,
  reversal: PartyReversal,
  recorded: readonly OrderReversalRow[],
  remote: Remote,
  failpoint: (name: string) => Promise<void>,
): Promise<void> {
  const ofTransfer = recorded.filter((row) => row.transfer_id === reversal.transferId)
  await settleUnknown(deps, ofTransfer, remote, failpoint)
  // A reversal declined while its funds were pending took nothing back.
  const ofParty = ofTransfer.filter((row) => row.party === reversal.party)
  const accounted = ofParty
    .filter((row) => row.declined_at === null)
    .reduce((sum, row) => sum + row.amount_minor, 0)
  const dueMinor = reversal.owedBackMinor - accounted
  if (dueMinor <= 0) return
  // Stripe reverses no more than a transfer still carries, and a debt of the party's may have
  // been taken from it (store-debt.ts): what it no longer carries is owed, as a refused one is.
  const carried =
    reversal.transferredMinor -
    ofTransfer
      .filter((row) => !row.owed_since && !row.declined_at)
      .reduce((sum, row) => sum + row.amount_minor, 0)
  const fromTransfer = Math.min(dueMinor, Math.max(carried, 0))
  const beyond = reversal.owedBackMinor > reversal.transferredMinor && reversal.beyondTransfer
  let seq = nextSeq(ofTransfer)
  if (fromTransfer > 0 && ofParty.at(-1)?.declined_at) {
    // It waited for pending funds: still pending, it is not asked of Stripe again (a read only).
    const intent = intentOf({ ...reversal, amountMinor: fromTransfer }, seq, deps.now())
    const balance = await balanceFor(deps, intent, remote)
    if (typeof balance === 'object') throw new FundsPending(balance.waits)
  }
  if (fromTransfer > 0) {
    await reverseAnew(
      deps,
      { ...reversal, amountMinor: fromTransfer },
      ofTransfer,
      remote,
      failpoint,
    )
    seq += 1
  }
  if (fromTransfer < dueMinor) {
    const intent = intentOf({ ...reversal, amountMinor: dueMinor - fromTransfer }, seq, deps.now())
    const message =
      beyond ||
      `${reversal.transferId} no longer carries it: a debt of ${reversal.storeShop}'s was taken from it`
    // Recorded owed in the one statement that records it: never an intent to send to Stripe.
    await deps.db.transaction().execute(async (trx) => {
      await recordReversalIntent(trx, {
        ...intent,
        owed_since: intent.pending_since,
        failed_message: message,
      })
      await auditOwed(trx, deps.now(), pendingRow(intent), message)
    })
  }
}

const nextSeq = (ofTransfer: readonly OrderReversalRow[]) =>
  ofTransfer.reduce((last, row) => Math.max(last, row.seq), -1) + 1

/** The row of a reversal's intent at `seq`: its amount and key, pending from `at`. */
const intentOf = (
  reversal: Omit<PartyReversal, 'owedBackMinor' | 'party' | 'transferredMinor'> & {
    party: OrderReversalRow['party']
    amountMinor: number
  },
  seq: number,
  at: Date,
) => ({
  creator_order_id: reversal.creatorOrderId,
  store_shop: reversal.storeShop,
  seq,
  party: reversal.party,
  transfer_id: reversal.transferId,
  currency: reversal.currency,
  amount_minor: reversal.amountMinor,
  idempotency_key: reversalKey(reversal.transferId, seq),
  pending_since: at.toISOString(),
})

/** Settles every intent of `rows` whose outcome is unknown, before anything new is asked. */
export async function settleUnknown(
  deps: Deps,
  rows: readonly OrderReversalRow[],
  remote: Remote,
  failpoint: (name: string) => Promise<void>,
): Promise<void> {
  for (const row of rows) {
    if (isUnsettled(row)) await settleIntent(deps, row, remote, failpoint)
  }
}

/**
 * A new reversal of `amountMinor` from the transfer, at the seq after its last (`ofTransfer`, its
 * reversals as read before): its intent recorded, then sent.
 */
export async function reverseAnew(
  deps: Deps,
  reversal: Omit<PartyReversal, 'owedBackMinor' | 'party' | 'transferredMinor'> & {
    party: OrderReversalRow['party']
    amountMinor: number
  },
  ofTransfer: readonly OrderReversalRow[],
  remote: Remote,
  failpoint: (name: string) => Promise<void>,
): Promise<void> {
  const intent = intentOf(reversal, nextSeq(ofTransfer), deps.now())
  await failpoint('reversal:before-intent')
  await recordReversalIntent(deps.db, intent)
  await send(deps, pendingRow(intent), remote, failpoint)
}

/** The row of an intent just recorded: no outcome yet. */
const pendingRow = (intent: ReturnType<typeof intentOf>): OrderReversalRow => ({
  ...intent,
  reversal_id: null,
  reversed_at: null,
  owed_since: null,
  declined_at: null,
  failed_message: null,
})

/** An intent of an earlier run: the reversal it made, or the same request sent again. */
async function settleIntent(
  deps: Deps,
  row: OrderReversalRow,
  remote: Remote,
  failpoint: (name: string) => Promise<void>,
) {
  const made = (
    await remote((signal) => deps.payments.transferReversals(row.transfer_id, { signal }))
  ).find((reversal) => reversal.metadata.reversal_key === row.idempotency_key)
  if (made) {
    await recorded(deps, row, made.id)
    return
  }
  await send(deps, row, remote, failpoint)
}

async function send(
  deps: Deps,
  row: OrderReversalRow,
  remote: Remote,
  failpoint: (name: string) => Promise<void>,
) {
  const amount = `${formatMinorUnits(row.amount_minor, row.currency)} ${row.currency}`
  const timestamp = () => deps.now().toISOString()
  await failpoint('reversal:before-call')
  let reversalId: string
  try {
    reversalId = (
      await remote((signal) =>
        deps.payments.reverseTransfer(
          {
            transferId: row.transfer_id,
            amountMinor: row.amount_minor,
            currency: row.currency,
            idempotencyKey: row.idempotency_key,
            description:
              row.party === 'DEBT'
                ? `${PRODUCT_NAME}: what ${row.store_shop} owes, taken from its transfer of creator order ${row.creator_order_id}`
                : `${PRODUCT_NAME} refund of creator order ${row.creator_order_id}: ${row.store_shop}'s part`,
            metadata: {
              creator_order_id: row.creator_order_id,
              store_shop: row.store_shop,
              reversal_key: row.idempotency_key,
            },
          },
          { signal },
        ),
      )
    ).id
  } catch (error) {
    const message = `Stripe did not reverse ${amount} of ${row.transfer_id}: ${error instanceof Error ? error.message : String(error)}`
    if (error instanceof PaymentsError && error.code === BALANCE_INSUFFICIENT) {
      // A debt's taking: nothing was taken, and the debt stays.
      if (row.party === 'DEBT') {
        await recordReversalDeclined(deps.db, row, message, timestamp())
        return
      }
      const balance = await balanceFor(deps, row, remote)
      // One it no longer has: owed.
      if (balance === 'gone') {
        await owed(deps, row, message)
        return
      }
      // Nothing went back: sent anew, under the next key (Stripe keeps this refusal under its
      // own), once the funds still pending on its account are available, or at once if they are.
      const reason =
        balance === 'covered' ? `${message}; its account's balance covers it now` : balance.waits
      await recordReversalDeclined(deps.db, row, reason, timestamp())
      if (balance === 'covered') throw new Error(`${reason}: it is sent again`, { cause: error })
      throw new FundsPending(reason, { cause: error })
    }
    await recordReversalFailure(deps.db, row, message)
    // The job's error (the Jobs page) says what was not reversed, not only Stripe's words.
    throw new Error(message, { cause: error })
  }
  await failpoint('reversal:after-call')
  await recorded(deps, row, reversalId)
}

const details = (row: OrderReversalRow) => ({
  party: row.party,
  storeShop: row.store_shop,
  amount: `${formatMinorUnits(row.amount_minor, row.currency)} ${row.currency}`,
  transferId: row.transfer_id,
})

/** Recorded reversed, and in Activity, in one transaction. */
const recorded = (deps: Deps, row: OrderReversalRow, reversalId: string) =>
  deps.db.transaction().execute(async (trx) => {
    const at = deps.now()
    const result = await recordReversed(trx, row, reversalId, at.toISOString())
    if (result[0]?.numUpdatedRows === 0n) return
    await recordAudit(trx, at, {
      actorEmail: null,
      action: row.party === 'DEBT' ? 'transfer.debt-deduction' : 'transfer.reversal',
      target: row.creator_order_id,
      details: { ...details(row), reversalId },
    })
  })

/** Owed by the party from now (netted from what it is paid next), and in Activity. */
const owed = (deps: Deps, row: OrderReversalRow, message: string) =>
  deps.db.transaction().execute(async (trx) => {
    const at = deps.now()
    const result = await recordReversalOwed(trx, row, message, at.toISOString())
    if (result[0]?.numUpdatedRows === 0n) return
    await auditOwed(trx, at, row, message)
  })

const auditOwed = (trx: Db, at: Date, row: OrderReversalRow, message: string) =>
  recordAudit(trx, at, {
    actorEmail: null,
    action: 'transfer.reversal-owed',
    target: row.creator_order_id,
    details: { ...details(row), reason: message },
  })
