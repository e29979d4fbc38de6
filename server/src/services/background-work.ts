import type { RouteDeps } from '../deps'
import type { JobContext, JobHandler, RegisterOptions } from '../jobs/job-queue'
import { catchUpCreatorOrders } from '../orders/catch-up'
import { removeOAuthStatesBefore } from '../repositories/oauth-states'
import { removeDoneWebhookDeliveries } from '../repositories/webhook-deliveries'
import {
  ATTENTION_RECHECK_JOB,
  recheckOrdersNeedingAttention,
  TRANSFER_JOB,
  TRANSFER_JOBS_AT_ONCE,
  TRANSFER_RETRIES,
  transferAutomatically,
  type TransferJob,
} from './automatic-transfers'
import {
  CREATOR_PAYOUT_JOB,
  CREATOR_PAYOUT_RETRIES,
  payCreatorCommission,
  recheckUnpaidPayouts,
  type CreatorPayoutJob,
} from '../transfers/creator-payout'
import {
  STORE_DEBT_JOB,
  STORE_DEBT_RETRIES,
  collectStoreDebt,
  recheckDebts,
  type StoreDebtJob,
} from '../transfers/store-debt'
import {
  ORDER_REFUND_JOB,
  ORDER_REFUND_RETRIES,
  settleOrderRefunds,
  type OrderRefundJob,
} from '../transfers/order-refunds'
import { registerCatalogJobs } from '../catalog/catalog-work'
import { followShipment } from '../shipping/brand-shipment'
import { catchUpShipments } from '../shipping/shipping-catch-up'
import { catchUpRefunds, REFUND_CATCH_UP_JOB } from '../refunds/refund-catch-up'
import {
  BRAND_SHIPMENT_JOB,
  BRAND_SHIPMENT_RETRIES,
  type BrandShipmentJob,
} from '../shipping/shipping-jobs'
import {
  actOnDelivery,
  WEBHOOK_JOB,
  WEBHOOK_JOBS_AT_ONCE,
  WEBHOOK_RETRIES,
  type ActDeps,
} from './webhook-inbox'

// Every piece of background work the server does, as jobs of the queue (jobs/job-queue.ts): the
// webhook inbox's deliveries, automatic transfers and the recheck of those needing attention,
// creators' commissions, refunds, listings following their brand products, creators' orders
// following their brands' shipments, the catch-up of orders, shipments and refunds, and retention.
// Each server process registers them all and works the one queue, so that a job runs once across
// replicas, and survives a crash of the process running it.

/** What a job's failure is told to: the server's log (pino: `err` keeps the message and stack). */
export interface JobLog {
  info(details: object, message: string): void
  warn(details: object, message: string): void
  error(details: object, message: string): void
}

export const CATCH_UP_JOB = 'creator-order-catch-up'
export const RETENTION_JOB = 'retention'

/**
 * Every few minutes: an order paid while its webhook was lost (or before a shop was connected)
 * reaches the inbox within this time. The catch-up reads one page per creator shop once caught up.
 */
const CATCH_UP_CRON = '*/5 * * * *'
/** Hourly, at a minute no other schedule uses. */
const RETENTION_CRON = '17 * * * *'
/**
 * Every quarter of an hour, between the order catch-ups: a refund whose webhook was lost goes
 * back within this time (refunds/refund-catch-up.ts says what each costs).
 */
const REFUND_CATCH_UP_CRON = '3,18,33,48 * * * *'
/**
 * Hourly too: an order stopped by a cause fixed outside Tandem (a Stripe account onboarded)
 * transfers within the hour, at the cost of asking Shopify and Stripe again for those still not
 * fixed.
 */
const ATTENTION_RECHECK_CRON = '41 * * * *'

/** How long what is finished is kept before retention removes it. */
export const KEEP = {
  /** Done deliveries: long past Shopify's resends (4 h), for whoever investigates one. */
  deliveryDays: 30,
  /** An install's state is good for 10 minutes; a day leaves no doubt. */
  oauthStateDays: 1,
  /** Done jobs, for looking into what ran; dead jobs stay until retried. */
  finishedJobDays: 7,
}

type Deps = Pick<
  RouteDeps,
  'db' | 'jobs' | 'shopify' | 'commerce' | 'payments' | 'now' | 'transferTiming'
> &
  Pick<ActDeps, 'failpoint'>

export interface BackgroundOptions {
  /**
   * Whether the schedules run and the catch-up is sent at start: always in a server, off in tests
   * of other things, whose Shopify call counts a catch-up would change.
   */
  schedules: boolean
  /**
   * Every job's first retry waits this long, doubled after: 1 s in tests, which watch retries
   * happen; each job's own wait in a server.
   */
  retryDelaySeconds?: number
  /**
   * At most this many retries for any job: tests, which watch a job run out of retries, give it
   * one or two (the webhook job's ten take hours); each job's own limit in a server.
   */
  retryLimit?: number
}

