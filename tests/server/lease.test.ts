import { afterAll, beforeAll, expect, it } from 'vitest'
import { underLease } from '../../server/src/db/lease'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Work one server process at a time does (the start-up catch-up): a second taker skips it while
// the first holds the lease; once it is given back, or has run out (its holder died), the next
// takes it.

let server: ServerUnderTest
beforeAll(async () => {
  server = await startServerUnderTest({ seed: false })
})
afterAll(() => server.close())

const ran: string[] = []
const work = (name: string) => async () => {
  ran.push(name)
}

it('lets one holder work at a time, and the next once it is done', async () => {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  const now = () => new Date()
  const first = underLease(server.db, 'catch-up', { ttlMs: 60_000, now }, async () => {
    ran.push('first')
    await held
  })
  await expect.poll(() => ran).toEqual(['first'])
  expect(await underLease(server.db, 'catch-up', { ttlMs: 60_000, now }, work('second'))).toBe(
    false,
  )
  release()
  expect(await first).toBe(true)
  expect(await underLease(server.db, 'catch-up', { ttlMs: 60_000, now }, work('third'))).toBe(true)
  expect(ran).toEqual(['first', 'third'])
})

it('lets the next take a lease whose holder died without giving it back', async () => {
  const start = Date.parse('2026-11-23T10:00:00Z')
  let clock = start
  const now = () => new Date(clock)
  await server.db
    .insertInto('leases')
    .values({
      name: 'orphan',
      holder: 'a-dead-process',
      expires_at: new Date(start + 60_000).toISOString(),
    })
    .execute()
  expect(await underLease(server.db, 'orphan', { ttlMs: 60_000, now }, work('too soon'))).toBe(
    false,
  )
  clock = start + 60_001
  expect(await underLease(server.db, 'orphan', { ttlMs: 60_000, now }, work('after'))).toBe(true)
  expect(ran).toContain('after')
  expect(ran).not.toContain('too soon')
})
