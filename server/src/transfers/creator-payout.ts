import { randomUUID } from 'node:crypto'
import { setTimeout } from 'node:timers/promises'
import { BALANCE_INSUFFICIENT, PaymentsError } from '../adapters/payments/payments-port'
import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import { formatMinorUnits } from '../domain/money'
import type { RegisterOptions } from '../jobs/job-queue'
import { orderJobSender, type OrderJob } from '../jobs/order-job'
import { RemoteTimeoutError, withDeadline, type Remote } from '../lib/remote-call'
import { PRODUCT_NAME } from '@shared/product'
import {
  claimCreatorPayout,
  findCreatorPayout,
  payoutUnderLease,
  PayoutLeaseLostError,
  recordCommissionDue,
  recordPayoutWaiting,
  unpaidPayoutsOf,
  unpaidPayoutsWithAccount,
  type CreatorPayoutRow,
} from '../repositories/creator-payouts'
import {
  checkChargeHolds,
  destinationOf,
  orderCharge,
  PayoutWaits,
  settledCommission,
  transferMade,
} from './creator-payout-checks'
import { transferGroupOf } from './order-payment'
import { recordAudit } from '../repositories/audit-log'
import { transferTiming } from './transfer-timing'
import { collectDebtsOf } from './store-debt'

// Paying a creator its commission on a completed creator order (docs/integrations.md "After the
// sale"): one more party of the order's exactly-once transfer, out of the same charge and in the
// same transfer group. Completing the order records the commission as owed and sends this job in
// the same transaction; a creator without a payout account (or one Stripe cannot pay) keeps it
// owed, with the reason, until the account is set (which sends the job again) or the hourly
// recheck finds it payable. The transfer's intent (account, amount in the settlement currency) is
// recorded before the call and its result after, under a lease of the payout's own; an unknown
// outcome is reconciled by looking the transfer up in the order's group before any new call, and
// the idempotency key moves on only after Stripe declined the last one.

export const CREATOR_PAYOUT_JOB = 'creator-payout'
/** Stripe's outages, as an order's transfer waits them out. */
export const CREATOR_PAYOUT_RETRIES: RegisterOptions = { retryLimit: 8, retryDelaySeconds: 30 }

export type CreatorPayoutJob = OrderJob

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'payments' | 'now' | 'transferTiming'>

/** What a creator's commission transfer carries, so that it is found again as the creator's. */
const payoutMetadata = (creatorOrderId: string, creatorShop: string) => ({
  creator_order_id: creatorOrderId,
  creator_shop: creatorShop,
})

/** One key per settlement currency and attempt, as a brand's transfer has. */
const payoutKey = (creatorOrderId: string, currency: string, attempt: number) =>
  `creator-commission:${creatorOrderId}:${currency.toLowerCase()}${attempt ? `:${attempt}` : ''}`

/** A run that finds the commission paid does nothing. */
export const sendPayoutJob = orderJobSender(CREATOR_PAYOUT_JOB)

/**
 * Within the transaction that completes the order: its creator's commission owed, and paid by a
 * job; unless `refundsFirst` (a refund of the order was noticed), when the refund's job lowers it
 * first and then sends the payout's.
 */
export async function owePayoutOnCompletion(
  deps: Pick<Deps, 'jobs'>,
  trx: Db,
  transfer: { creatorOrderId: string; creatorStoreShop: string; currency: string },
  now: string,
  { refundsFirst }: { refundsFirst: boolean },
): Promise<void> {
  if ((await recordCommissionDue(trx, transfer, now)) && !refundsFirst) {
    await sendPayoutJob(deps, trx, transfer.creatorOrderId)
  }
}

/** Within the transaction that sets the creator's payout account: every commission it is owed, paid. */
export async function requeuePayoutsOf(deps: Pick<Deps, 'jobs'>, trx: Db, creatorShop: string) {
  for (const payout of await unpaidPayoutsOf(trx, creatorShop)) {
    await sendPayoutJob(deps, trx, payout.creator_order_id)
  }
}

/** Hourly: a commission waiting on something fixed in Stripe (an account onboarded) is tried again. */
export async function recheckUnpaidPayouts(deps: Pick<Deps, 'db' | 'jobs'>): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    for (const payout of await unpaidPayoutsWithAccount(trx)) {
      await sendPayoutJob(deps, trx, payout.creator_order_id)
    }
  })
}

/** The job: pays the order's creator commission once, or records why it still waits. */
export async function payCreatorCommission(
  deps: Deps,
  { creatorOrderId }: CreatorPayoutJob,
): Promise<void> {
  const timing = transferTiming(deps.transferTiming)
  const timestamp = () => deps.now().toISOString()
  const payout = await findCreatorPayout(deps.db, creatorOrderId)
  if (!payout || payout.paid_at !== null) return

  const token = randomUUID()
  const leaseEnd = () => new Date(deps.now().getTime() + timing.leaseMs).toISOString()
  const claim = () => claimCreatorPayout(deps.db, creatorOrderId, token, timestamp(), leaseEnd())
  if (!(await claim())) {
    // Another run holds it, or one died holding it: its lease is waited out once (unrenewed, it
    // ends within `leaseMs`), then the queue retries.
    const heldUntil = payout.lease_expires_at ? Date.parse(payout.lease_expires_at) : 0
    await setTimeout(Math.min(Math.max(heldUntil - deps.now().getTime(), 0), timing.leaseMs) + 100)
    if (!(await claim())) {
      // The other run paid it meanwhile.
      if ((await findCreatorPayout(deps.db, creatorOrderId))?.paid_at) return
      throw new Error(
        `The commission of creator order ${creatorOrderId} is being paid by another run`,
      )
    }
  }
  const lease = payoutUnderLease(deps.db, creatorOrderId, token, leaseEnd)
  let unsettled = false
  try {
    // Read again under the lease: what a run before this one recorded (an intent, a decline).
    const claimed = await findCreatorPayout(deps.db, creatorOrderId)
    if (!claimed) throw new Error(`The commission of creator order ${creatorOrderId} vanished`)
    await payUnderLease(deps, claimed, lease, timing, () => {
      unsettled = true
    })
  } catch (error) {
    if (error instanceof PayoutWaits) {
      await recordPayoutWaiting(deps.db, creatorOrderId, error.message)
      return
    }
    throw error
  } finally {
    // A call past its deadline may still land: the lease runs out rather than being given up.
    if (!unsettled) await lease.release()
  }
}

