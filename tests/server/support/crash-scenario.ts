import { afterAll, afterEach, beforeAll, inject } from 'vitest'
import {
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from '../../../emulators/shopify/emulator'
import { startStripeEmulator, type StripeEmulator } from '../../../emulators/stripe/emulator'
import { readDatabaseSettings } from '../../../server/src/config'
import { openDatabase, type Db } from '../../../server/src/db/connect'
import {
  buildServer,
  freshSharedDatabase,
  startServerProcess,
  type ServerProcess,
  type ServerProcessOptions,
  type SharedDatabase,
} from './server-process'
import { idToken } from './server-under-test'

// What a crash-test file works with: the real server bundled and an administrator's token, made
// once for the file, and for each scenario a fresh database and emulators that the server
// processes it starts share; the processes killed or not, all of it is stopped and removed after
// the scenario, whatever happened.

export interface CrashScenario {
  database: SharedDatabase
  shopify: ShopifyEmulator
  stripe: StripeEmulator
  /** A server process on the scenario's database and emulators. */
  start(
    options?: Pick<
      ServerProcessOptions,
      'failpoints' | 'leaseMs' | 'jobLeaseMs' | 'jobRetryDelaySeconds'
    >,
  ): Promise<ServerProcess>
  /** The scenario's database as the processes see it, opened once they made it. */
  db(): Promise<Db>
}

/**
 * What a process is started with to be taken over soon once killed: its hold on an order or a
 * listing runs out after 3.6 s (its remote calls get a third of it), and its job runs again after
 * 4 s, past that (pg-boss takes at least 10 s), then 1 s after each failure.
 */
export const SHORT_LEASES = { leaseMs: 3600, jobLeaseMs: 4000, jobRetryDelaySeconds: 1 }

/** How long a test waits for a process started again to take a killed one's work over. */
export const TAKEOVER = { timeout: 60_000, interval: 200 }

export function crashScenarios({
  postgresUrl,
  ...shopifyOptions
}: Pick<ShopifyEmulatorOptions, 'searchLagMs' | 'cancelDelayMs'> & {
  /** A PostgreSQL of the file's own (the suite's, or SQLite, unless given). */
  postgresUrl?: () => string
} = {}) {
  let server: Awaited<ReturnType<typeof buildServer>>
  let admin: { authorization: string }
  beforeAll(async () => {
    server = await buildServer()
    const token = await idToken(inject('authEmulatorUrl'), inject('authProjectId'), {
      email: 'harness-admin@tandem.test',
      admin: true,
    })
    admin = { authorization: `Bearer ${token}` }
  })
  afterAll(() => server?.remove())

  let current: CrashScenario | undefined
  let ending: (() => Promise<void>)[] = []
  // Stopping the processes and dropping a PostgreSQL database (once its killed clients' backends
  // are gone) takes seconds on a loaded machine: more than a hook's default 10 s at worst.
  afterEach(async () => {
    for (const end of ending.reverse()) await end()
    ending = []
    current = undefined
  }, 60_000)

  return {
    admin: () => admin,
    /** A process of the current scenario on SHORT_LEASES, with these failpoints armed. */
    startTakenOverSoon: (failpoints?: string) =>
      current!.start({ ...SHORT_LEASES, ...(failpoints ? { failpoints } : {}) }),
    /** An administrator's call to one of the scenario's processes: its status and JSON body. */
    async call(on: ServerProcess, method: 'GET' | 'POST', path: string, body?: object) {
      const response = await fetch(`${on.url}${path}`, {
        method,
        headers: { ...admin, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    },
    async begin(): Promise<CrashScenario> {
      const database = await freshSharedDatabase(postgresUrl?.())
      ending.push(() => database.remove())
      const shopify = await startShopifyEmulator({
        imageBaseUrl: 'http://127.0.0.1',
        ...shopifyOptions,
      })
      ending.push(() => shopify.close())
      const stripe = await startStripeEmulator()
      ending.push(() => stripe.close())
      const processes: ServerProcess[] = []
      ending.push(async () => {
        await Promise.all(processes.map((process) => process.stop()))
      })
      let opened: Db | undefined
      ending.push(async () => opened?.destroy())
      current = {
        database,
        shopify,
        stripe,
        async start(processOptions = {}) {
          const started = await startServerProcess({
            entry: server.entry,
            database,
            shopifyEndpoint: shopify.url,
            stripe: { endpoint: stripe.url, secretKey: stripe.secretKey },
            ...processOptions,
          })
          processes.push(started)
          return started
        },
        async db() {
          const { databaseUrl, sqliteFile } = readDatabaseSettings(database.env)
          opened ??= await openDatabase({ databaseUrl: databaseUrl ?? undefined, sqliteFile })
          return opened
        },
      }
      return current
    },
    current(): CrashScenario {
      if (!current) throw new Error('Call begin() first')
      return current
    },
  }
}
