import { randomUUID } from 'node:crypto'
import type { Db } from '../db/connect'
import type { DeadJob, JobHandler, JobQueue, RegisterOptions, SendOptions } from './job-queue'

// The embedded default's queue: jobs in the `jobs` table (migration 010), polled by each server
// process on the file. A worker claims a job with a lease: one that dies while running leaves the
// lease to run out, and the job is claimed again (the attempt counts). A handler must therefore
// bear running twice, and end within the lease.

interface Registered {
  handler: JobHandler<object>
  options: RegisterOptions
}

export interface SqliteJobQueueOptions {
  /** How often an idle worker looks for a due job. */
  pollMs?: number
  /** How long a claimed job is this worker's before another may take it again. */
  leaseMs?: number
}

export function sqliteJobQueue(db: Db, options: SqliteJobQueueOptions = {}): JobQueue {
  const pollMs = options.pollMs ?? 1_000
  const leaseMs = options.leaseMs ?? 5 * 60_000
  const registered = new Map<string, Registered>()
  let running: Promise<void> | null = null
  let stopping = false
  let wake: () => void = () => {}

  /** Takes the job due first, or one whose lease ran out; null when none is. */
  const claim = () =>
    db.transaction().execute(async (trx) => {
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
      const leaseUntil = new Date(Date.now() + leaseMs).toISOString()
      await trx
        .updateTable('jobs')
        .set({ state: 'active', attempts: job.attempts + 1, lease_until: leaseUntil })
        .where('id', '=', job.id)
        .execute()
      return { ...job, attempts: job.attempts + 1 }
    })

  const runOne = async (): Promise<boolean> => {
    const job = await claim()
    if (!job) return false
    const { handler, options: settings } = registered.get(job.name)!
    // Only the claim that still holds the job records its end: a stale worker's is dropped.
    const ours = db
      .updateTable('jobs')
      .where('id', '=', job.id)
      .where('state', '=', 'active')
      .where('attempts', '=', job.attempts)
    try {
      await handler(JSON.parse(job.payload) as object, { id: job.id, attempt: job.attempts })
      await ours.set({ state: 'done', lease_until: null }).execute()
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown))
      const failure = { error_message: error.message, error_stack: error.stack ?? null }
      if (job.attempts > settings.retryLimit) {
        await ours.set({ state: 'dead', lease_until: null, ...failure }).execute()
      } else {
        const delayMs = settings.retryDelaySeconds * 1000 * 2 ** (job.attempts - 1)
        const runAfter = new Date(Date.now() + delayMs).toISOString()
        await ours
          .set({ state: 'waiting', lease_until: null, run_after: runAfter, ...failure })
          .execute()
      }
    }
    return true
  }

  const work = async () => {
    while (!stopping) {
      const ran = await runOne().catch(() => false)
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
    async send(name, payload, sendOptions: SendOptions = {}) {
      const id = randomUUID()
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
        })
        // The one conflict possible is the singleton key's: that key's job is still unfinished.
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst()
      return inserted.numInsertedOrUpdatedRows === 0n ? null : id
    },
    async schedule() {
      throw new Error('Cron schedules are not yet implemented on the embedded queue')
    },
    async start() {
      stopping = false
      running ??= work()
    },
    async stop() {
      stopping = true
      wake()
      await running
      running = null
    },
    async dead(name) {
      const rows = await db
        .selectFrom('jobs')
        .selectAll()
        .where('name', '=', name)
        .where('state', '=', 'dead')
        .orderBy('created_at')
        .execute()
      return rows.map((row): DeadJob => ({
        id: row.id,
        name: row.name,
        payload: JSON.parse(row.payload) as object,
        attempts: row.attempts,
        errorMessage: row.error_message ?? '',
        errorStack: row.error_stack,
      }))
    },
    async retry(name, id) {
      await db
        .updateTable('jobs')
        // One attempt given back, as pg-boss does: the run that follows fails into dead again.
        .set((eb) => ({
          state: 'waiting',
          attempts: eb('attempts', '-', 1),
          run_after: new Date().toISOString(),
        }))
        .where('name', '=', name)
        .where('id', '=', id)
        .where('state', '=', 'dead')
        .execute()
    },
  }
}
