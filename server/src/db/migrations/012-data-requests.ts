import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * Shopify's customers/data_request deliveries, each with what Tandem held on the customer for
 * its shop when it came (docs/privacy.md), for an administrator to download and send on. Keyed
 * by shop and Shopify's request id together (`{shop}:{request id}`): one shop's request never
 * answers or replaces another's.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('data_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('shop', 'text', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addColumn('report', 'text', (c) => c.notNull())
      .execute()
    await trx.schema
      .createIndex('data_requests_newest')
      .on('data_requests')
      .columns(['received_at', 'id'])
      .execute()
  })
