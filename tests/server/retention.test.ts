import { randomUUID } from 'node:crypto'
import { afterEach, expect, it } from 'vitest'
import { RETENTION_JOB } from '../../server/src/services/background-work'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Retention: the scheduled job removes what is past its keep period (done deliveries after 30
// days, install states after a day, finished jobs after 7 days) and nothing else: a delivery not
// yet acted on, a fresh state, a dead job stay. The server's clock is moved on instead of the rows
// being dated back, so that each database's queue keeps its own finished times.

let server: ServerUnderTest
afterEach(() => server.close())

const DAY_MS = 86_400_000

it('removes the deliveries, install states and finished jobs past their keep period, and nothing else', async () => {
  let offsetMs = 0
  server = await startServerUnderTest({ now: () => new Date(Date.now() + offsetMs) })
  const at = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString()
  await server.db
    .insertInto('webhook_deliveries')
    .values([
      delivery('done-long-ago', at(-31), at(-31)),
      delivery('done-lately', at(-29), at(-29)),
      // Never acted on (its job dead): kept whatever its age, for an administrator to retry.
      delivery('not-done', at(-40), null),
    ])
    .execute()
  await server.db
    .insertInto('oauth_states')
    .values([
      { state: 'stale', shop: 'maya-makes.myshopify.com', created_at: at(-2) },
      { state: 'fresh', shop: 'maya-makes.myshopify.com', created_at: at(0) },
    ])
    .execute()
  // A job that ran (one more retention pass), finished now by the queue's own clock.
  await runRetention()
  const finishedJobs = async () =>
    (await server.db.selectFrom('jobs').select('id').where('state', '=', 'done').execute()).length
  const onSqlite = server.sqliteFile !== null

  expect(await deliveries()).toEqual(['done-lately', 'not-done'])
  expect(await states()).toEqual(['fresh'])
  if (onSqlite) expect(await finishedJobs()).toBe(1)

  // Eight days on: what was kept is past its keep period too, and so is the job that finished
  // in the first pass, by the queue's own clock; the one that finished since is not.
  offsetMs = 8 * DAY_MS
  await runRetention()
  expect(await deliveries()).toEqual(['not-done'])
  expect(await states()).toEqual([])
  if (onSqlite) expect(await finishedJobs()).toBe(1)
  const removed = server.jobLog.filter((line) => line.message.startsWith('retention: removed'))
  expect(removed.map((line) => line.details.removed)).toEqual([
    { deliveries: 1, oauthStates: 1, jobs: 0 },
    { deliveries: 1, oauthStates: 1, jobs: 1 },
  ])
})

/** Sends the scheduled job now, as its cron time would, and waits for its pass to be logged. */
async function runRetention() {
  const passes = () => server.jobLog.filter((line) => line.message.startsWith('retention:')).length
  const before = passes()
  await server.jobs.send(RETENTION_JOB, {})
  await expect.poll(passes).toBe(before + 1)
}

const delivery = (webhookId: string, receivedAt: string, doneAt: string | null) => ({
  webhook_id: webhookId,
  shop: 'maya-makes.myshopify.com',
  topic: 'orders/paid',
  body: JSON.stringify({ id: randomUUID() }),
  received_at: receivedAt,
  done_at: doneAt,
})

const deliveries = async () =>
  (
    await server.db
      .selectFrom('webhook_deliveries')
      .select('webhook_id')
      .orderBy('webhook_id')
      .execute()
  ).map((row) => row.webhook_id)

const states = async () =>
  (await server.db.selectFrom('oauth_states').select('state').orderBy('state').execute()).map(
    (row) => row.state,
  )
