import type { Db } from '../db/connect'

// order_refund_notices: each creator order Tandem was told to look at for refunds, how much news
// of them came (`news`: a webhook's delivery, the refund catch-up seeing Shopify or Stripe move,
// its own look again), and how much of it a run of the order's refund job had taken in when it
// last ended with nothing left to retry (`settled_news`). Counting, not timing: news that comes
// while a run is under way is not taken for settled by that run.

/** News of the order's refunds from its creator shop: noticed the first time, counted after. */
export const recordRefundNews = (
  db: Db,
  notice: { creatorOrderId: string; storeShop: string; at: string },
) =>
  db
    .insertInto('order_refund_notices')
    .values({
      creator_order_id: notice.creatorOrderId,
      store_shop: notice.storeShop,
      noticed_at: notice.at,
      news_at: notice.at,
    })
    .onConflict((oc) =>
      oc.column('creator_order_id').doUpdateSet((eb) => ({
        news: eb('order_refund_notices.news', '+', 1),
        news_at: notice.at,
      })),
    )
    .execute()

/** More news of an order noticed before (the catch-up's): counted. */
export const recordMoreRefundNews = (db: Db, creatorOrderId: string, at: string) =>
  db
    .updateTable('order_refund_notices')
    .set((eb) => ({ news: eb('news', '+', 1), news_at: at }))
    .where('creator_order_id', '=', creatorOrderId)
    .execute()

/** How much news of the order there was as a run of its refund job began; null when none. */
export const refundNewsOf = async (db: Db, creatorOrderId: string): Promise<number | null> =>
  (
    await db
      .selectFrom('order_refund_notices')
      .select('news')
      .where('creator_order_id', '=', creatorOrderId)
      .executeTakeFirst()
  )?.news ?? null

/** A run that began with `news` ended with nothing left to retry: that much is settled. */
export const recordRefundsSettled = (db: Db, creatorOrderId: string, news: number) =>
  db
    .updateTable('order_refund_notices')
    .set({ settled_news: news })
    .where('creator_order_id', '=', creatorOrderId)
    .where((eb) => eb.or([eb('settled_news', 'is', null), eb('settled_news', '<', news)]))
    .execute()

/**
 * The orders transferred at `since` or later whose news outnumbers what was settled, and none of
 * it since `quietSince` (a job sent since may still be retrying).
 */
export const ordersUnsettled = (db: Db, since: string, quietSince: string) =>
  db
    .selectFrom('order_refund_notices as n')
    .innerJoin('order_transfers as t', 't.creator_order_id', 'n.creator_order_id')
    .select('n.creator_order_id')
    .where('t.created_at', '>=', since)
    .where('n.news_at', '<', quietSince)
    .where((eb) =>
      eb.or([eb('n.settled_news', 'is', null), eb('n.settled_news', '<', eb.ref('n.news'))]),
    )
    .execute()
