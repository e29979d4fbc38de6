import { TRANSFER_ERRORS } from '@shared/contract'
import type { Db } from '../db/connect'
import type { AutomationState } from '../db/schema'
import type { RouteDeps } from '../deps'
import type { AttentionKind } from '../domain/attention'
import { classifyProcessingFailure } from '../domain/processing-failure'
import { automaticTransferOf, type PaidOrderTimes } from '../domain/transfer-policy'
import type { JobContext, RegisterOptions } from '../jobs/job-queue'
import { findBrandPause, findOrderHold, firstPausedBrand } from '../repositories/holds'
import { lockStore } from '../repositories/stores'
import {
  findAutomaticOrder,
  lockAutomaticOrder,
  outcomeStaleness,
  ordersHeldByBrand,
  ordersNeedingAttentionExcept,
  ordersOverdue,
  ordersWaitingOnBrand,
  recordAutomaticOrder,
  recordOutcome,
  requeueOrders,
  type Outcome,
} from '../repositories/order-automation'
import { findTransferPolicy } from '../repositories/transfer-policy'
import { transferTiming } from '../transfers/transfer-timing'
import { createOrderTransferService } from './order-transfers'

// Paid orders that transfer themselves (docs/product-rules.md "Automatic transfers"). An order the
// transfer policy makes automatic is recorded, with a job due at the end of its hold, in the
// transaction that learns it was paid; the job runs the same exactly-once processing as an
// administrator's click. A failure worth retrying is retried by the queue with backoff; one a
// person must fix stops the order as "needs attention", and fixing the brand it names puts it back
// on the queue; an order with nothing to transfer stops there.

export const TRANSFER_JOB = 'transfer-order'
export const ATTENTION_RECHECK_JOB = 'attention-recheck'

/** Shopify's and Stripe's outages: 30 s doubled eight times, about two hours in all. */
export const TRANSFER_RETRIES: RegisterOptions = { retryLimit: 8, retryDelaySeconds: 30 }

/**
 * Orders one process transfers at once. Each spends most of its time waiting on Shopify and on
 * this process's Stripe pacer, so one at a time leaves the rate limits idle; but a call's wait in
 * the pacer counts against its remote-call deadline (10 s), so not many more than the pacer
 * serves in a few seconds: 16 orders of about six Stripe requests wait about 2 s at a process's
 * share of live mode with two processes (50 a second, 12.5 per endpoint).
 */
export const TRANSFER_JOBS_AT_ONCE = 16

/** One run of an order's processing; only the newest generation's outcome is written. */
export interface TransferJob {
  creatorOrderId: string
  generation: number
}

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'commerce' | 'payments' | 'now' | 'transferTiming'>

/** Where a failed job's message goes (the server's log). */
interface Log {
  warn(details: object, message: string): void
}

/**
 * A paid order Tandem learned of (a webhook's arrival, or the catch-up's reading), as its own
 * shop's Shopify has it: when the policy makes it automatic, recorded with its job for the end of
 * its hold, within `trx`. An order recorded already (a webhook sent twice) is left as it is.
 */
export async function scheduleAutomaticTransfer(
  deps: Pick<Deps, 'jobs' | 'now' | 'transferTiming'>,
  trx: Db,
  order: { creatorOrderId: string; storeShop: string },
  times: PaidOrderTimes,
): Promise<void> {
  const automatic = automaticTransferOf(
    await findTransferPolicy(trx),
    times,
    transferTiming(deps.transferTiming).holdMinuteMs,
  )
  if (!automatic.automatic) return
  const recorded = await recordAutomaticOrder(
    trx,
    {
      ...order,
      createdAt: times.createdAt.toISOString(),
      paidAt: times.paidAt.toISOString(),
      dueAt: automatic.holdEndsAt.toISOString(),
    },
    deps.now().toISOString(),
  )
  if (!recorded) return
  const job: TransferJob = { creatorOrderId: order.creatorOrderId, generation: 1 }
  await deps.jobs.send(TRANSFER_JOB, job, { startAfter: automatic.holdEndsAt, within: trx })
}

/**
 * After a fix to `brandStoreShop` (its commission, its payout account, its store connected), within
 * the fix's transaction: every order that needs attention for a reason naming it goes back on the
 * queue, to run at once. One whose other reasons still stand comes back to "needs attention".
 */
export async function requeueOrdersWaitingOn(
  deps: Pick<Deps, 'jobs' | 'now'>,
  trx: Db,
  brandStoreShop: string,
): Promise<void> {
  // Locked as the job locks it before it records that an order needs attention (fixedSince).
  await lockStore(trx, brandStoreShop)
  await requeue(deps, trx, await ordersWaitingOnBrand(trx, brandStoreShop))
}

