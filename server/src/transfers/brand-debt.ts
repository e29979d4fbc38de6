import type { Db } from '../db/connect'
import { underLease } from '../db/lease'
import type { RouteDeps } from '../deps'
import type { RegisterOptions } from '../jobs/job-queue'
import { withDeadline, type Remote } from '../lib/remote-call'
import { outstandingDebts, reversalsOf, transfersSince } from '../repositories/order-reversals'
import { reverseAnew, settleUnknown } from './party-reversal'
import { transferTiming } from './transfer-timing'

// What a brand owes after a refund whose reversal its Stripe balance could not cover
// (order-refunds.ts) is taken from its next transfers: each one made after the debt arose gives
// back, by a reversal of its own (a DEBT row of order_reversals), as much of the debt as it
// carries. A transfer just made has reached the brand's balance, so Stripe takes it back where it
// refused the first reversal. Each taking is an exactly-once step like any reversal (intent before,
// result after, reconciled by its key); Stripe refusing one leaves the debt owed for the next.

export const BRAND_DEBT_JOB = 'brand-debt'
export const BRAND_DEBT_RETRIES: RegisterOptions = { retryLimit: 8, retryDelaySeconds: 30 }

export interface BrandDebtJob {
  brandShop: string
}

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'payments' | 'now' | 'transferTiming'>

/** Within the transaction that completes an order: its brands that owe, each sent a job. */
export async function collectDebtsOf(
  deps: Pick<Deps, 'jobs'>,
  trx: Db,
  brandShops: readonly string[],
): Promise<void> {
  const owing = new Set((await outstandingDebts(trx, brandShops)).map((debt) => debt.storeShop))
  for (const brandShop of owing) {
    await deps.jobs.send(BRAND_DEBT_JOB, { brandShop } satisfies BrandDebtJob, { within: trx })
  }
}

/** Hourly: every brand that owes, in case a job was lost or ran out of retries. */
export async function recheckDebts(deps: Pick<Deps, 'db' | 'jobs'>): Promise<void> {
  const shops = await deps.db
    .selectFrom('order_reversals')
    .select('store_shop')
    .distinct()
    .where('owed_since', 'is not', null)
    .execute()
  await deps.db.transaction().execute((trx) =>
    collectDebtsOf(
      deps,
      trx,
      shops.map((row) => row.store_shop),
    ),
  )
}

/** The job: takes what the brand owes from its transfers made since, once. */
export async function collectBrandDebt(deps: Deps, { brandShop }: BrandDebtJob): Promise<void> {
  const timing = transferTiming(deps.transferTiming)
  const remote: Remote = (call) => withDeadline(timing.remoteTimeoutMs, call)
  const taken = await underLease(
    deps.db,
    `brand-debt:${brandShop}`,
    { ttlMs: timing.leaseMs, now: deps.now },
    async () => {
      // Each debt read again after every taking: a taking's outcome changes what is left.
      for (const debt of await outstandingDebts(deps.db, [brandShop])) {
        let owedMinor = debt.owedMinor
        for (const transfer of await transfersSince(
          deps.db,
          brandShop,
          debt.currency,
          debt.since,
        )) {
          if (owedMinor <= 0) break
          const ofStore = (await reversalsOf(deps.db, transfer.creatorOrderId)).filter(
            (row) => row.store_shop === brandShop,
          )
          await settleUnknown(deps, ofStore, remote, timing.failpoint)
          const amountMinor = Math.min(owedMinor, transfer.leftMinor)
          if (amountMinor <= 0) continue
          await reverseAnew(
            deps,
            {
              creatorOrderId: transfer.creatorOrderId,
              storeShop: brandShop,
              party: 'DEBT',
              transferId: transfer.transferId,
              currency: debt.currency,
              amountMinor,
            },
            ofStore,
            remote,
            timing.failpoint,
          )
          owedMinor -= amountMinor
        }
      }
    },
  )
  if (!taken) throw new Error(`What ${brandShop} owes is being collected by another run`)
}
