import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * shopify_key_attempts: for each idempotency key a call to Shopify was sent under in a shop, the
 * last of its attempts (`key`, `key#2`, …) Shopify answered had failed before (`failed_through`),
 * so that the next call starts after it rather than at the key again
 * (adapters/commerce/shopify/idempotency-keys.ts). Keys never refused have no row.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('shopify_key_attempts')
      .addColumn('shop', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('failed_through', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('shopify_key_attempts_pk', ['shop', 'idempotency_key'])
      .execute()
  })
