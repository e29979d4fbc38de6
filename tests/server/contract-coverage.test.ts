import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calls, type CallName } from '../../src/shared/contract/calls'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Every call of the shared contract is served by the server and made by the main process: a call
// added to the contract and forgotten on either side fails here.

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

  it.each(names)('%s is made by a main-process handler', (name) => {
    // The handler map is where every channel's call is made (src/main/services/handlers.ts).
    const handlers = readFileSync(resolve(__dirname, '../../src/main/services/handlers.ts'), 'utf8')
    expect(handlers).toMatch(new RegExp(`api\\.call\\(\\s*'${name}'`))
  })
})
