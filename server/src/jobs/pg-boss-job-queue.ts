import { fromKysely, PgBoss } from 'pg-boss'
import { markedIfAway } from '../db/database-away'
import {
  checkSingletonKey,
  type JobHandler,
  type JobQueue,
  type RegisterOptions,
  type SendOptions,
  type TroubledJob,
} from './job-queue'

// The queue on PostgreSQL: pg-boss (job-queue.ts says why), in a schema of its own that it creates
// and migrates at start. Every server process on the database works the same queues; pg-boss
// claims each job for one of them (SKIP LOCKED). A worker sends a heartbeat for each job it runs:
// one that dies stops sending them, and pg-boss fails its job, to be retried, rather than leave it
// active until its expiry (15 minutes).

/** pg-boss refuses a heartbeat interval below 10 s. */
const MIN_HEARTBEAT_SECONDS = 10

export interface PgBossJobQueueOptions {
  connectionString: string
  /** pg-boss's own schema, beside the server's tables. */
  schema: string
  /** How often an idle worker looks for a due job; pg-boss's minimum is 0.5. */
  pollingIntervalSeconds?: number
  /** How often schedules are checked for a cron time passed; pg-boss's default is 30. */
  cronIntervalSeconds?: number
  /**
   * How long a job without a heartbeat from its worker stays claimed (at least 10 s), and how
   * often pg-boss looks for such jobs: a dead worker's job is failed, and so retried, within about
   * twice this. A minute unless given.
   */
  leaseSeconds?: number
  /** Told of pg-boss's background failures (a lost connection), which it retries itself. */
  onError?: (error: Error) => void
}

interface Registered {
  handler: JobHandler<object>
  options: RegisterOptions
}

export function pgBossJobQueue(options: PgBossJobQueueOptions): JobQueue {
  const leaseSeconds = options.leaseSeconds ?? 60
  const heartbeatSeconds = Math.max(leaseSeconds, MIN_HEARTBEAT_SECONDS)
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: options.schema,
    // A job sent wakes a worker at once (LISTEN/NOTIFY on one connection of its own), rather than
    // at its next poll; polling stays as the floor, and alone behind a pooler that cannot listen.
    useListenNotify: true,
    // The pass that fails jobs whose heartbeat stopped needs both timers due (60 s by default).
    superviseIntervalSeconds: leaseSeconds,
    monitorIntervalSeconds: leaseSeconds,
    ...(options.cronIntervalSeconds
      ? {
          cronMonitorIntervalSeconds: options.cronIntervalSeconds,
          cronWorkerIntervalSeconds: options.cronIntervalSeconds,
        }
      : {}),
  })
  // An 'error' event no one listens to would be thrown, and end the process.
  boss.on('error', options.onError ?? (() => {}))
  const registered = new Map<string, Registered>()
  const schedules = new Map<string, string>()
  // pg-boss's own job signal is aborted on the job's expiry, not when its worker stops.
  let stopSignal = new AbortController()

  const work = (name: string, { handler, options: registered }: Registered) =>
    boss.work<object>(
      name,
      {
        includeMetadata: true,
        // Workers of their own, each fetching and running one job at a time.
        localConcurrency: registered.concurrency ?? 1,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
        // Not pg-boss's relaxed 30 s while NOTIFY is on: a retry or a delayed job coming due
        // sends no NOTIFY, and only a poll finds it.
        notifyPollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
        batchSize: 1,
      },
      async ([job]) =>
        handler(job!.data, {
          id: job!.id,
          attempt: job!.retryCount + 1,
          signal: AbortSignal.any([job!.signal, stopSignal.signal]),
        }),
    )

  return {
    async register(name, handler, settings) {
      registered.set(name, { handler: handler as JobHandler<object>, options: settings })
    },
    async send(name, payload, sendOptions: SendOptions = {}) {
      checkSingletonKey(name, registered.get(name)?.options, sendOptions.singletonKey)
      // A request that sends a job is answered 503 when the database is away, like its queries.
      return boss
        .send(name, payload, {
          ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
          ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
          ...(sendOptions.within ? { db: fromKysely(sendOptions.within) } : {}),
        })
        .catch((error: unknown) => {
          throw markedIfAway(error)
        })
    },
    async schedule(name, cron) {
      schedules.set(name, cron)
    },
    async start() {
      stopSignal = new AbortController()
      await boss.start()
      for (const [name, entry] of registered) {
        const { retryLimit, retryDelaySeconds, singletonKeys } = entry.options
        const settings = {
          retryLimit,
          retryDelay: retryDelaySeconds,
          retryBackoff: retryDelaySeconds > 0,
          notify: true,
          // Never deleted by pg-boss itself: a dead job stays until it is retried, and a finished
          // one until the retention job's removeFinished, the same rule on both databases.
          deleteAfterSeconds: 0,
          heartbeatSeconds,
        }
        // 'exclusive': one unfinished job per key (and so every job of the queue needs one);
        // 'short': one job waiting per key, however many run.
        const policy =
          singletonKeys === 'waiting' ? 'short' : singletonKeys ? 'exclusive' : 'standard'
        // createQueue leaves an existing queue as it is: the settings of this start apply, but
        // pg-boss cannot change a queue's policy once made.
        await boss.createQueue(name, { ...settings, policy })
        const made = await boss.getQueue(name)
        if (made && made.policy !== policy) {
          options.onError?.(
            new Error(
              `The ${name} queue was made with the '${made.policy}' policy, not '${policy}': its singleton keys work as that one's until the queue is deleted while empty`,
            ),
          )
        }
        await boss.updateQueue(name, settings)
        await work(name, entry)
      }
      for (const [name, cron] of schedules) await boss.schedule(name, cron, {})
    },
    async stop() {
      stopSignal.abort()
      await boss.stop({ graceful: true })
    },
    async troubled() {
      // Its job table, as removeFinished reads it: findJobs has no filter by state, and would read
      // every finished job of a week to find the few in trouble.
      const found = await boss.getDb().executeSql(
        `SELECT id, name, state, data, retry_count, output, start_after, completed_on
           FROM "${options.schema}".job
           WHERE name = ANY($1) AND state IN ('retry', 'failed')
           ORDER BY created_on, id`,
        [[...registered.keys()]],
      )
      return (found.rows as TroubledRow[]).map(troubledJob)
    },
    async retry(name, id) {
      await boss.retry(name, id)
    },
    async removeFinished(before) {
      // pg-boss has no call for it: its job table, which the contract tests hold to this query.
      const names = [...registered.keys()]
      const removed = await boss
        .getDb()
        .executeSql(
          `DELETE FROM "${options.schema}".job WHERE name = ANY($1) AND state = 'completed' AND completed_on < $2 RETURNING id`,
          [names, before],
        )
      return removed.rows.length
    },
  }
}

/** A row of pg-boss's job table, as troubled() selects it. */
interface TroubledRow {
  id: string
  name: string
  state: 'retry' | 'failed'
  data: object
  /** Counts the runs after the first. */
  retry_count: number
  /** The last failure's error, serialized. */
  output: { message?: string; stack?: string } | null
  start_after: Date
  completed_on: Date | null
}

function troubledJob(row: TroubledRow): TroubledJob {
  const dead = row.state === 'failed'
  return {
    id: row.id,
    name: row.name,
    state: dead ? 'dead' : 'retrying',
    payload: row.data,
    attempts: row.retry_count + 1,
    errorMessage: row.output?.message ?? '',
    errorStack: row.output?.stack ?? null,
    at: dead ? row.completed_on! : row.start_after,
  }
}
