import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { inject } from 'vitest'
import { onPostgres } from '../../../scripts/lib/postgres'
import { holdFreePort } from '../../../scripts/lib/ports'
import {
  emulatorIdToken,
  upsertEmulatorUser,
  type EmulatorUser,
} from '../../../scripts/lib/auth-emulator'
import {
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from '../../../emulators/shopify/emulator'
import type { CommercePort } from '../../../server/src/adapters/commerce/commerce-port'
import { WEBHOOK_PATH } from '../../../server/src/adapters/commerce/shopify/shopify-webhooks'
import {
  connectShopify,
  type ShopifyDeps,
} from '../../../server/src/adapters/commerce/shopify/shopify'
import {
  startStripeEmulator,
  type StripeEmulator,
  type StripeEmulatorOptions,
} from '../../../emulators/stripe/emulator'
import type { PaymentsPort } from '../../../server/src/adapters/payments/payments-port'
import {
  connectStripe,
  type StripeOptions,
} from '../../../server/src/adapters/payments/stripe/stripe-payments'
import { buildApp } from '../../../server/src/app'
import type { AppDeps } from '../../../server/src/deps'
import { firebaseTokenVerifier, type TokenVerifier } from '../../../server/src/auth/verify'
import { openDatabase, type Db } from '../../../server/src/db/connect'
import { creatorOrderIndex } from '../../../server/src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../../../server/src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../../../server/src/repositories/shop-connections'
import { createSecretBox, type SecretBox } from '../../../server/src/secrets'
import { catchUpCreatorOrders } from '../../../server/src/orders/catch-up'
import type { JobQueue } from '../../../server/src/jobs/job-queue'
import { openJobQueue } from '../../../server/src/jobs/open-job-queue'
import { startBackgroundWork } from '../../../server/src/services/background-work'
import { seedSandboxMarketplace } from '../../../server/src/seed/seed'

// The server as the tests see it: built with app.inject in mind, on a fresh database (SQLite, or
// a schema of its own on PostgreSQL when TANDEM_TEST_DATABASE_URL is set), with ID tokens minted
// by the real Firebase Auth emulator, its stores in a Shopify emulator of its own reached through
// the real Shopify adapter, and its payments in a Stripe emulator reached through the real Stripe
// adapter.

export const PUBLIC_URL = 'http://127.0.0.1:8787'
export const LISTED_ADMIN_EMAIL = 'listed-admin@tandem.test'

export interface ServerUnderTest {
  app: FastifyInstance
  db: Db
  secrets: SecretBox
  /** The Shopify emulator holding the stores' products and orders. */
  shopify: ShopifyEmulator
  /** The Stripe emulator holding the brands' accounts, the PaymentIntents and the transfers. */
  stripe: StripeEmulator
  /** The SQLite file, or null on PostgreSQL. */
  sqliteFile: string | null
  /** The job queue the server's background work runs on, started. */
  jobs: JobQueue
  /** What the background work logged (a job's failure, retention's count), in order. */
  jobLog: LoggedLine[]
  tokens: { admin: string; listedAdmin: string; notAdmin: string }
  /** `{ authorization: 'Bearer …' }` of the admin. */
  asAdmin: { authorization: string }
  close(): Promise<void>
}

/** A line the background work logged. */
export interface LoggedLine {
  level: 'info' | 'warn' | 'error'
  message: string
  details: Record<string, unknown>
}

export interface ServerOptions {
  seed?: boolean
  /**
   * Whether the schedules run (the catch-up every few minutes, retention hourly, a catch-up at
   * start); off unless asked, so that no catch-up changes another test's Shopify call counts.
   */
  schedules?: boolean
  /** Where the server says it is (app URLs, product images); PUBLIC_URL unless given. */
  publicUrl?: string
  /** Wraps the Shopify adapter, to slow down or hold its calls. */
  commerce?: (shopify: CommercePort) => CommercePort
  /** The Shopify emulator's settings beyond the image URL and seed. */
  shopifyEmulator?: Partial<ShopifyEmulatorOptions>
  /** The Shopify adapter's waits and request timeout. */
  shopifyApi?: ShopifyDeps['api']
  /** Wraps the Stripe adapter, to slow down or hold its calls. */
  payments?: (stripe: PaymentsPort) => PaymentsPort
  /** The Stripe emulator's settings beyond the seed (its clock). */
  stripeEmulator?: Partial<StripeEmulatorOptions>
  /** The Stripe adapter's waits and request timeout. */
  stripeApi?: Pick<StripeOptions, 'wait' | 'requestTimeoutMs'>
  /** The token verifier's clock, for stepping past its cache. */
  verifierClock?: () => number
  /** In place of the Firebase verifier of the run's Auth emulator. */
  verifier?: TokenVerifier
  /** TANDEM_ADMIN_EMAILS; [LISTED_ADMIN_EMAIL] unless given. */
  adminEmails?: string[]
  /** The server's clock (transfer leases, timestamps); the real one unless given. */
  now?: () => Date
  transferTiming?: AppDeps['transferTiming']
  requestTimeoutMs?: number
  trustedProxies?: string
  /**
   * The background jobs' retries: at most `limit` each (their own limit unless given; the webhook
   * job's ten take hours), and the first `delaySeconds` after a failure (1 s unless given).
   */
  jobRetries?: { limit?: number; delaySeconds?: number }
  /** Whether the Sandbox page's call drives the emulators, as in sandbox mode; true unless told. */
  sandboxControls?: boolean
}

export const usesPostgres = () => Boolean(process.env.TANDEM_TEST_DATABASE_URL)

/** "Sync products" of a store, as an administrator asks it (POST /admin-update-products). */
export const syncProducts = (server: ServerUnderTest, storeShop: string) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-update-products',
    headers: server.asAdmin,
    payload: { storeShop },
  })

