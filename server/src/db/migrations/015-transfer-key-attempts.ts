import type { Kysely } from 'kysely'

/**
 * Which attempt's idempotency key a brand's transfer is sent under: 0, the key transfers in flight
 * were already sent under, until reconciliation proves that the attempt before made none
 * (docs/integrations.md "Exactly-once transfers").
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  db.schema
    .alterTable('order_transfer_brands')
    .addColumn('transfer_key_attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
