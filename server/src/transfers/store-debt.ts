import type { Db } from '../db/connect'
import { underLease } from '../db/lease'
import type { RouteDeps } from '../deps'
import type { RegisterOptions } from '../jobs/job-queue'
import { withDeadline, type Remote } from '../lib/remote-call'
import {
  outstandingDebts,
  reversalsOf,
  transfersSince,
  unsettledDebtTakings,
} from '../repositories/order-reversals'
import { reverseAnew, settleUnknown } from './party-reversal'
import { balanceFor } from './pending-funds'
import { transferTiming } from './transfer-timing'

// What a store owes after a refund whose reversal its Stripe balance could not cover
// (order-refunds.ts) is taken from what it is paid next: each transfer to it made after the debt
// arose (a brand's for an order, a creator's commission) gives back, by a reversal of its own (a
// DEBT row of order_reversals), as much of the debt as it carries. A transfer just made has
// reached the store's balance (once its funds are available: until then it is passed over,
// pending-funds.ts), so Stripe takes it back where it refused the first reversal. Each
// taking is an exactly-once step like any reversal (intent before, result after, reconciled by its
// key); Stripe refusing one leaves the debt owed for the next. A taking whose outcome is unknown
// (its call failed) counts as taken, so it is settled (looked up by its key, then sent again or
// declined) before the debt is counted, and a store with one is sent a job like a store that owes.

export const STORE_DEBT_JOB = 'store-debt'
export const STORE_DEBT_RETRIES: RegisterOptions = { retryLimit: 8, retryDelaySeconds: 30 }

export interface StoreDebtJob {
  storeShop: string
}

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'payments' | 'now' | 'transferTiming'>

/**
 * Within the transaction that pays stores (an order's completion, a commission): those that owe,
 * or have a taking to settle, each sent a job.
 */
export async function collectDebtsOf(
  deps: Pick<Deps, 'jobs'>,
  trx: Db,
  storeShops: readonly string[],
): Promise<void> {
  const owing = new Set(
    [
      ...(await outstandingDebts(trx, storeShops)),
      ...(await unsettledDebtTakings(trx, storeShops)),
    ].map((row) => ('storeShop' in row ? row.storeShop : row.store_shop)),
  )
  for (const storeShop of owing) {
    await deps.jobs.send(STORE_DEBT_JOB, { storeShop } satisfies StoreDebtJob, { within: trx })
  }
}

/**
 * Hourly: every store that owes or has a taking to settle, in case a job was lost or ran out of
 * retries.
 */
export async function recheckDebts(deps: Pick<Deps, 'db' | 'jobs'>): Promise<void> {
  const shops = await deps.db
    .selectFrom('order_reversals')
    .select('store_shop')
    .distinct()
    .where((eb) =>
      eb.or([
        eb('owed_since', 'is not', null),
        eb.and([
          eb('party', '=', 'DEBT'),
          eb('reversal_id', 'is', null),
          eb('declined_at', 'is', null),
        ]),
      ]),
    )
    .execute()
  await deps.db.transaction().execute((trx) =>
    collectDebtsOf(
      deps,
      trx,
      shops.map((row) => row.store_shop),
    ),
  )
}

/** The job: takes what the store owes from its transfers made since, once. */
export async function collectStoreDebt(deps: Deps, { storeShop }: StoreDebtJob): Promise<void> {
  const timing = transferTiming(deps.transferTiming)
  const remote: Remote = (call) => withDeadline(timing.remoteTimeoutMs, call)
  const taken = await underLease(
    deps.db,
    `store-debt:${storeShop}`,
    { ttlMs: timing.leaseMs, now: deps.now },
    async () => {
      await settleUnknown(
        deps,
        await unsettledDebtTakings(deps.db, [storeShop]),
        remote,
        timing.failpoint,
      )
      for (const debt of await outstandingDebts(deps.db, [storeShop])) {
        let owedMinor = debt.owedMinor
        for (const transfer of await transfersSince(
          deps.db,
          storeShop,
          debt.currency,
          debt.since,
        )) {
          if (owedMinor <= 0) break
          const ofTransfer = (await reversalsOf(deps.db, transfer.creatorOrderId)).filter(
            (row) => row.transfer_id === transfer.transferId,
          )
          await settleUnknown(deps, ofTransfer, remote, timing.failpoint)
          const amountMinor = Math.min(owedMinor, transfer.leftMinor)
          if (amountMinor <= 0) continue
          // Its funds still pending on the store's account, Stripe would refuse the taking: it is
          // taken once they are available (the hourly recheck), not refused each hour till then.
          const taking = {
            creator_order_id: transfer.creatorOrderId,
            store_shop: storeShop,
            transfer_id: transfer.transferId,
            currency: debt.currency,
            amount_minor: amountMinor,
          }
          if (typeof (await balanceFor(deps, taking, remote)) === 'object') continue
          await reverseAnew(
            deps,
            {
              creatorOrderId: transfer.creatorOrderId,
              storeShop,
              party: 'DEBT',
              transferId: transfer.transferId,
              currency: debt.currency,
              amountMinor,
            },
            ofTransfer,
            remote,
            timing.failpoint,
          )
          owedMinor -= amountMinor
        }
      }
    },
  )
  if (!taken) throw new Error(`What ${storeShop} owes is being collected by another run`)
}
