import { randomUUID } from 'node:crypto'
import Sqlite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { WEBHOOK_JOB } from '../../server/src/services/webhook-inbox'
import { LUMEN } from '../support/sandbox-figures'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'
import { signedByShop } from './support/signed-webhook'

// Another process holding SQLite's write lock (a second server on the same file, an operator's
// sqlite3 shell): a write waits a short while without blocking the event loop, then answers 503
// with Retry-After; reads and the health check go on meanwhile. (SQLite only: PostgreSQL waits
// for its row locks on its own.) And the disk full: a write answers 507, saving nothing of it.

const MAYA = 'maya-makes.myshopify.com'

let server: ServerUnderTest
let otherWriter: Sqlite.Database
beforeAll(async () => {
  server = await startServerUnderTest()
  otherWriter = new Sqlite(server.sqliteFile!)
})
afterAll(async () => {
  otherWriter?.close()
  await server?.close()
})

const setLumenDefault = (tandem: number) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-set-default-commission-rate',
    headers: server.asAdmin,
    payload: {
      defaultCommission: {
        brandStoreShop: LUMEN,
        tandemCommissionRate: tandem,
        creatorCommissionRate: 10,
      },
    },
  })

it('answers a write 503 with Retry-After while another process holds the lock, never stalling', async () => {
  const readLumen = () =>
    server.app.inject({
      url: `/admin-get-default-shop-commission-rate?shop=${LUMEN}`,
      headers: server.asAdmin,
    })
  // The admin's token verified once beforehand, so that the write goes straight to the database.
  expect((await readLumen()).statusCode).toBe(200)
  otherWriter.exec('BEGIN IMMEDIATE')
  try {
    const answered: string[] = []
    const write = setLumenDefault(7).then((response) => {
      answered.push('write')
      return response
    })
    // The health check is asked once the write has been waiting a while: had the wait blocked the
    // event loop (better-sqlite3's own busy timeout), this timer would only fire after it.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const health = server.app.inject({ url: '/healthz' }).then((response) => {
      answered.push('health')
      return response
    })

    expect((await health).json()).toEqual({ status: 'ok' })
    // Reads go on meanwhile (SQLite's WAL never holds one back for a writer), at worst after the
    // write gives up, when they queue behind it for this process's one connection.
    expect((await readLumen()).statusCode).toBe(200)
    const refused = await write
    // The health check was answered while the write waited: nothing blocked the event loop.
    expect(answered).toEqual(['health', 'write'])
    expect(refused.statusCode).toBe(503)
    expect(refused.headers['retry-after']).toBe('1')
    expect(refused.json()).toEqual({
      error: 'unavailable',
      message: 'The database is busy with another server process: try again in a moment',
    })
  } finally {
    otherWriter.exec('ROLLBACK')
  }

  // Once the lock is free, the same write goes through, and nothing of the refused one stayed.
  const retried = await setLumenDefault(8)
  expect(retried.statusCode).toBe(200)
  expect(retried.json().defaultCommission.tandemCommissionRate).toBe(8)
})

it('answers a write 507 when the disk is full, keeping nothing of it, and takes it once there is room', async () => {
  const webhookId = randomUUID()
  // A paid order with a long note, as a customer may write: its delivery needs pages of its own.
  const order = {
    id: 7001,
    admin_graphql_api_id: 'gid://shopify/Order/7001',
    name: '#7001',
    note: 'Please gift wrap. '.repeat(1_000),
    line_items: [],
  }
  // The same webhook id each time: Shopify's resend of one delivery.
  const deliver = async () => {
    const response = await signedByShop(server, MAYA, 'orders/paid', order, webhookId)
    return { status: response.statusCode, body: response.json() }
  }
  const kept = async () => ({
    deliveries: (
      await server.db
        .selectFrom('webhook_deliveries')
        .select('webhook_id')
        .where('webhook_id', '=', webhookId)
        .execute()
    ).length,
    jobs: (
      await server.db
        .selectFrom('jobs')
        .select('id')
        .where('name', '=', WEBHOOK_JOB)
        .where('payload', 'like', `%${webhookId}%`)
        .execute()
    ).length,
  })

  // The file may not grow: as a full disk, for this server's connection.
  const limit = await sql<{ max_page_count: number }>`pragma max_page_count`.execute(server.db)
  const pages = await sql<{ page_count: number }>`pragma page_count`.execute(server.db)
  await sql.raw(`pragma max_page_count = ${pages.rows[0]!.page_count}`).execute(server.db)
  try {
    expect(await deliver()).toEqual({
      status: 507,
      body: {
        error: 'insufficient_storage',
        message:
          'The server’s disk is full: nothing of this request was saved. Free some space on it, then try again',
      },
    })
    expect(await kept()).toEqual({ deliveries: 0, jobs: 0 })
  } finally {
    await sql.raw(`pragma max_page_count = ${limit.rows[0]!.max_page_count}`).execute(server.db)
  }

  // Shopify sends it again: taken, once.
  expect(await deliver()).toEqual({ status: 200, body: { received: true } })
  expect(await kept()).toEqual({ deliveries: 1, jobs: 1 })
})
