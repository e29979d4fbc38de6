import { JobKind, type TroubledJob } from '@shared/contract'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import type { TroubledJob as QueuedJob } from '../jobs/job-queue'
import { findOrderSubjects } from '../repositories/creator-orders'
import { findDeliverySubjects } from '../repositories/webhook-deliveries'
import { reviveDeadTransfer, TRANSFER_JOB, type TransferJob } from './automatic-transfers'
import { auditAfterTheFact, type Actor } from './audited-change'
import { WEBHOOK_JOB } from './webhook-inbox'
import { CREATOR_PAYOUT_JOB } from '../transfers/creator-payout'
import { ORDER_REFUND_JOB } from '../transfers/order-refunds'

// The console's Jobs view (docs/product-rules.md "The console's screens"): the background jobs
// that failed, and an administrator's retry of a dead one. The list is the queue's, not a table's:
// it is read whole rather than a page at a time, the jobs in trouble being few.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

/** The jobs in trouble, each with what it acts on. */
export async function listTroubledJobs(deps: Deps): Promise<{ jobs: TroubledJob[] }> {
  const queued = await deps.jobs.troubled()
  const deliveries = await findDeliverySubjects(
    deps.db,
    queued.filter((job) => job.name === WEBHOOK_JOB).map(webhookIdOf),
  )
  const orders = await findOrderSubjects(deps.db, queued.filter(aboutAnOrder).map(orderIdOf))
  const aboutOf = (job: QueuedJob): TroubledJob['about'] =>
    job.name === WEBHOOK_JOB
      ? (deliveries.get(webhookIdOf(job)) ?? null)
      : aboutAnOrder(job)
        ? (orders.get(orderIdOf(job)) ?? null)
        : null
  const jobs = queued.map((job): TroubledJob => ({
    id: job.id,
    kind: kindOf(job),
    state: job.state === 'dead' ? 'DEAD' : 'RETRYING',
    about: aboutOf(job),
    attempts: job.attempts,
    errorMessage: job.errorMessage,
    at: job.at.toISOString(),
  }))
  return { jobs }
}

/** The jobs whose payload names a creator order. */
const ORDER_JOBS: readonly string[] = [TRANSFER_JOB, CREATOR_PAYOUT_JOB, ORDER_REFUND_JOB]
const aboutAnOrder = (job: QueuedJob) => ORDER_JOBS.includes(job.name)

/** The queue lists only the names the server registers, each a kind of the contract. */
const kindOf = (job: QueuedJob) => JobKind.parse(job.name)

const webhookIdOf = (job: QueuedJob) => String((job.payload as { webhookId?: unknown }).webhookId)
const orderIdOf = (job: QueuedJob) =>
  Number((job.payload as { creatorOrderId?: unknown }).creatorOrderId)

/**
 * Gives a dead job one more run, and audits it. The queue is not the server's transaction (pg-boss
 * has its own connection), so the entry is written after the retry, as for Shopify's calls.
 */
export async function retryDeadJob(
  deps: Deps,
  actor: Actor,
  id: string,
  onAuditFailure: (error: unknown) => void,
): Promise<{ id: string; kind: JobKind }> {
  const job = (await deps.jobs.troubled()).find((troubled) => troubled.id === id)
  if (!job) {
    throw new Refusal(
      'not_found',
      `No failed job has the id ${id}: it may have run since the list was read. Refresh the jobs.`,
    )
  }
  if (job.state !== 'dead') {
    throw new Refusal(
      'conflict',
      `Job ${id} is not dead: it runs again by itself at ${job.at.toISOString()}. Retry it once it is dead.`,
    )
  }
  if (job.name === TRANSFER_JOB) {
    // Its order waits for this run again (a crash before the retry leaves it overdue, for the
    // hourly recheck to requeue).
    const payload = job.payload as TransferJob
    await deps.db.transaction().execute((trx) => reviveDeadTransfer(deps, trx, payload))
  }
  await deps.jobs.retry(job.name, job.id)
  const audit = {
    action: 'job.retry',
    target: job.id,
    details: { job: job.name, attempts: job.attempts, message: job.errorMessage },
  }
  await auditAfterTheFact(deps, actor, audit, onAuditFailure)
  return { id: job.id, kind: kindOf(job) }
}
