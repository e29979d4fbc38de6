import { sql } from 'kysely'
import { expect } from 'vitest'
import type { Db } from '../../../server/src/db/connect'
import { JOB_SCHEMA } from '../../../server/src/jobs/open-job-queue'
import { jobSchema } from './server-under-test'

// What became of a server's jobs, as its queue holds them: the embedded queue's own table on
// SQLite, pg-boss's in its schema on PostgreSQL (beside the test's own schema, or the server's).

const PG_BOSS_STATES: Record<string, string> = { completed: 'done', failed: 'dead' }

/** Where the queue on this database keeps its jobs; `ownSchema` for a test's own server. */
export async function jobTableOf(db: Db, onPostgres: boolean, ownSchema: boolean) {
  if (!onPostgres) return 'jobs'
  if (!ownSchema) return `${JOB_SCHEMA}.job`
  const found = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)
  return `${jobSchema(found.rows[0]!.schema)}.job`
}

/** The states of the jobs of `name`: done, dead, or the queue's word for one not ended. */
export async function jobStates(db: Db, jobTable: string, name: string): Promise<string[]> {
  const jobs = await sql<{ state: string }>`
    SELECT state FROM ${sql.table(jobTable)} WHERE name = ${name}
  `.execute(db)
  return jobs.rows.map(({ state }) => PG_BOSS_STATES[state] ?? state)
}

/** Waits until every job of these names (none, too) ended: done, or dead. */
export async function jobsEnded(
  db: Db,
  jobTable: string,
  names: string[],
  wait: { timeout: number; interval: number },
) {
  await expect
    .poll(async () => {
      for (const name of names) {
        const states = await jobStates(db, jobTable, name)
        if (states.some((state) => state !== 'done' && state !== 'dead')) return false
      }
      return true
    }, wait)
    .toBe(true)
}
