import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'

// The one way background work runs: a handler registered under a name, and jobs sent to it. What
// is sent is in the database before `send` answers, so nothing is lost when a process dies; a job
// sent inside a caller's transaction commits or rolls back with it (a webhook delivery and its job
// are recorded together, or neither is).
//
// Two implementations behind this port, one contract (tests/server/job-queue.test.ts):
// - PostgreSQL: pg-boss (pg-boss-job-queue.ts). Chosen over graphile-worker because it gives every
//   part the queue needs as a setting: retry limit with exponential backoff per queue, a dead state
//   keeping the error, singleton keys, delayed jobs, cron schedules, finding and retrying a failed
//   job by id, and sending inside a Kysely transaction (its `fromKysely` adapter). graphile-worker
//   has a fixed backoff curve, no dead state (a job out of attempts simply stays failed), and
//   enqueues in a transaction only through its SQL function. pg-boss 12 asks Node >= 22.12 and
//   `pg` ^8.23.1, the one the server already uses; its workers across processes claim with
//   SKIP LOCKED.
// - SQLite, the embedded default: a small queue in the `jobs` table (sqlite-job-queue.ts).

/** A transaction (or the database) a job is sent within. */
export type JobExecutor = Kysely<Database>

export interface JobContext {
  id: string
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number
  /** Aborted when the process stops: long work ends after its current step, to be run again. */
  signal: AbortSignal
}

export type JobHandler<Payload extends object> = (
  payload: Payload,
  job: JobContext,
) => Promise<void>

export interface RegisterOptions {
  /** Runs after the first that may follow a failure; past them the job is dead. */
  retryLimit: number
  /** Wait before the first retry, doubled before each next one; 0 retries at once. */
  retryDelaySeconds: number
  /**
   * Jobs of this name carry a singleton key. `true`: a key has at most one unfinished job, and
   * sending another while one waits or runs does nothing. `'waiting'`: a key has at most one job
   * waiting to start, and another sent meanwhile folds into it (nothing is sent); once it runs, the
   * next one sent waits beside it, so that news coming during a run causes another run (pg-boss's
   * 'short' policy). A job waiting for its retry is not counted.
   */
  singletonKeys?: boolean | 'waiting'
  /**
   * Jobs of this name one process runs at once; 1 unless given. The embedded queue, one process
   * on one SQLite file, runs one job at a time whatever its name.
   */
  concurrency?: number
}

export interface SendOptions {
  singletonKey?: string
  startAfter?: Date
  /** The caller's transaction: the job exists only if it commits. */
  within?: JobExecutor
}

/**
 * A job in trouble, as the console's Jobs view lists it: it failed and waits for its next retry,
 * or it ran out of retries and is dead until an administrator retries it.
 */
export interface TroubledJob {
  id: string
  name: string
  state: 'retrying' | 'dead'
  payload: object
  /** Its runs so far, every one failed. */
  attempts: number
  /** Its last failure's. */
  errorMessage: string
  errorStack: string | null
  /** A dead job: when its last run failed. A retrying one: when its next run is due. */
  at: Date
}

export interface JobQueue {
  /** Before `start`, and before any job of the name is sent. */
  register<Payload extends object>(
    name: string,
    handler: JobHandler<Payload>,
    options: RegisterOptions,
  ): Promise<void>
  /**
   * After `start`. The job's id, or null when its singleton key has an unfinished job. A key is
   * given to every job of a name registered with `singletonKeys`, and to no other.
   */
  send(name: string, payload: object, options?: SendOptions): Promise<string | null>
  /**
   * Before `start`: sends a job of the registered name, empty, whenever `cron` (UTC) matches; at
   * most once a minute on pg-boss. A time that passed while no process ran is not caught up.
   */
  schedule(name: string, cron: string): Promise<void>
  start(): Promise<void>
  /** Waits for the jobs running to end; none is claimed afterwards. */
  stop(): Promise<void>
  /** The troubled jobs of the registered names, oldest sent first. */
  troubled(): Promise<TroubledJob[]>
  /** Gives a dead job one more run; a job not dead is left as it is. */
  retry(name: string, id: string): Promise<void>
  /** Deletes the jobs of the registered names that ended done before `before`; answers how many. */
  removeFinished(before: Date): Promise<number>
}

/**
 * Refuses a send the two queues would answer differently: pg-boss dedupes by key only in a queue
 * made for it, and there counts a job without a key as one more key (the empty one).
 */
export function checkSingletonKey(
  name: string,
  registered: RegisterOptions | undefined,
  singletonKey: string | undefined,
): void {
  if (registered?.singletonKeys && !singletonKey) {
    throw new Error(`A ${name} job needs a singleton key: its name was registered with them`)
  }
  if (!registered?.singletonKeys && singletonKey) {
    throw new Error(`A ${name} job cannot have a singleton key: register its name with them`)
  }
}
