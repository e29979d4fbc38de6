import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calls, type CallName } from '../../src/shared/contract/calls'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Every call of the shared contract is served by the server. The compiler already demands a route
// for each (server/src/routes/index.ts); this checks that the one registered answers the call's
// method and path. Main forwards every call it does not wrap (src/shared/ipc.ts), so it has none
// to forget.

const names = Object.keys(calls) as CallName[]

let server: ServerUnderTest
beforeAll(async () => {
  server = await startServerUnderTest({ seed: false })
})
afterAll(() => server.close())

describe('the contract', () => {
  it.each(names)('%s has a server route', (name) => {
    const { method, path } = calls[name]
    expect(server.app.hasRoute({ method, url: path })).toBe(true)
  })
})
