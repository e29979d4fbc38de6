import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import type { JobQueue, RegisterOptions } from '../../server/src/jobs/job-queue'
import { pgBossJobQueue } from '../../server/src/jobs/pg-boss-job-queue'
import { sqliteJobQueue } from '../../server/src/jobs/sqlite-job-queue'
import { freshDatabase, jobSchema } from './support/server-under-test'

// The job queue's contract, kept by both implementations: this file runs on the embedded SQLite
// (its own queue) and, with TANDEM_TEST_DATABASE_URL, on PostgreSQL (pg-boss). A job that has run
// is shown not to run again by a later job of the same queue running alone after it: the queue
// takes its jobs in order, so the first would have been taken again before.

let database: Awaited<ReturnType<typeof freshDatabase>>
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.db.destroy()
  // pg-boss's schema with it.
  await database.dropDatabase()
})

const bossSchema = () => jobSchema(database.postgres!.schema)

const started: JobQueue[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((queue) => queue.stop()))
})

let queues = 0
/** A queue name of the test's own, so that no other test's job reaches its handler. */
const queueName = (what: string) => `${what}_${++queues}`

const noRetries: RegisterOptions = { retryLimit: 0, retryDelaySeconds: 0 }
const eventually = { timeout: 15_000, interval: 50 }

/** The implementation for the database of this run, its handlers registered, started. */
async function startedQueue(register: (queue: JobQueue) => Promise<void>): Promise<JobQueue> {
  const queue = database.postgres
    ? pgBossJobQueue({
        connectionString: database.postgres.url,
        schema: bossSchema(),
        pollingIntervalSeconds: 0.5,
        cronIntervalSeconds: 1,
      })
    : sqliteJobQueue(database.db, { pollMs: 50 })
  await register(queue)
  await queue.start()
  started.push(queue)
  return queue
}

/** The queue's dead jobs (each test's queue registers only its own names). */
const deadJobs = async (queue: JobQueue) =>
  (await queue.troubled()).filter((job) => job.state === 'dead')

/** A handler that records each payload's `n` it is given. */
const recorder = () => {
  const ran: number[] = []
  const handler = async (payload: { n: number }) => {
    ran.push(payload.n)
  }
  return { ran, handler }
}

it('runs a job once', async () => {
  const name = queueName('once')
  const { ran, handler } = recorder()
  const queue = await startedQueue((q) => q.register(name, handler, noRetries))
  expect(await queue.send(name, { n: 1 })).toEqual(expect.any(String))
  await expect.poll(() => ran, eventually).toEqual([1])
  await queue.send(name, { n: 2 })
  await expect.poll(() => ran, eventually).toEqual([1, 2])
})

it('retries a failing job until it succeeds, then runs it no more', async () => {
  const name = queueName('flaky')
  const attempts: number[] = []
  const queue = await startedQueue((q) =>
    q.register<{ n: number }>(
      name,
      async (payload, job) => {
        attempts.push(job.attempt)
        if (payload.n === 1 && job.attempt <= 3) throw new Error(`attempt ${job.attempt} failed`)
      },
      { retryLimit: 5, retryDelaySeconds: 0 },
    ),
  )
  await queue.send(name, { n: 1 })
  await expect.poll(() => attempts, eventually).toEqual([1, 2, 3, 4])
  await queue.send(name, { n: 2 })
  await expect.poll(() => attempts, eventually).toEqual([1, 2, 3, 4, 1])
  expect(await queue.troubled()).toEqual([])
})

it('ends a job that always fails dead, with its error, and runs it once more when retried', async () => {
  const name = queueName('doomed')
  let runs = 0
  const queue = await startedQueue((q) =>
    q.register(
      name,
      async () => {
        runs += 1
        throw new Error('The shop answered 500')
      },
      { retryLimit: 2, retryDelaySeconds: 0 },
    ),
  )
  const sentAt = new Date()
  const id = await queue.send(name, { shop: 'brand.myshopify.com' })
  await expect.poll(() => deadJobs(queue), eventually).toHaveLength(1)
  const [dead] = await queue.troubled()
  expect(dead).toMatchObject({
    id,
    name,
    state: 'dead',
    payload: { shop: 'brand.myshopify.com' },
    attempts: 3,
    errorMessage: 'The shop answered 500',
  })
  expect(dead!.errorStack).toContain('The shop answered 500')
  // When its last run failed.
  expect(dead!.at.getTime()).toBeGreaterThanOrEqual(sentAt.getTime() - 1_000)
  expect(dead!.at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000)
  expect(runs).toBe(3)

  await queue.retry(name, id!)
  await expect.poll(() => runs, eventually).toBe(4)
  await expect.poll(() => deadJobs(queue), eventually).toMatchObject([{ id, state: 'dead' }])
})

