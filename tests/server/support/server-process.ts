import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, inject } from 'vitest'
import { startShopifyEmulator, type ShopifyEmulator } from '../../../emulators/shopify/emulator'
import { startStripeEmulator, type StripeEmulator } from '../../../emulators/stripe/emulator'
import { bundleServer } from '../../../server/scripts/bundle'
import { stopChild } from '../../../scripts/lib/children'
import { freePort } from '../../../scripts/lib/ports'
import { onPostgres } from '../../../scripts/lib/postgres'

// The real Tandem server as a process of its own (server/src/main.ts, bundled once per test file),
// on a database of its own that several processes share and that outlives each of them: what the
// crash harness kills with SIGKILL and starts again.

const serverDir = resolve(__dirname, '../../../server')

/** Bundles main.ts next to the server's node_modules; a name per process (projects run at once). */
export async function buildServer(): Promise<{ entry: string; remove: () => void }> {
  const entry = await bundleServer('src/main.ts', `harness-server-${process.pid}.cjs`)
  return { entry, remove: () => rmSync(entry, { force: true }) }
}

/** The database the server processes of one scenario share: SQLite, or PostgreSQL when set. */
export interface SharedDatabase {
  env: Record<string, string>
  remove(): Promise<void>
}

/** A database on the PostgreSQL at `url` (the suite's unless given), else a SQLite folder. */
export async function freshSharedDatabase(
  url = process.env.TANDEM_TEST_DATABASE_URL,
): Promise<SharedDatabase> {
  if (url) {
    const name = `t_${randomBytes(6).toString('hex')}`
    await onPostgres(url, (client) => client.query(`CREATE DATABASE ${name}`))
    const databaseUrl = new URL(url)
    databaseUrl.pathname = `/${name}`
    return {
      env: { DATABASE_URL: databaseUrl.toString() },
      // Not WITH (FORCE): that would cut connections still closing, in this process too.
      // PostgreSQL lets a closed connection's backend go a moment after the client.
      remove: () =>
        onPostgres(url, async (client) => {
          for (let attempt = 0; ; attempt++) {
            try {
              await client.query(`DROP DATABASE IF EXISTS ${name}`)
              return
            } catch (error) {
              const inUse = (error as { code?: string }).code === '55006'
              if (!inUse || attempt === 50) throw error
              await new Promise((resolve) => setTimeout(resolve, 100))
            }
          }
        }),
    }
  }
  const folder = mkdtempSync(join(tmpdir(), 'tandem-harness-'))
  return {
    env: { TANDEM_DATA_DIR: folder },
    remove: async () => rmSync(folder, { recursive: true, force: true }),
  }
}

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Resolves with the first line of its output that matches. */
  line(pattern: RegExp): Promise<string>
  /** Everything it printed so far: to say why, when a test fails. */
  output(): string
  /** How it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  stop(): Promise<void>
}

export interface ServerProcessOptions {
  entry: string
  database: SharedDatabase
  /** TANDEM_SHOPIFY_ENDPOINT: the Shopify emulator every process of a scenario shares. */
  shopifyEndpoint: string
  /** TANDEM_STRIPE_ENDPOINT and STRIPE_SECRET_KEY: the Stripe emulator they share. */
  stripe: { endpoint: string; secretKey: string }
  /** TANDEM_TRANSFER_LEASE_MS; the server's default (30 s) unless given. */
  leaseMs?: number
  /** TANDEM_JOB_LEASE_MS; the server's default (a minute) unless given. */
  jobLeaseMs?: number
  /** TANDEM_JOB_RETRY_DELAY_SECONDS; each job's own wait before its first retry unless given. */
  jobRetryDelaySeconds?: number
  /** TANDEM_FAILPOINTS (src/transfers/failpoints.ts). */
  failpoints?: string
}

/** The same key for every process of a run, so that each reads the secrets another sealed. */
const SECRET_KEY = randomBytes(32).toString('hex')

