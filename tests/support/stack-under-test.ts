import { inject } from 'vitest'
import { DEMO_ADMIN, upsertEmulatorUser } from '../../scripts/lib/auth-emulator'
import { holdFreePort } from '../../scripts/lib/ports'
import {
  startServerUnderTest,
  type ServerOptions,
  type ServerUnderTest,
} from '../server/support/server-under-test'
import { startConsole, type ConsoleUnderTest } from './console-host'

// The local stack as end-to-end tests drive it: the real Tandem server on a fresh seeded database,
// listening on a free port, and the built console in browser mode pointed at it, both signed in
// through the real Auth emulator (the demo admin exists there). The server's public URL is its
// real address, so the product images it serves load in the console.

export interface Exchange {
  /** "GET /path?query" */
  request: string
  status: number
  /** The body's exact bytes. */
  body: Buffer
}

export interface StackUnderTest {
  server: ServerUnderTest
  console: ConsoleUnderTest
  apiUrl: string
  /** Every answer the server sent, oldest first. */
  exchanges: Exchange[]
  stop(): Promise<void>
}

export async function startStack(options: ServerOptions = {}): Promise<StackUnderTest> {
  const authEmulatorUrl = inject('authEmulatorUrl')
  await upsertEmulatorUser(authEmulatorUrl, inject('authProjectId'), DEMO_ADMIN)
  // The server's URL must be known before it is seeded; its port is held meanwhile, so that no
  // emulator (this file's or another's, started at once) is handed it.
  const held = await holdFreePort()
  const port = held.port
  const apiUrl = `http://127.0.0.1:${port}`
  let server: ServerUnderTest
  try {
    server = await startServerUnderTest({ publicUrl: apiUrl, ...options })
  } finally {
    await held.release()
  }
  const exchanges: Exchange[] = []
  server.app.addHook('onSend', async (request, reply, payload) => {
    // The server answers strings and buffers only; a stream would be left out.
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      const { method, url } = request
      exchanges.push({
        request: `${method} ${url}`,
        status: reply.statusCode,
        body: Buffer.from(payload),
      })
    }
    return payload
  })
  await server.app.listen({ host: '127.0.0.1', port })
  const consoleHost = await startConsole({ authEmulatorUrl, apiUrl })
  return {
    server,
    console: consoleHost,
    apiUrl,
    exchanges,
    stop: async () => {
      await consoleHost.stop()
      await server.close()
    },
  }
}
