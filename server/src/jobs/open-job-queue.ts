import type { Db } from '../db/connect'
import type { JobQueue } from './job-queue'
import { pgBossJobQueue } from './pg-boss-job-queue'
import { sqliteJobQueue } from './sqlite-job-queue'

// The queue for the server's database: pg-boss beside PostgreSQL, the embedded queue in SQLite.

/** pg-boss's schema in the server's PostgreSQL database. */
export const JOB_SCHEMA = 'tandem_jobs'

export interface JobQueueOptions {
  /** PostgreSQL's connection string; null on the embedded SQLite. */
  databaseUrl: string | null
  /** pg-boss's schema; JOB_SCHEMA unless given (the tests give each database its own). */
  schema?: string
  /** How often an idle worker looks for a due job; a second unless given (tests ask less). */
  pollMs?: number
  /**
   * How long a job whose process died stays claimed before another process runs it again; a
   * minute unless given (the crash tests ask less). A running job's claim is renewed meanwhile.
   */
  leaseMs?: number
  /** Told of the queue's own failures (a lost connection), which it recovers from itself. */
  onError: (error: unknown) => void
}

export function openJobQueue(db: Db, options: JobQueueOptions): JobQueue {
  const pollMs = options.pollMs ?? 1_000
  const leaseMs = options.leaseMs ?? 60_000
  if (!options.databaseUrl) {
    return sqliteJobQueue(db, { pollMs, leaseMs, onError: options.onError })
  }
  return pgBossJobQueue({
    connectionString: options.databaseUrl,
    schema: options.schema ?? JOB_SCHEMA,
    // pg-boss polls at most every half second.
    pollingIntervalSeconds: Math.max(pollMs / 1000, 0.5),
    leaseSeconds: Math.ceil(leaseMs / 1000),
    onError: options.onError,
  })
}
