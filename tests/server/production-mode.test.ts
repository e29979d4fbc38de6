import pg from 'pg'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { PRODUCTION_ENV } from './support/production-env'
import {
  buildServer,
  freshSharedDatabase,
  spawnServer,
  type ServerProcess,
  type SharedDatabase,
} from './support/server-process'

// Production mode for real: the server process on PostgreSQL with every setting production needs.
// It starts, serves, never seeds the sandbox marketplace, and stops when told to. (Run with
// TANDEM_TEST_DATABASE_URL set, as .ci/run does: production has no other database.)

let server: Awaited<ReturnType<typeof buildServer>>
beforeAll(async () => {
  server = await buildServer()
})
afterAll(() => server?.remove())

let database: SharedDatabase | undefined
let running: ServerProcess | undefined
afterEach(async () => {
  await running?.stop()
  await database?.remove()
}, 30_000)

it('starts on PostgreSQL with no demo data, and stops cleanly on SIGTERM', async () => {
  database = await freshSharedDatabase()
  running = await spawnServer(server.entry, { ...PRODUCTION_ENV, ...database.env })
  await running.line(/Tandem server in production mode on PostgreSQL, Node v\d+/)
  expect(running.output()).not.toContain('sandbox marketplace loaded')

  const health = await fetch(`${running.url}/healthz`)
  expect(await health.json()).toEqual({ status: 'ok' })
  const unsigned = await fetch(`${running.url}/admin-all-stores`)
  expect(unsigned.status).toBe(401)

  const client = new pg.Client({ connectionString: database.env.DATABASE_URL })
  await client.connect()
  try {
    for (const table of [
      'stores',
      'app_configs',
      'default_commissions',
      'store_payment_accounts',
    ]) {
      const { rows } = await client.query(`SELECT count(*)::int AS count FROM ${table}`)
      expect(rows[0].count, table).toBe(0)
    }
  } finally {
    await client.end()
  }

  running.child.kill('SIGTERM')
  expect(await running.exited).toEqual({ code: 0, signal: null })
})
