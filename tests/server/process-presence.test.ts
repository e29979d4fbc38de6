import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Db } from '../../server/src/db/connect'
import { announcePresence, type Presence } from '../../server/src/db/process-presence'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// The server processes alive on one database (the share of Stripe's rate each takes): each counts
// itself and the others whose lease it renews; one that stops gives its lease back, and one that
// died is no longer counted once its lease ran out.

let server: ServerUnderTest
beforeAll(async () => {
  server = await startServerUnderTest({ seed: false })
})
afterAll(() => server.close())

let clock = Date.parse('2026-11-27T10:00:00Z')
const now = () => new Date(clock)

/** A process's presence, beating every 20 ms, and the counts it was told, last last. */
async function processAlive(db: Db = server.db) {
  const counts: number[] = []
  const options = { beatMs: 20, ttlMs: 15_000, now, onCount: (n: number) => counts.push(n) }
  const presence: Presence = await announcePresence(db, options)
  return { presence, last: () => counts.at(-1), told: () => counts.length }
}

/** The processes' leases in the table, whether they ran out or not. */
async function leasesHeld() {
  const rows = await server.db
    .selectFrom('leases')
    .select('name')
    .where('name', 'like', 'process:%')
    .execute()
  return rows.length
}

it('counts each process alive, and one fewer once one stops', async () => {
  const first = await processAlive()
  expect(first.last()).toBe(1)
  const second = await processAlive()
  expect(second.last()).toBe(2)
  await expect.poll(() => first.last()).toBe(2)

  await second.presence.stop()
  await expect.poll(() => first.last()).toBe(1)
  await first.presence.stop()
})

it('stops counting a process that died once its lease ran out', async () => {
  // A process that renewed its lease last now, and was then killed.
  await server.db
    .insertInto('leases')
    .values({
      name: 'process:killed',
      holder: 'process:killed',
      expires_at: '2026-11-27T10:00:15.000Z',
    })
    .execute()
  const survivor = await processAlive()
  expect(survivor.last()).toBe(2)

  clock += 15_001
  await expect.poll(() => survivor.last()).toBe(1)
  await survivor.presence.stop()
})

it('gives its lease back for good, even while a beat on a slow database is under way', async () => {
  // Every answer 30 ms late: a beat (three queries) outlasts the 20 ms between beats.
  const slowDb = server.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      await sleep(30)
      return args.result
    },
  })
  const heldBefore = await leasesHeld()
  const slow = await processAlive(slowDb)
  await expect.poll(() => slow.told()).toBeGreaterThan(2)

  await slow.presence.stop()
  const toldAtStop = slow.told()
  await sleep(200)
  expect(slow.told()).toBe(toldAtStop)
  expect(await leasesHeld()).toBe(heldBefore)
})
