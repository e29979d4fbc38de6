import { afterAll, beforeAll, expect, it } from 'vitest'
import type {
  CommercePort,
  CreatorOrderHeader,
} from '../../server/src/adapters/commerce/commerce-port'
import { underLease, underLeaseInTurn } from '../../server/src/db/lease'
import { catchUpCreatorOrders } from '../../server/src/orders/catch-up'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Work one server process at a time does (the start-up catch-up): a second taker skips it while
// the first holds the lease; once it is given back, or has run out (its holder died), the next
// takes it. A server that stops ends its catch-up first, and gives the lease back. A taker that
// waits its turn (a shop's token renewal) works once the lease is given back or has run out.

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

it('lets a taker waiting its turn work once the holder is done, or its lease has run out', async () => {
  const start = Date.parse('2026-11-23T10:00:00Z')
  let clock = start
  /** How often the waiting taker asked for the lease. */
  let asked = 0
  const now = () => new Date(clock)
  const waiting = { ttlMs: 60_000, pollMs: 5, now: () => (asked++, now()) }
  const order: string[] = []
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let holding = false
  const first = underLease(server.db, 'renewal', { ttlMs: 60_000, now }, async () => {
    holding = true
    await held
    order.push('first')
  })
  await expect.poll(() => holding).toBe(true)
  const second = underLeaseInTurn(server.db, 'renewal', waiting, async () => {
    order.push('second')
    return 'done'
  })
  // It asked (each ask reads the clock twice) and was refused, and is still waiting.
  await expect.poll(() => asked).toBeGreaterThan(3)
  expect(order).toEqual([])
  release()
  expect(await second).toBe('done')
  expect(await first).toBe(true)
  expect(order).toEqual(['first', 'second'])

  await server.db
    .insertInto('leases')
    .values({
      name: 'renewal',
      holder: 'a-dead-process',
      expires_at: new Date(start + 60_000).toISOString(),
    })
    .execute()
  asked = 0
  const third = underLeaseInTurn(server.db, 'renewal', waiting, async () => 'third')
  await expect.poll(() => asked).toBeGreaterThan(3)
  clock = start + 60_001
  expect(await third).toBe('third')
})

it('stops the start-up catch-up after the page under way when the server stops, lease given back', async () => {
  const seeded = await startServerUnderTest()
  try {
    const stop = new AbortController()
    const asked: string[] = []
    let pagesTaken = 0
    const header = (id: number, shop: string): CreatorOrderHeader => ({
      id,
      storeShop: shop,
      name: `#${id}`,
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, id)).toISOString(),
      currency: 'USD',
      totalMinor: 1000,
    })
    // Pages of new orders without end, for every creator shop; the server stops during the first.
    const commerce = {
      readPaidOrders: async (
        shop: string,
        take: (orders: CreatorOrderHeader[]) => Promise<boolean>,
      ) => {
        asked.push(shop)
        for (let page = 0; ; page++) {
          if (page === 0) stop.abort()
          const more = await take([header(900_000 + page, shop)])
          if (!more) return
          pagesTaken++
        }
      },
    } as unknown as CommercePort

    await catchUpCreatorOrders(
      { db: seeded.db, commerce, jobs: seeded.jobs, now: () => new Date() },
      () => {},
      stop.signal,
    )

    expect(asked).toHaveLength(1)
    expect(pagesTaken).toBe(0)
    expect(await seeded.db.selectFrom('leases').selectAll().execute()).toEqual([])
  } finally {
    await seeded.close()
  }
})