async function payUnderLease(
  deps: Deps,
  payout: CreatorPayoutRow,
  lease: ReturnType<typeof payoutUnderLease>,
  timing: ReturnType<typeof transferTiming>,
  markUnsettled: () => void,
): Promise<void> {
  const { payments } = deps
  const timestamp = () => deps.now().toISOString()
  const remote: Remote = (call) =>
    withDeadline(timing.remoteTimeoutMs, call).catch((error: unknown) => {
      if (error instanceof RemoteTimeoutError) markUnsettled()
      throw error
    })
  const id = payout.creator_order_id
  /** Recorded paid, and in the audit log (Activity) with what moved, in one transaction. */
  const paid = (transferId: string | null, settled: { minor: number; currency: string } | null) =>
    lease.recordPaid(transferId, timestamp(), async (trx) => {
      // What the creator owes from an earlier refund is taken from the commission just paid.
      await collectDebtsOf(deps, trx, [payout.creator_store_shop])
      await recordAudit(trx, deps.now(), {
        actorEmail: null,
        action: 'transfer.creator-commission',
        target: id,
        details: {
          creatorShop: payout.creator_store_shop,
          amount:
            settled && `${formatMinorUnits(settled.minor, settled.currency)} ${settled.currency}`,
          transferId,
        },
      })
    })
  await timing.failpoint('creatorTransfer:before-intent')

  const made = await transferMade(deps, payout, remote)
  if (made !== null) {
    const { amount_settlement_minor: minor, settlement_currency: currency } = payout
    await paid(made, minor !== null && currency !== null ? { minor, currency } : null)
    return
  }
  const accountId = await destinationOf(deps, payout, remote)
  const charge = await orderCharge(deps, id, remote)
  const settlementCurrency = payout.settlement_currency ?? charge.settlement.currency
  const amountSettlementMinor =
    payout.amount_settlement_minor ??
    (await settledCommission(deps.db, id, payout.currency, charge.settlement))
  // Stripe refuses a transfer of nothing: a commission that settles to nothing is owed none.
  if (amountSettlementMinor <= 0) {
    await paid(null, null)
    return
  }
  const money = (minor: number) =>
    `${formatMinorUnits(minor, settlementCurrency)} ${settlementCurrency}`
  const { sourceTransaction } = await checkChargeHolds(
    deps,
    { id, charge, amountSettlementMinor },
    remote,
  )

  // A key Stripe declined before (and under which reconciling found nothing) is not sent again.
  const declinedBefore = payout.pending_since !== null && payout.transfer_declined_at !== null
  const keyAttempt = payout.transfer_key_attempt + (declinedBefore ? 1 : 0)
  await lease.recordIntent({
    transfer_destination: accountId,
    settlement_currency: settlementCurrency,
    amount_settlement_minor: amountSettlementMinor,
    pending_since: payout.pending_since ?? timestamp(),
    transfer_key_attempt: keyAttempt,
  })
  await timing.failpoint('creatorTransfer:before-call')
  await lease.renewBeforeCall(timestamp())
  let transferId: string
  try {
    transferId = (
      await remote((signal) =>
        payments.createTransfer(
          {
            amountMinor: amountSettlementMinor,
            currency: settlementCurrency,
            destinationAccountId: accountId,
            sourceTransaction,
            idempotencyKey: payoutKey(id, settlementCurrency, keyAttempt),
            transferGroup: transferGroupOf(id),
            description: `${PRODUCT_NAME} commission of creator order ${id} to ${payout.creator_store_shop}`,
            metadata: payoutMetadata(id, payout.creator_store_shop),
          },
          { signal },
        ),
      )
    ).id
  } catch (error) {
    if (error instanceof PayoutLeaseLostError) throw error
    const declined = error instanceof PaymentsError && error.declined
    const reason = `Stripe ${declined ? 'declined' : 'did not complete'} the commission transfer of ${money(amountSettlementMinor)}: ${error instanceof Error ? error.message : String(error)}`
    await lease.recordFailure(reason, declined ? timestamp() : undefined)
    if (declined && sourceTransaction === null && error.code === BALANCE_INSUFFICIENT) {
      // Paid from the platform's available balance, which Stripe says cannot cover it: it waits
      // (recorded, not retried now) for the hourly recheck to find the balance covering it.
      const balance = await remote((signal) =>
        payments.balance(null, settlementCurrency, { signal }),
      )
      throw new PayoutWaits(
        `The platform's available Stripe balance (${money(balance.availableMinor)}, ${money(balance.pendingMinor)} pending) does not cover the commission of ${money(amountSettlementMinor)}, paid from it since the charge of creator order ${id} no longer holds it: it is paid once the available balance covers it (looked at hourly), or add funds to the platform's balance in Stripe`,
      )
    }
    throw error
  }
  await timing.failpoint('creatorTransfer:after-call')
  await paid(transferId, { minor: amountSettlementMinor, currency: settlementCurrency })
  await timing.failpoint('creatorTransfer:after-record')
}