/**
 * A server listening on its public URL, so that the emulators' webhooks and redirects reach it;
 * answers it with its port.
 */
export async function startListeningServer(
  options: ServerOptions = {},
): Promise<ServerUnderTest & { port: number }> {
  // The port is held while the server is built, which starts emulators on ports of their own:
  // merely found free, it could be one of theirs (or another test file's) by the time it listens.
  const held = await holdFreePort()
  let server: ServerUnderTest
  try {
    server = await startServerUnderTest({ ...options, publicUrl: `http://127.0.0.1:${held.port}` })
    await server.app.ready()
  } finally {
    await held.release()
  }
  await server.app.listen({ host: '127.0.0.1', port: held.port })
  return Object.assign(server, { port: held.port })
}

export async function startServerUnderTest(options: ServerOptions = {}): Promise<ServerUnderTest> {
  const emulatorUrl = inject('authEmulatorUrl')
  const projectId = inject('authProjectId')
  process.env.FIREBASE_AUTH_EMULATOR_HOST = new URL(emulatorUrl).host

  const { db, sqliteFile, postgres, dropDatabase } = await freshDatabase()
  const secrets = createSecretBox(randomBytes(32))
  const publicUrl = options.publicUrl ?? PUBLIC_URL
  const shopify = await startShopifyEmulator({
    // The app's configuration sends the compliance topics where Tandem takes every webhook.
    complianceUri: `${publicUrl}${WEBHOOK_PATH}`,
    ...options.shopifyEmulator,
    imageBaseUrl: publicUrl,
    seed: options.seed !== false,
  })
  const stripe = await startStripeEmulator({
    ...options.stripeEmulator,
    seed: options.seed !== false,
  })
  const payments = connectStripe({
    secretKey: stripe.secretKey,
    endpoint: stripe.url,
    ...options.stripeApi,
  })
  const now = options.now ?? (() => new Date())
  const { commerce, ...shopifyServices } = connectShopify({
    connectionStore: shopConnectionStore(db, secrets),
    creatorOrders: creatorOrderIndex(db),
    keyAttempts: shopifyKeyAttempts(db),
    endpoint: shopify.url,
    publicUrl,
    now,
    api: options.shopifyApi,
    // A webhook registration cut short by the end of a test is not that test's concern; the
    // tests of connections read the subscriptions the emulator holds.
    log: () => {},
  })
  if (options.seed !== false) await seedSandboxMarketplace(db, { secrets, now: new Date() })
  const jobs = openJobQueue(db, {
    databaseUrl: postgres?.url ?? null,
    schema: postgres ? jobSchema(postgres.schema) : undefined,
    pollMs: 50,
    onError: (error) => jobLog.push({ level: 'error', message: String(error), details: {} }),
  })
  const jobLog: LoggedLine[] = []
  const logTo = (level: LoggedLine['level']) => (details: object, message: string) =>
    void jobLog.push({ level, message, details: details as Record<string, unknown> })
  const serverCommerce = options.commerce ? options.commerce(commerce) : commerce
  const serverPayments = options.payments ? options.payments(payments) : payments
  const app = await buildApp({
    db,
    jobs,
    verifier: options.verifier ?? firebaseTokenVerifier({ projectId, now: options.verifierClock }),
    adminEmails: options.adminEmails ?? [LISTED_ADMIN_EMAIL],
    secrets,
    commerce: serverCommerce,
    shopify: shopifyServices,
    payments: serverPayments,
    publicUrl,
    now: options.now,
    transferTiming: options.transferTiming,
    requestTimeoutMs: options.requestTimeoutMs,
    trustedProxies: options.trustedProxies,
    sandbox:
      options.sandboxControls === false
        ? undefined
        : { shopify: shopify.url, stripe: stripe.url, key: stripe.secretKey },
  })
  await startBackgroundWork(
    {
      db,
      jobs,
      shopify: shopifyServices,
      commerce: serverCommerce,
      payments: serverPayments,
      now,
      transferTiming: options.transferTiming,
    },
    { info: logTo('info'), warn: logTo('warn'), error: logTo('error') },
    {
      schedules: options.schedules ?? false,
      retryDelaySeconds: options.jobRetries?.delaySeconds ?? 1,
      retryLimit: options.jobRetries?.limit,
    },
  )
  if (options.seed !== false) {
    // As the server does at start: the creator orders the shops already have, in the inbox.
    const catchUpDeps = { db, commerce, jobs, now, transferTiming: options.transferTiming }
    await catchUpCreatorOrders(catchUpDeps, (message) => {
      throw new Error(message)
    })
  }
  const tokens = {
    admin: await idToken(emulatorUrl, projectId, { email: 'claim-admin@tandem.test', admin: true }),
    listedAdmin: await idToken(emulatorUrl, projectId, {
      email: LISTED_ADMIN_EMAIL,
      emailVerified: true,
    }),
    notAdmin: await idToken(emulatorUrl, projectId, { email: 'shopper@tandem.test' }),
  }
  return {
    app,
    db,
    secrets,
    shopify,
    stripe,
    sqliteFile,
    jobs,
    jobLog,
    tokens,
    asAdmin: { authorization: `Bearer ${tokens.admin}` },
    close: async () => {
      await app.close()
      await jobs.stop()
      await shopify.close()
      await stripe.close()
      await db.destroy()
      await dropDatabase()
    },
  }
}

