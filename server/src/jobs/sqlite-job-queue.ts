import { randomUUID } from 'node:crypto'
import { CronExpressionParser } from 'cron-parser'
import type { Db } from '../db/connect'
import type { JobsTable } from '../db/schema'
import {
  checkSingletonKey,
  type JobHandler,
  type JobQueue,
  type RegisterOptions,
  type SendOptions,
  type TroubledJob,
} from './job-queue'

// The embedded default's queue: jobs in the `jobs` table (migration 010), polled by each server
// process on the file. A worker claims a job with a lease, renewed while the handler runs: one
// that dies leaves the lease to run out, and the job is claimed again as its next attempt. A
// handler must therefore bear running twice. SQLite transactions here take the write lock when
// they begin (db/connect.ts), so two processes never claim the same job.

interface Registered {
  handler: JobHandler<object>
  options: RegisterOptions
}

export interface SqliteJobQueueOptions {
  /** How often an idle worker looks for a due job and a cron time passed. */
  pollMs?: number
  /** How long a claimed job is this worker's unless renewed; renewed every third of it. */
  leaseMs?: number
  /** Told when the queue's own queries fail (the file busy too long); the worker goes on. */
  onError?: (error: unknown) => void
}

type JobRow = JobsTable

export function sqliteJobQueue(db: Db, options: SqliteJobQueueOptions = {}): JobQueue {
  const pollMs = options.pollMs ?? 1_000
  const leaseMs = options.leaseMs ?? 60_000
  const onError = options.onError ?? (() => {})
  const registered = new Map<string, Registered>()
  const schedules = new Map<string, string>()
  /** The last cron time each schedule's job was sent for by this process. */
  const sentFor = new Map<string, number>()
  let startedAt = new Date()
  let running: Promise<void> | null = null
  let stopping = false
  /** Given to each handler: aborted by stop(), and made anew by the next start(). */
  let stopSignal = new AbortController()
  let wake: () => void = () => {}

  const leaseUntil = () => new Date(Date.now() + leaseMs).toISOString()

  /** Takes the job due first, or one whose lease ran out, as its next attempt; null when none is. */
  const claim = async () => {
    if (registered.size === 0) return null
    return db.transaction().execute(async (trx) => {
      const now = new Date().toISOString()
      const job = await trx
        .selectFrom('jobs')
        .selectAll()
        .where('name', 'in', [...registered.keys()])
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'waiting'), eb('run_after', '<=', now)]),
            eb.and([eb('state', '=', 'active'), eb('lease_until', '<', now)]),
          ]),
        )
        .orderBy('run_after')
        .limit(1)
        .executeTakeFirst()
      if (!job) return null
      // A key that binds only waiting jobs is let go when its job starts (the unique index on
      // the key counts waiting and active ones), so that the next one sent waits beside it.
      const waitingKey = registered.get(job.name)?.options.singletonKeys === 'waiting'
      const claimed = {
        ...job,
        attempts: job.attempts + 1,
        singleton_key: waitingKey ? null : job.singleton_key,
      }
      await trx
        .updateTable('jobs')
        .set({
          state: 'active',
          attempts: claimed.attempts,
          lease_until: leaseUntil(),
          singleton_key: claimed.singleton_key,
        })
        .where('id', '=', job.id)
        .execute()
      return { job: claimed, abandoned: job.state === 'active' }
    })
  }

  /** Only the claim that still holds the job records its end: a stale worker's is dropped. */
  const ours = (job: JobRow) =>
    db
      .updateTable('jobs')
      .where('id', '=', job.id)
      .where('state', '=', 'active')
      .where('attempts', '=', job.attempts)

  /**
   * Waiting again after a delay doubled at each attempt, or dead once the retries are spent: ended,
   * at `finished_at`. The error stays on a job waiting for its retry, which is how it is known to be
   * one.
   */
  const fail = async (
    job: JobRow,
    attemptsMade: number,
    settings: RegisterOptions,
    error: Error,
  ) => {
    const failure = {
      lease_until: null,
      error_message: error.message,
      error_stack: error.stack ?? null,
    }
    if (attemptsMade > settings.retryLimit) {
      await ours(job)
        .set({ state: 'dead', finished_at: new Date().toISOString(), ...failure })
        .execute()
      return
    }
    const delayMs = settings.retryDelaySeconds * 1000 * 2 ** (attemptsMade - 1)
    const runAfter = new Date(Date.now() + delayMs).toISOString()
    await ours(job)
      .set({ state: 'waiting', run_after: runAfter, ...failure })
      .execute()
  }

  const runOne = async (): Promise<boolean> => {
    const claimed = await claim()
    if (!claimed) return false
    const { job, abandoned } = claimed
    const { handler, options: settings } = registered.get(job.name)!
    // A worker that died running it spent an attempt: one that kills every worker ends dead.
    if (abandoned && job.attempts - 1 > settings.retryLimit) {
      const error = new Error('The worker running this job stopped before it ended')
      await fail(job, job.attempts - 1, settings, error)
      return true
    }
    const renewal = setInterval(() => {
      void ours(job)
        .set({ lease_until: leaseUntil() })
        .execute()
        .catch(() => {})
    }, leaseMs / 3)
    try {
      const context = { id: job.id, attempt: job.attempts, signal: stopSignal.signal }
      await handler(JSON.parse(job.payload) as object, context)
      const finishedAt = new Date().toISOString()
      await ours(job).set({ state: 'done', lease_until: null, finished_at: finishedAt }).execute()
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown))
      await fail(job, job.attempts, settings, error)
    } finally {
      clearInterval(renewal)
    }
    return true
  }

  const send = async (
    name: string,
    payload: object,
    sendOptions: SendOptions & { id?: string } = {},
  ) => {
    checkSingletonKey(name, registered.get(name)?.options, sendOptions.singletonKey)
    const id = sendOptions.id ?? randomUUID()
    const now = new Date()
    const inserted = await (sendOptions.within ?? db)
      .insertInto('jobs')
      .values({
        id,
        name,
        payload: JSON.stringify(payload),
        state: 'waiting',
        singleton_key: sendOptions.singletonKey ?? null,
        attempts: 0,
        run_after: (sendOptions.startAfter ?? now).toISOString(),
        lease_until: null,
        error_message: null,
        error_stack: null,
        created_at: now.toISOString(),
        finished_at: null,
      })
      // A conflict is the singleton key's (its job is unfinished) or a cron time's (sent already).
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst()
    return inserted.numInsertedOrUpdatedRows === 0n ? null : id
  }

  /**
   * Sends each schedule's job for the last cron time passed, once whichever process sees it first:
   * the job's id is the time's. A time before this queue started is not caught up, as on pg-boss.
   */
  const sendScheduled = async () => {
    for (const [name, cron] of schedules) {
      const last = CronExpressionParser.parse(cron, { tz: 'UTC' }).prev().toDate()
      if (last < startedAt || sentFor.get(name) === last.getTime()) continue
      await send(name, {}, { id: `${name}@${last.toISOString()}` })
      sentFor.set(name, last.getTime())
    }
  }

  const work = async () => {
    while (!stopping) {
      await sendScheduled().catch(onError)
      const ran = await runOne().catch((error: unknown) => {
        onError(error)
        return false
      })
      if (ran) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  }

  return {
    async register(name, handler, settings) {
      registered.set(name, { handler: handler as JobHandler<object>, options: settings })
    },
    send: (name, payload, sendOptions) => send(name, payload, sendOptions),
    async schedule(name, cron) {
      CronExpressionParser.parse(cron) // refuses a malformed expression here, not at its first time
      schedules.set(name, cron)
    },
    async start() {
      stopping = false
      stopSignal = new AbortController()
      startedAt = new Date()
      running ??= work()
    },
    async stop() {
      stopping = true
      stopSignal.abort()
      wake()
      await running
      running = null
    },
    async troubled() {
      if (registered.size === 0) return []
      const rows = await db
        .selectFrom('jobs')
        .selectAll()
        .where('name', 'in', [...registered.keys()])
        .where((eb) =>
          eb.or([
            eb('state', '=', 'dead'),
            eb.and([eb('state', '=', 'waiting'), eb('error_message', 'is not', null)]),
          ]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      return rows.map((row): TroubledJob => {
        const dead = row.state === 'dead'
        return {
          id: row.id,
          name: row.name,
          state: dead ? 'dead' : 'retrying',
          payload: JSON.parse(row.payload) as object,
          attempts: row.attempts,
          errorMessage: row.error_message ?? '',
          errorStack: row.error_stack,
          at: new Date(dead ? row.finished_at! : row.run_after),
        }
      })
    },
    async retry(name, id) {
      await db
        .updateTable('jobs')
        // One attempt given back, as pg-boss does: the run that follows fails into dead again.
        .set((eb) => ({
          state: 'waiting',
          attempts: eb('attempts', '-', 1),
          run_after: new Date().toISOString(),
          finished_at: null,
        }))
        .where('name', '=', name)
        .where('id', '=', id)
        .where('state', '=', 'dead')
        .execute()
    },
    async removeFinished(before) {
      if (registered.size === 0) return 0
      const removed = await db
        .deleteFrom('jobs')
        .where('name', 'in', [...registered.keys()])
        .where('state', '=', 'done')
        .where('finished_at', '<', before.toISOString())
        .executeTakeFirst()
      return Number(removed.numDeletedRows)
    },
  }
}