/**
 * The reasons an administrator fixes through Tandem's own calls, each of which puts the orders
 * waiting on it back on the queue. Every other reason is fixed outside Tandem (a Stripe account's
 * onboarding, a product put on sale), where no call tells Tandem of it, at least sometimes: a
 * brand's app installed puts its orders back at once too (services/shop-connections.ts), but
 * Shopify may also let Tandem into a store again without it (a grant allowed again, a token that
 * failed for a while), and a store unknown may be added to `stores` by hand.
 */
const FIXED_THROUGH_TANDEM: readonly AttentionKind[] = [
  'noDefaultCommission',
  'noPayoutAccount',
  'priceBelowBrand',
  'fraudRisk',
]

/**
 * How long past its due time an order's job may stay unrun before the recheck takes it for lost:
 * far past a dead worker's takeover (minutes) and a backlog's drain at the rate limits.
 */
const OVERDUE_MS = 60 * 60_000

/**
 * The schedule's recheck: the orders that need attention for reasons fixed outside Tandem, or
 * that stopped on a failure that outlasted their retries, go back on the queue, and so do the
 * orders whose job is long overdue (lost with a worker that died on its last attempt); those
 * still refused come back to "needs attention". Fixes made through Tandem requeue their orders at
 * once.
 */
export async function recheckOrdersNeedingAttention(deps: Pick<Deps, 'db' | 'jobs' | 'now'>) {
  const overdueBefore = new Date(deps.now().getTime() - OVERDUE_MS).toISOString()
  await deps.db.transaction().execute(async (trx) => {
    const stopped = await ordersNeedingAttentionExcept(trx, FIXED_THROUGH_TANDEM)
    await requeue(deps, trx, [...stopped, ...(await ordersOverdue(trx, overdueBefore))])
  })
}

/**
 * The one way one order goes back on the queue after a change to it (a price exception accepted,
 * a hold released), within the change's transaction: if it is automatic and stands in one of the
 * states `from`, those the caller's change may end.
 */
export async function requeueOrderFrom(
  deps: Pick<Deps, 'jobs' | 'now'>,
  trx: Db,
  creatorOrderId: string,
  from: readonly AutomationState[],
): Promise<void> {
  // Locked: the job's outcome, written meanwhile, is either seen here or sees this change.
  const order = await lockAutomaticOrder(trx, creatorOrderId)
  if (order && from.includes(order.state)) await requeue(deps, trx, [creatorOrderId])
}

/**
 * After a brand is resumed, within its transaction: the automatic orders its pause held go back
 * on the queue.
 */
export async function requeueOrdersHeldByBrand(
  deps: Pick<Deps, 'jobs' | 'now'>,
  trx: Db,
  brandStoreShop: string,
): Promise<void> {
  await requeue(deps, trx, await ordersHeldByBrand(trx, brandStoreShop))
}

async function requeue(deps: Pick<Deps, 'jobs' | 'now'>, trx: Db, creatorOrderIds: string[]) {
  const requeued = await requeueOrders(trx, creatorOrderIds, deps.now().toISOString())
  for (const job of requeued) {
    await deps.jobs.send(TRANSFER_JOB, job satisfies TransferJob, { within: trx })
  }
}

/**
 * Before an administrator retries an order's dead job (the Jobs page), within a transaction: the
 * order its last attempt left needing attention goes back to RETRYING under that job's generation,
 * so that the job's run processes it rather than find it no longer waiting. An order requeued
 * since (a newer job of its own) or no longer needing attention is left as it is.
 */
export async function reviveDeadTransfer(
  deps: Pick<Deps, 'now'>,
  trx: Db,
  { creatorOrderId, generation }: TransferJob,
): Promise<void> {
  const order = await findAutomaticOrder(trx, creatorOrderId)
  if (order?.state !== 'NEEDS_ATTENTION' || order.generation !== generation) return
  const now = deps.now().toISOString()
  const retrying = { state: 'RETRYING', dueAt: now, message: order.message } as const
  await recordOutcome(trx, creatorOrderId, generation, retrying, now)
}

/**
 * The job. Processes the order unless a newer job was sent for it, it is no longer waiting, or
 * the policy changed: turned MANUAL, the order waits for an administrator; a longer hold, its job
 * comes back when the hold ends.
 */
