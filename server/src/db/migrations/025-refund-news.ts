import { sql, type Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * order_refund_notices counts the news of each order's refunds (a webhook's delivery, the refund
 * catch-up seeing Shopify or Stripe move, the catch-up's own look again): `news`, and when the
 * last came (`news_at`); and how much of it a run of the order's refund job had taken in when it
 * last ended with nothing left to retry (`settled_news`, null until one did). An order whose
 * news outnumbers what was settled still owes a look: the refund catch-up sends its job again
 * (refunds/refund-catch-up.ts), rather than only when Shopify or Stripe move again. Rows from
 * before count as one piece of news, never settled: each is looked at once more.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .alterTable('order_refund_notices')
      .addColumn('news', 'integer', (c) => c.notNull().defaultTo(1))
      .execute()
    await trx.schema.alterTable('order_refund_notices').addColumn('news_at', 'text').execute()
    await trx.schema
      .alterTable('order_refund_notices')
      .addColumn('settled_news', 'integer')
      .execute()
    await sql`update order_refund_notices set news_at = noticed_at`.execute(trx)
  })