/**
 * A database of the test's own: a fresh SQLite file, or a fresh schema on PostgreSQL (`postgres`
 * says where, for what connects beside Kysely).
 */
export async function freshDatabase() {
  const url = process.env.TANDEM_TEST_DATABASE_URL
  if (url) {
    const schema = `t_${randomBytes(6).toString('hex')}`
    await onPostgres(url, (client) => client.query(`CREATE SCHEMA ${schema}`))
    const scoped = new URL(url)
    scoped.searchParams.set('options', `-c search_path=${schema}`)
    return {
      db: await apartFromDrops(url, () => openDatabase({ databaseUrl: scoped.toString(), schema })),
      sqliteFile: null,
      postgres: { url, schema },
      // With pg-boss's schema, when a queue made one.
      dropDatabase: () =>
        apartFromDrops(url, () =>
          onPostgres(url, (client) =>
            client.query(
              `DROP SCHEMA ${schema} CASCADE; DROP SCHEMA IF EXISTS ${jobSchema(schema)} CASCADE`,
            ),
          ),
        ),
    }
  }
  const folder = mkdtempSync(join(tmpdir(), 'tandem-server-test-'))
  const sqliteFile = join(folder, 'tandem.sqlite')
  return {
    db: await openDatabase({ sqliteFile }),
    sqliteFile,
    postgres: null,
    dropDatabase: async () => rmSync(folder, { recursive: true, force: true }),
  }
}

/** Any number, the same in every test file: the advisory lock of the tests' schema changes. */
const SCHEMA_CHANGES_LOCK = 4_340_034

/**
 * Runs `work` while no other test file drops a schema, and drops one only while no other migrates:
 * Kysely's migrator looks at every schema's tables first, and one dropped under it fails the
 * migration ("schema … does not exist"), as files running at once on one PostgreSQL showed.
 */
function apartFromDrops<T>(url: string, work: () => Promise<T>): Promise<T> {
  return onPostgres(url, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_CHANGES_LOCK])
    try {
      return await work()
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_CHANGES_LOCK])
    }
  })
}

/** pg-boss's schema beside a test database's. */
export const jobSchema = (schema: string) => `${schema}_jobs`

export const TEST_PASSWORD = 'test-password'

/** Creates or updates a user in the Auth emulator and signs them in: their ID token. */
export async function idToken(
  emulatorUrl: string,
  projectId: string,
  user: Omit<EmulatorUser, 'password'>,
): Promise<string> {
  await upsertEmulatorUser(emulatorUrl, projectId, { ...user, password: TEST_PASSWORD })
  return emulatorIdToken(emulatorUrl, user.email, TEST_PASSWORD)
}