export async function transferAutomatically(
  deps: Deps,
  { creatorOrderId, generation }: TransferJob,
  job: JobContext,
  retries: RegisterOptions,
  log: Log,
): Promise<void> {
  const order = await findAutomaticOrder(deps.db, creatorOrderId)
  if (!order || order.generation !== generation) return
  if (order.state !== 'WAITING' && order.state !== 'RETRYING') return
  const now = () => deps.now().toISOString()
  const record = (outcome: Outcome) =>
    deps.db
      .transaction()
      .execute((trx) => recordOutcome(trx, creatorOrderId, generation, outcome, now()))

  const automatic = automaticTransferOf(
    await findTransferPolicy(deps.db),
    { createdAt: new Date(order.createdAt), paidAt: new Date(order.paidAt) },
    transferTiming(deps.transferTiming).holdMinuteMs,
  )
  if (!automatic.automatic) {
    await record({ state: 'MANUAL' })
    return
  }
  if (automatic.holdEndsAt > deps.now()) {
    const dueAt = automatic.holdEndsAt
    await deps.db.transaction().execute(async (trx) => {
      const current = await recordOutcome(
        trx,
        creatorOrderId,
        generation,
        { state: 'WAITING', dueAt: dueAt.toISOString() },
        now(),
      )
      if (current) {
        await deps.jobs.send(
          TRANSFER_JOB,
          { creatorOrderId, generation },
          {
            startAfter: dueAt,
            within: trx,
          },
        )
      }
    })
    return
  }

  if (await findOrderHold(deps.db, creatorOrderId)) {
    await record({ state: 'HELD' })
    return
  }

  const transfers = createOrderTransferService(deps)
  try {
    await transfers.process(
      null,
      creatorOrderId,
      (err) =>
        log.warn({ err, creatorOrderId }, 'the audit log could not record an automatic transfer'),
      { checkBrands: (shops) => refusePausedBrands(deps, shops) },
    )
    await record({ state: 'PROCESSED' })
  } catch (error) {
    if (error instanceof BrandPaused) {
      await holdForPause(deps, { creatorOrderId, generation }, error.shop)
      return
    }
    const failure = classifyProcessingFailure(error)
    switch (failure.outcome) {
      case 'nothingToTransfer':
        // An administrator's click (or another process) got there first.
        await record(
          failure.message === TRANSFER_ERRORS.alreadyProcessed
            ? { state: 'PROCESSED' }
            : { state: 'NOTHING_TO_TRANSFER', message: failure.message },
        )
        return
      case 'needsAttention':
        await deps.transferTiming?.failpoint?.('automatic:before-attention')
        await deps.db.transaction().execute(async (trx) => {
          // A fix made since this job read what it found missing put nothing back on the queue
          // (the order was not waiting on it yet): it goes back now rather than stay stopped.
          const times = { since: order.updatedAt, now: now() }
          const ofJob = { creatorOrderId, generation }
          const staleness = await outcomeStaleness(trx, ofJob, failure.reasons, times)
          if (staleness === 'fixed') await requeue(deps, trx, [creatorOrderId])
          if (staleness !== 'current') return
          const outcome = {
            state: 'NEEDS_ATTENTION',
            message: failure.message,
            reasons: failure.reasons,
          } as const
          await recordOutcome(trx, creatorOrderId, generation, outcome, times.now)
        })
        return
      case 'transient': {
        const lastAttempt = job.attempt > retries.retryLimit
        await record(
          lastAttempt
            ? {
                state: 'NEEDS_ATTENTION',
                message: `Still failing after ${job.attempt} attempt${job.attempt === 1 ? '' : 's'}: ${failure.message}`,
              }
            : {
                state: 'RETRYING',
                message: failure.message,
                dueAt: nextRetryAt(deps.now(), retries, job.attempt).toISOString(),
              },
        )
        // The queue retries it, or lists it dead on the Jobs page after the last attempt.
        throw error
      }
    }
  }
}

/** Automatic processing stops, before anything is asked of Stripe, at a brand paused. */
class BrandPaused extends Error {
  constructor(readonly shop: string) {
    super(`${shop} is paused`)
  }
}

/**
 * Records the order held by the brand's pause, taking turns with the brand's resume (which locks
 * its store too, services/holds.ts): a pause lifted since the job read it puts the order back on
 * the queue instead of leaving it held by no pause.
 */
async function holdForPause(
  deps: Pick<Deps, 'db' | 'jobs' | 'now'>,
  job: TransferJob,
  shop: string,
) {
  await deps.db.transaction().execute(async (trx) => {
    await lockStore(trx, shop)
    if (await findBrandPause(trx, shop)) {
      const held = { state: 'HELD', pausedBrand: shop } as const
      await recordOutcome(trx, job.creatorOrderId, job.generation, held, deps.now().toISOString())
      return
    }
    const order = await findAutomaticOrder(trx, job.creatorOrderId)
    if (order?.generation === job.generation) await requeue(deps, trx, [job.creatorOrderId])
  })
}

async function refusePausedBrands(deps: Pick<Deps, 'db'>, shops: readonly string[]) {
  const paused = await firstPausedBrand(deps.db, shops)
  if (paused) throw new BrandPaused(paused.shop)
}

/**
 * The earliest the queue runs the job again after its `attempt`-th run failed: the embedded queue
 * runs it then; pg-boss spreads its retries over up to twice that delay, so the console says
 * "Retrying from" this time rather than "at".
 */
const nextRetryAt = (now: Date, retries: RegisterOptions, attempt: number) =>
  new Date(now.getTime() + retries.retryDelaySeconds * 2 ** (attempt - 1) * 1000)
