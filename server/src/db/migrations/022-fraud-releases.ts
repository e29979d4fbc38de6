import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * fraud_releases: the creator orders an administrator released for transfer although Shopify found
 * a risk of fraud on them (transfers/fraud-check.ts), with what Shopify had found then
 * (`findings`, the sentence the order's attention showed) and the administrator's reason. A
 * release covers those findings only: Shopify finding more stops the order again.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('fraud_releases')
      .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
      .addColumn('findings', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('released_by', 'text')
      .addColumn('released_at', 'text', (c) => c.notNull())
      .execute()
  })