/** The server in sandbox mode beside the emulators, as the local stack runs it. */
export const startServerProcess = (options: ServerProcessOptions): Promise<ServerProcess> =>
  spawnServer(options.entry, {
    ...options.database.env,
    TANDEM_SECRET_KEY: SECRET_KEY,
    TANDEM_SHOPIFY_ENDPOINT: options.shopifyEndpoint,
    TANDEM_STRIPE_ENDPOINT: options.stripe.endpoint,
    STRIPE_SECRET_KEY: options.stripe.secretKey,
    TANDEM_FIREBASE_PROJECT_ID: inject('authProjectId'),
    FIREBASE_AUTH_EMULATOR_HOST: new URL(inject('authEmulatorUrl')).host,
    ...(options.leaseMs ? { TANDEM_TRANSFER_LEASE_MS: String(options.leaseMs) } : {}),
    ...(options.jobLeaseMs ? { TANDEM_JOB_LEASE_MS: String(options.jobLeaseMs) } : {}),
    ...(options.jobRetryDelaySeconds
      ? { TANDEM_JOB_RETRY_DELAY_SECONDS: String(options.jobRetryDelaySeconds) }
      : {}),
    ...(options.failpoints ? { TANDEM_FAILPOINTS: options.failpoints } : {}),
  })

/**
 * For a test file that runs one server process: the bundle, a fresh database and both emulators,
 * made before its tests; `start` runs the process on them. All of it is removed after the file.
 */
export function oneServerProcess() {
  let server: Awaited<ReturnType<typeof buildServer>>
  let database: SharedDatabase
  let shopify: ShopifyEmulator
  let stripe: StripeEmulator
  let running: ServerProcess | undefined
  beforeAll(async () => {
    server = await buildServer()
    database = await freshSharedDatabase()
    shopify = await startShopifyEmulator({ imageBaseUrl: 'http://127.0.0.1' })
    stripe = await startStripeEmulator()
  })
  afterAll(async () => {
    await running?.stop()
    await database?.remove()
    await shopify?.close()
    await stripe?.close()
    server?.remove()
  }, 30_000)
  return {
    database: () => database,
    stripe: () => stripe,
    async start(options: Pick<ServerProcessOptions, 'failpoints'> = {}): Promise<ServerProcess> {
      running = await startServerProcess({
        ...options,
        entry: server.entry,
        database,
        shopifyEndpoint: shopify.url,
        stripe: { endpoint: stripe.url, secretKey: stripe.secretKey },
      })
      return running
    },
  }
}

/**
 * The server with exactly `env` beside PATH and its port: nothing of this process's environment
 * leaks in. Resolves once it says it listens on its port; rejects, with what it printed, if it
 * exits first. A port found free may be taken by another test file's process before the server
 * binds it: the server then stops at start (EADDRINUSE) and is started again on another port,
 * never taken to be whatever answers there.
 */
export async function spawnServer(
  entry: string,
  env: Record<string, string>,
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const started = await spawnOnFreePort(entry, env)
    if ('process' in started) return started.process
    if (!started.portTaken || attempt === PORT_ATTEMPTS) {
      throw new Error(`The server process exited at start:\n${started.output}`)
    }
  }
}

const PORT_ATTEMPTS = 3

async function spawnOnFreePort(
  entry: string,
  env: Record<string, string>,
): Promise<{ process: ServerProcess } | { portTaken: boolean; output: string }> {
  const port = await freePort()
  const child = spawn(process.execPath, [entry], {
    cwd: serverDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', ...env, TANDEM_API_PORT: String(port) },
  })
  const seen: string[] = []
  const waiting: { pattern: RegExp; found: (line: string) => void }[] = []
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (text) => {
      seen.push(text)
      for (const waiter of waiting.filter(({ pattern }) => pattern.test(text))) {
        waiting.splice(waiting.indexOf(waiter), 1)
        waiter.found(text)
      }
    })
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  )
  const line = (pattern: RegExp) => {
    const already = seen.find((text) => pattern.test(text))
    if (already) return Promise.resolve(already)
    return new Promise<string>((found) => waiting.push({ pattern, found }))
  }
  const url = `http://127.0.0.1:${port}`
  // Fastify's own line once the port is bound: the process answering there is this one.
  const listening = new RegExp(`Server listening at ${url.replaceAll('.', '\\.')}\\b`)
  const started = await Promise.race([line(listening).then(() => true), exited.then(() => false)])
  if (!started) {
    const output = seen.join('\n')
    return { portTaken: output.includes('EADDRINUSE'), output }
  }
  return {
    process: {
      url,
      child,
      exited,
      line,
      output: () => seen.join('\n'),
      stop: () => stopChild(child),
    },
  }
}
