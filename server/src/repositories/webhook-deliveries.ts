import type { Db } from '../db/connect'

// The Shopify webhook deliveries Tandem has taken (webhook_deliveries), by X-Shopify-Webhook-Id.

/** Records the delivery; false when it was recorded before (Shopify sent it again). */
export async function recordWebhookDelivery(
  db: Db,
  delivery: { webhookId: string; shop: string; topic: string },
  receivedAt: string,
): Promise<boolean> {
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: delivery.webhookId,
      shop: delivery.shop,
      topic: delivery.topic,
      received_at: receivedAt,
    })
    .onConflict((conflict) => conflict.column('webhook_id').doNothing())
    .executeTakeFirst()
  return inserted.numInsertedOrUpdatedRows !== 0n
}
