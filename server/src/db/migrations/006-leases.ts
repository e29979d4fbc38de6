import type { Kysely } from 'kysely'

/** Work that one server process at a time does (the start-up catch-up): who holds it, until when. */
export const up = (db: Kysely<unknown>): Promise<void> =>
  db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
