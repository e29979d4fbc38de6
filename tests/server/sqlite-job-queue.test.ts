import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { JobQueue } from '../../server/src/jobs/job-queue'
import { sqliteJobQueue } from '../../server/src/jobs/sqlite-job-queue'
import { freshDatabase, usesPostgres } from './support/server-under-test'

// What the embedded queue does itself that pg-boss does on PostgreSQL, beyond the contract of
// job-queue.test.ts: a job whose worker died is taken again once its lease runs out, and a failed
// job waits twice as long before each retry. Read from its table, since no caller sees either.

describe.skipIf(usesPostgres())('the embedded job queue', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database.db.destroy()
    await database.dropDatabase()
  })

  let queue: JobQueue | null = null
  afterEach(async () => {
    await queue?.stop()
  })

  const jobRow = (id: string) =>
    database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  /** A job as a worker leaves it when it dies running it: active, its lease run out. */
  const abandonedJob = async (name: string, attempts: number) => {
    queue = sqliteJobQueue(database.db, { pollMs: 50 })
    const id = (await queue.send(name, {}))!
    await database.db
      .updateTable('jobs')
      .set({ state: 'active', attempts, lease_until: new Date(Date.now() - 1).toISOString() })
      .where('id', '=', id)
      .execute()
    return id
  }

  it('runs again, as its next attempt, a job whose worker died', async () => {
    const attempts: number[] = []
    const id = await abandonedJob('abandoned', 1)
    await queue!.register('abandoned', async (_, job) => void attempts.push(job.attempt), {
      retryLimit: 1,
      retryDelaySeconds: 0,
    })
    await queue!.start()
    await expect.poll(() => attempts).toEqual([2])
    await expect.poll(async () => (await jobRow(id)).state).toBe('done')
  })

  it('ends dead a job whose worker died with its retries spent, without running it', async () => {
    let runs = 0
    const id = await abandonedJob('crashing', 2)
    await queue!.register('crashing', async () => void (runs += 1), {
      retryLimit: 1,
      retryDelaySeconds: 0,
    })
    await queue!.start()
    await expect
      .poll(() => queue!.troubled())
      .toMatchObject([
        { id, state: 'dead', errorMessage: 'The worker running this job stopped before it ended' },
      ])
    expect(runs).toBe(0)
  })

  it('waits twice as long before each retry', async () => {
    queue = sqliteJobQueue(database.db, { pollMs: 50 })
    await queue.register(
      'backing_off',
      async () => {
        throw new Error('Still failing')
      },
      { retryLimit: 5, retryDelaySeconds: 10 },
    )
    await queue.start()
    /** Makes the job due now; answers when it failed once more, and the wait before its retry. */
    const failOnceMore = async (id: string, attempts: number) => {
      const ranAfter = Date.now()
      await database.db
        .updateTable('jobs')
        .set({ run_after: new Date(ranAfter).toISOString() })
        .where('id', '=', id)
        .execute()
      await expect.poll(async () => (await jobRow(id)).attempts).toBe(attempts)
      await expect.poll(async () => (await jobRow(id)).state).toBe('waiting')
      return Date.parse((await jobRow(id)).run_after) - ranAfter
    }
    const id = (await queue.send('backing_off', {}, { startAfter: new Date(Date.now() + 60_000) }))!
    expect(await failOnceMore(id, 1)).toBeGreaterThanOrEqual(10_000)
    expect(await failOnceMore(id, 2)).toBeGreaterThanOrEqual(20_000)
    expect(await failOnceMore(id, 3)).toBeGreaterThanOrEqual(40_000)
  })
})
