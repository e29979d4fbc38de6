import Database from 'better-sqlite3'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, it } from 'vitest'
import { NORTHWIND } from '../support/sandbox-figures'
import { oneServerProcess } from './support/server-process'

// The project runs on Node 24 (.node-version), on machines whose own Node is older too: `./npmw`
// brings it from the npm registry. This proves it where it matters: in the test runner, and inside
// the server process, whose embedded database (better-sqlite3, a native module) must have been
// compiled for that very Node to open at all.

const projectNode = readFileSync(resolve(__dirname, '../../.node-version'), 'utf8').trim()
const majorOf = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1])

const server = oneServerProcess()

it("runs the tests on the project's Node major or newer", () => {
  console.log(`test runner: Node ${process.version} (the project's: ${projectNode})`)
  expect(majorOf(process.version)).toBeGreaterThanOrEqual(majorOf(projectNode))
})

it('runs the server on it, and the server opens and fills its embedded database', async () => {
  const running = await server.start()
  const started = await running.line(/Tandem server in sandbox mode on /)
  const serverNode = /Node (v[\d.]+)/.exec(started)?.[1] ?? `none in: ${started}`
  console.log(`server process: Node ${serverNode}`)
  expect(majorOf(serverNode)).toBeGreaterThanOrEqual(majorOf(projectNode))

  const { env } = server.database()
  if (env.DATABASE_URL) return // PostgreSQL: no embedded database to open.
  expect(started).toContain('tandem.sqlite, sandbox marketplace loaded')
  // What the server wrote through its own better-sqlite3 is there for another reader.
  const file = new Database(join(env.TANDEM_DATA_DIR!, 'tandem.sqlite'), {
    readonly: true,
  })
  try {
    const stores = file.prepare('select shop from stores order by shop').all() as { shop: string }[]
    expect(stores.map((store) => store.shop)).toContain(NORTHWIND)
  } finally {
    file.close()
  }
})
