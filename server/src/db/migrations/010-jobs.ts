import { sql, type Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * The embedded queue's jobs (jobs/sqlite-job-queue.ts). PostgreSQL runs pg-boss in its own schema
 * instead; the table is created there too so that every database has the same schema.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      // waiting → active → done, or back to waiting for a retry, or dead after the retry limit.
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('singleton_key', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('run_after', 'text', (c) => c.notNull())
      .addColumn('lease_until', 'text')
      .addColumn('error_message', 'text')
      .addColumn('error_stack', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      // When it ended done: what the retention job keeps finished jobs by.
      .addColumn('finished_at', 'text')
      .execute()
    // What a worker claims: the waiting jobs due first, and the active ones whose lease ran out.
    await trx.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_after']).execute()
    // A singleton key has at most one unfinished job: a second send while it waits or runs is void.
    await trx.schema
      .createIndex('jobs_singleton')
      .on('jobs')
      .columns(['name', 'singleton_key'])
      .unique()
      .where(sql<boolean>`singleton_key is not null and state in ('waiting', 'active')`)
      .execute()
  })