it('lists a job that failed and waits for its retry, with its error and when it runs next', async () => {
  const name = queueName('retrying')
  const fine = queueName('fine')
  const { ran, handler } = recorder()
  const queue = await startedQueue(async (q) => {
    await q.register(
      name,
      async () => {
        throw new Error('Shopify is down')
      },
      { retryLimit: 3, retryDelaySeconds: 3_600 },
    )
    await q.register(fine, handler, noRetries)
  })
  const failedBy = new Date()
  const id = await queue.send(name, { webhookId: 'w-1' })
  await queue.send(fine, { n: 1 })
  await expect.poll(() => queue.troubled(), eventually).toHaveLength(1)
  await expect.poll(() => ran, eventually).toEqual([1])
  const [retrying] = await queue.troubled()
  expect(retrying).toMatchObject({
    id,
    name,
    state: 'retrying',
    payload: { webhookId: 'w-1' },
    attempts: 1,
    errorMessage: 'Shopify is down',
  })
  expect(retrying!.errorStack).toContain('Shopify is down')
  // Its next run, an hour or so away (pg-boss adds a random part to the delay).
  expect(retrying!.at.getTime()).toBeGreaterThan(failedBy.getTime() + 30 * 60_000)

  // Not dead: a retry leaves it waiting for its time.
  await queue.retry(name, id!)
  expect(await queue.troubled()).toMatchObject([{ id, state: 'retrying', attempts: 1 }])
})

it('keeps one unfinished job per singleton key', async () => {
  const name = queueName('singleton')
  const queue = await startedQueue((q) =>
    q.register(name, async () => {}, { ...noRetries, singletonKeys: true }),
  )
  const later = new Date(Date.now() + 60 * 60_000)
  expect(await queue.send(name, {}, { singletonKey: 'order-1', startAfter: later })).toEqual(
    expect.any(String),
  )
  expect(await queue.send(name, {}, { singletonKey: 'order-1', startAfter: later })).toBeNull()
  expect(await queue.send(name, {}, { singletonKey: 'order-2', startAfter: later })).toEqual(
    expect.any(String),
  )
  await expect(queue.send(name, {})).rejects.toThrow(`A ${name} job needs a singleton key`)
})

it('folds a job into the one of its key waiting to start, and lets one wait beside a running one', async () => {
  const name = queueName('folding')
  const ran: number[] = []
  let release = () => {}
  const running = new Promise<void>((resolve) => (release = resolve))
  const queue = await startedQueue((q) =>
    q.register(
      name,
      async (payload: { n: number }) => {
        ran.push(payload.n)
        if (payload.n === 1) await running
      },
      { ...noRetries, singletonKeys: 'waiting' },
    ),
  )
  expect(await queue.send(name, { n: 1 }, { singletonKey: 'product-1' })).toEqual(
    expect.any(String),
  )
  await expect.poll(() => ran, eventually).toEqual([1])
  // The first runs: the next waits beside it, and the one after folds into that one.
  expect(await queue.send(name, { n: 2 }, { singletonKey: 'product-1' })).toEqual(
    expect.any(String),
  )
  expect(await queue.send(name, { n: 3 }, { singletonKey: 'product-1' })).toBeNull()
  expect(await queue.send(name, { n: 4 }, { singletonKey: 'product-2' })).toEqual(
    expect.any(String),
  )
  release()
  await expect.poll(() => [...ran].sort(), eventually).toEqual([1, 2, 4])
})

