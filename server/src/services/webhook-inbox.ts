import { readWebhookPayload } from '../adapters/commerce/shopify/shopify-webhook-payloads'
import type { RouteDeps } from '../deps'
import type { JobContext } from '../jobs/job-queue'
import {
  findWebhookDelivery,
  markWebhookDeliveryDone,
  recordWebhookDelivery,
} from '../repositories/webhook-deliveries'
import { actOnWebhook, type Log } from './shopify-webhooks'

// The webhook inbox: a signed delivery is recorded with its job in one transaction before Shopify
// is answered, so that no crash, deploy or failure between the answer and the work loses it; the
// job acts on it, is retried with backoff when it fails, and marks it done only once it succeeded.
// Shopify's resend of a delivery (the same X-Shopify-Webhook-Id) finds it recorded and is ignored:
// its first copy's job does the work.

export const WEBHOOK_JOB = 'shopify-webhook'

/**
 * Shopify resends a failed delivery 8 times over 4 hours; its job here tries for about as long
 * (15 s, doubled each time: the tenth retry comes some 4 h 15 min after the first attempt), and is
 * then dead, listed in the console's Jobs view for an administrator to retry.
 */
export const WEBHOOK_RETRIES = { retryLimit: 10, retryDelaySeconds: 15 }

/**
 * A delivery's job is a few short transactions; a handful at once per process keeps up with
 * Shopify's bursts (a sale's orders/paid at 100 a second) where one at a time falls behind.
 */
export const WEBHOOK_JOBS_AT_ONCE = 4

interface WebhookJob {
  webhookId: string
}

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

/**
 * Records a signed, checked delivery and its job, or neither; false when Shopify sent it before.
 */
export const acceptDelivery = (
  deps: Deps,
  delivery: { webhookId: string; shop: string; topic: string; body: Buffer },
): Promise<boolean> =>
  deps.db.transaction().execute(async (trx) => {
    const { webhookId, shop, topic } = delivery
    const body = delivery.body.toString('utf8')
    const recorded = await recordWebhookDelivery(
      trx,
      { webhookId, shop, topic, body },
      deps.now().toISOString(),
    )
    if (recorded)
      await deps.jobs.send(WEBHOOK_JOB, { webhookId } satisfies WebhookJob, { within: trx })
    return recorded
  })

/**
 * Where the webhook crash tests kill the server (src/transfers/failpoints.ts): after the job was
 * claimed and before it acts, and after it acted and before it marks the delivery done (which a
 * compliance topic's action did already, in its own transaction).
 */
export const WEBHOOK_FAILPOINTS = [
  'shopify-webhook:before-act',
  'shopify-webhook:after-act',
] as const

export interface ActDeps extends Pick<RouteDeps, 'db' | 'jobs' | 'shopify' | 'commerce' | 'now'> {
  /** Resolves at once, except where a crash test stops the server. */
  failpoint?: (name: (typeof WEBHOOK_FAILPOINTS)[number]) => Promise<void>
}

/** The job: acts on the delivery once, and marks it done. */
export async function actOnDelivery(
  deps: ActDeps,
  { webhookId }: WebhookJob,
  job: JobContext,
  log: Log,
): Promise<void> {
  const delivery = await findWebhookDelivery(deps.db, webhookId)
  // Done already: a worker died after marking it, before the queue heard the job ended.
  if (!delivery || delivery.doneAt) return
  if (delivery.body === null) throw new Error(`Delivery ${webhookId} was taken without its body`)
  const read = readWebhookPayload(delivery.shop, delivery.topic, Buffer.from(delivery.body))
  // Checked before it was recorded: a body that no longer reads is a change of the checks since.
  if ('refusal' in read) throw new Error(`Delivery ${webhookId} no longer reads: ${read.refusal}`)
  await deps.failpoint?.('shopify-webhook:before-act')
  const { shop, receivedAt } = delivery
  await actOnWebhook(deps, { shop, webhookId, receivedAt }, read.payload, log, job.signal)
  await deps.failpoint?.('shopify-webhook:after-act')
  await markWebhookDeliveryDone(deps.db, webhookId, deps.now().toISOString())
}