/** Registers every job, starts the queue, and (with schedules) the catch-ups at once. */
export async function startBackgroundWork(
  deps: Deps,
  log: JobLog,
  options: BackgroundOptions,
): Promise<void> {
  const { jobs } = deps
  /** `handler` is told the settings in force, which tests shorten. */
  const register = <Payload extends object>(
    name: string,
    handler: (payload: Payload, job: JobContext, settings: RegisterOptions) => Promise<void>,
    settings: RegisterOptions,
  ) => {
    const { retryDelaySeconds = settings.retryDelaySeconds } = options
    const retried = {
      ...settings,
      retryLimit: Math.min(settings.retryLimit, options.retryLimit ?? Infinity),
      // A job that retries at once still does.
      ...(settings.retryDelaySeconds > 0 ? { retryDelaySeconds } : {}),
    }
    const run: JobHandler<Payload> = (payload, job) => handler(payload, job, retried)
    return jobs.register<Payload>(name, logged(name, run, retried, log), retried)
  }

  await register<{ webhookId: string }>(
    WEBHOOK_JOB,
    (payload, job) => actOnDelivery(deps, payload, job, log),
    { ...WEBHOOK_RETRIES, concurrency: WEBHOOK_JOBS_AT_ONCE },
  )
  await register<TransferJob>(
    TRANSFER_JOB,
    (payload, job, settings) => transferAutomatically(deps, payload, job, settings, log),
    { ...TRANSFER_RETRIES, concurrency: TRANSFER_JOBS_AT_ONCE },
  )
  await register<CreatorPayoutJob>(
    CREATOR_PAYOUT_JOB,
    (payload) => payCreatorCommission(deps, payload),
    CREATOR_PAYOUT_RETRIES,
  )
  await register<OrderRefundJob>(
    ORDER_REFUND_JOB,
    (payload) => settleOrderRefunds(deps, payload),
    ORDER_REFUND_RETRIES,
  )
  await register<StoreDebtJob>(
    STORE_DEBT_JOB,
    (payload) => collectStoreDebt(deps, payload),
    STORE_DEBT_RETRIES,
  )
  await registerCatalogJobs(register, deps)
  await register<BrandShipmentJob>(
    BRAND_SHIPMENT_JOB,
    (payload) => followShipment(deps, payload),
    BRAND_SHIPMENT_RETRIES,
  )
  // A failed catch-up waits for the next schedule rather than retrying at once.
  await register(CATCH_UP_JOB, (_payload, job) => catchUp(deps, log, job), {
    retryLimit: 0,
    retryDelaySeconds: 0,
  })
  // A failed refund catch-up waits for the next schedule too.
  await register(
    REFUND_CATCH_UP_JOB,
    (_payload, job) =>
      catchUpRefunds(
        deps,
        (message) => log.warn({ job: REFUND_CATCH_UP_JOB }, message),
        job.signal,
      ),
    { retryLimit: 0, retryDelaySeconds: 0 },
  )
  await register(RETENTION_JOB, () => removeExpired(deps, log), {
    retryLimit: 2,
    retryDelaySeconds: 60,
  })
  // A failed recheck waits for the next schedule.
  await register(
    ATTENTION_RECHECK_JOB,
    async () => {
      await recheckOrdersNeedingAttention(deps)
      await recheckUnpaidPayouts(deps)
      await recheckDebts(deps)
    },
    {
      retryLimit: 0,
      retryDelaySeconds: 0,
    },
  )
  if (options.schedules) {
    await jobs.schedule(CATCH_UP_JOB, CATCH_UP_CRON)
    await jobs.schedule(REFUND_CATCH_UP_JOB, REFUND_CATCH_UP_CRON)
    await jobs.schedule(RETENTION_JOB, RETENTION_CRON)
    await jobs.schedule(ATTENTION_RECHECK_JOB, ATTENTION_RECHECK_CRON)
  }
  await jobs.start()
  if (options.schedules) {
    await jobs.send(CATCH_UP_JOB, {})
    await jobs.send(REFUND_CATCH_UP_JOB, {})
  }
}

/** The handler, its failures logged: a warning while it will be retried, an error once dead. */
function logged<Payload extends object>(
  name: string,
  handler: JobHandler<Payload>,
  settings: RegisterOptions,
  log: JobLog,
): JobHandler<Payload> {
  return async (payload, job) => {
    try {
      await handler(payload, job)
    } catch (error) {
      const details = { err: error, job: name, id: job.id, attempt: job.attempt, payload }
      if (job.attempt > settings.retryLimit) log.error(details, `a ${name} job failed: it is dead`)
      else log.warn(details, `a ${name} job failed: it will be retried`)
      throw error
    }
  }
}

async function catchUp(deps: Deps, log: JobLog, job: JobContext) {
  await catchUpCreatorOrders(
    deps,
    (message) => log.warn({ job: CATCH_UP_JOB }, message),
    job.signal,
  )
  await catchUpShipments(deps)
}

/** Removes what is past its keep period. */
async function removeExpired(deps: Deps, log: JobLog) {
  const now = deps.now().getTime()
  const daysAgo = (days: number) => new Date(now - days * 86_400_000)
  const removed = {
    deliveries: await removeDoneWebhookDeliveries(
      deps.db,
      daysAgo(KEEP.deliveryDays).toISOString(),
    ),
    oauthStates: await removeOAuthStatesBefore(deps.db, daysAgo(KEEP.oauthStateDays).toISOString()),
    jobs: await deps.jobs.removeFinished(daysAgo(KEEP.finishedJobDays)),
  }
  log.info({ job: RETENTION_JOB, removed }, 'retention: removed what was past its keep period')
}
