import { inject } from 'vitest'
import { DEMO_ADMIN, upsertEmulatorUser } from '../../scripts/lib/auth-emulator'
import {
  startServerUnderTest,
  type ServerOptions,
  type ServerUnderTest,
} from '../server/support/server-under-test'
import { startConsole, type ConsoleUnderTest } from './console-host'

// The local stack as end-to-end tests drive it: the real Tandem server on a fresh seeded database,
// listening on a free port, and the built console in browser mode pointed at it, both signed in
// through the real Auth emulator (the demo admin exists there).

export interface StackUnderTest {
  server: ServerUnderTest
  console: ConsoleUnderTest
  apiUrl: string
  stop(): Promise<void>
}

export async function startStack(options: ServerOptions = {}): Promise<StackUnderTest> {
  const authEmulatorUrl = inject('authEmulatorUrl')
  await upsertEmulatorUser(authEmulatorUrl, inject('authProjectId'), DEMO_ADMIN)
  const server = await startServerUnderTest(options)
  await server.app.listen({ host: '127.0.0.1', port: 0 })
  const address = server.app.server.address()
  const apiUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  const consoleHost = await startConsole({ authEmulatorUrl, apiUrl })
  return {
    server,
    console: consoleHost,
    apiUrl,
    stop: async () => {
      await consoleHost.stop()
      await server.close()
    },
  }
}
