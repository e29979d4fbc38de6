import type { Db } from '../db/connect'

// The Shopify webhook deliveries Tandem has taken (webhook_deliveries), by X-Shopify-Webhook-Id:
// the inbox its jobs act on.

export interface StoredDelivery {
  webhookId: string
  shop: string
  topic: string
  body: string | null
  receivedAt: string
  doneAt: string | null
}

/** Records the delivery; false when it was recorded before (Shopify sent it again). */
export async function recordWebhookDelivery(
  db: Db,
  delivery: { webhookId: string; shop: string; topic: string; body: string },
  receivedAt: string,
): Promise<boolean> {
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: delivery.webhookId,
      shop: delivery.shop,
      topic: delivery.topic,
      body: delivery.body,
      received_at: receivedAt,
      done_at: null,
    })
    .onConflict((conflict) => conflict.column('webhook_id').doNothing())
    .executeTakeFirst()
  return inserted.numInsertedOrUpdatedRows !== 0n
}

export async function findWebhookDelivery(
  db: Db,
  webhookId: string,
): Promise<StoredDelivery | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(['webhook_id', 'shop', 'topic', 'body', 'received_at', 'done_at'])
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst()
  if (!row) return null
  const { webhook_id: id, shop, topic, body, received_at: receivedAt, done_at: doneAt } = row
  return { webhookId: id, shop, topic, body, receivedAt, doneAt }
}

/**
 * Marks the delivery acted on; `dropBody` forgets its body too (a compliance request's, which
 * names a customer: docs/privacy.md).
 */
export async function markWebhookDeliveryDone(
  db: Db,
  webhookId: string,
  doneAt: string,
  { dropBody = false } = {},
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ done_at: doneAt, ...(dropBody && { body: null }) })
    .where('webhook_id', '=', webhookId)
    .execute()
}

/** Deletes the deliveries acted on before `before`; answers how many. */
export async function removeDoneWebhookDeliveries(db: Db, before: string): Promise<number> {
  const removed = await db
    .deleteFrom('webhook_deliveries')
    .where('done_at', '<', before)
    .executeTakeFirst()
  return Number(removed.numDeletedRows)
}

/** The shop and topic of each delivery recorded, by webhook id; never its body. */
export async function findDeliverySubjects(
  db: Db,
  webhookIds: string[],
): Promise<Map<string, { shop: string; topic: string }>> {
  if (webhookIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['webhook_id', 'shop', 'topic'])
    .where('webhook_id', 'in', webhookIds)
    .execute()
  return new Map(rows.map((row) => [row.webhook_id, { shop: row.shop, topic: row.topic }]))
}