it('waits for a delayed job to be due', async () => {
  const name = queueName('delayed')
  const ranAt: Date[] = []
  const queue = await startedQueue((q) =>
    q.register(name, async () => void ranAt.push(new Date()), noRetries),
  )
  const due = new Date(Date.now() + 1_500)
  await queue.send(name, {}, { startAfter: due })
  await expect.poll(() => ranAt, eventually).toHaveLength(1)
  expect(ranAt[0]!.getTime()).toBeGreaterThanOrEqual(due.getTime())
})

it('sends a job within a transaction: none when it rolls back, the job when it commits', async () => {
  const name = queueName('in_transaction')
  const { ran, handler } = recorder()
  const queue = await startedQueue((q) => q.register(name, handler, noRetries))
  const rolledBack = database.db.transaction().execute(async (trx) => {
    await queue.send(name, { n: 1 }, { within: trx })
    throw new Error('The delivery could not be recorded')
  })
  await expect(rolledBack).rejects.toThrow('The delivery could not be recorded')
  await database.db.transaction().execute((trx) => queue.send(name, { n: 2 }, { within: trx }))
  await expect.poll(() => ran, eventually).toEqual([2])
  await queue.send(name, { n: 3 })
  await expect.poll(() => ran, eventually).toEqual([2, 3])
})

// Every second, so that the test waits little; pg-boss sends a schedule's job at most once a
// minute, so one run is all it can show.
it('sends a scheduled job when its cron time passes', async () => {
  const name = queueName('scheduled')
  let runs = 0
  await startedQueue(async (q) => {
    await q.register(name, async () => void (runs += 1), noRetries)
    await q.schedule(name, '* * * * * *')
  })
  await expect.poll(() => runs, eventually).toBeGreaterThanOrEqual(1)
})

it('runs each job once with several workers on the queue', async () => {
  const name = queueName('shared')
  const ran: string[] = []
  const worker = (label: string) =>
    startedQueue((q) =>
      q.register<{ n: number }>(
        name,
        async ({ n }) => void ran.push(`${n} by ${label}`),
        noRetries,
      ),
    )
  const [first] = await Promise.all([worker('first'), worker('second')])
  for (let n = 1; n <= 20; n += 1) await first!.send(name, { n })
  await expect.poll(() => ran.length, eventually).toBe(20)
  await first!.send(name, { n: 21 })
  await expect.poll(() => ran.length, eventually).toBe(21)
  const jobsRun = ran.map((entry) => Number(entry.split(' ')[0])).sort((a, b) => a - b)
  expect(jobsRun).toEqual(Array.from({ length: 21 }, (_, index) => index + 1))
})

it('removes the jobs finished before a time, and no job that waits, runs or is dead', async () => {
  const name = queueName('finished')
  const { ran, handler } = recorder()
  const doomed = queueName('dead_kept')
  const queue = await startedQueue(async (q) => {
    await q.register(name, handler, noRetries)
    await q.register(
      doomed,
      async () => {
        throw new Error('never works')
      },
      noRetries,
    )
  })
  await queue.send(name, { n: 1 })
  await queue.send(doomed, {})
  await expect.poll(() => ran, eventually).toEqual([1])
  await expect.poll(() => deadJobs(queue), eventually).toHaveLength(1)
  const waiting = await queue.send(name, { n: 2 }, { startAfter: new Date(Date.now() + 3_600_000) })

  // Finished after this moment: kept.
  expect(await queue.removeFinished(new Date(Date.now() - 60_000))).toBe(0)
  expect(await queue.removeFinished(new Date(Date.now() + 1_000))).toBe(1)
  expect(await deadJobs(queue)).toHaveLength(1)
  // The delayed job is still there to run: a retention pass did not take it.
  expect(waiting).toEqual(expect.any(String))
  expect(await queue.removeFinished(new Date(Date.now() + 1_000))).toBe(0)
})

it('tells a running handler when its process stops', async () => {
  const name = queueName('stopping')
  let started = false
  let sawStop = false
  const queue = await startedQueue((q) =>
    q.register(
      name,
      async (_payload, job) => {
        started = true
        await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve()))
        sawStop = true
      },
      noRetries,
    ),
  )
  await queue.send(name, {})
  await expect.poll(() => started, eventually).toBe(true)
  await queue.stop()
  expect(sawStop).toBe(true)
})
