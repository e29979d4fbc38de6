import type { FastifyBaseLogger } from 'fastify'
import { connectShopify } from './adapters/commerce/shopify/shopify'
import { connectStripe } from './adapters/payments/stripe/stripe-payments'
import { StripeRate } from './adapters/payments/stripe/stripe-rate'
import { buildApp } from './app'
import { firebaseTokenVerifier } from './auth/verify'
import { readServerConfig } from './config'
import { openDatabase, probePostgres } from './db/connect'
import { loggableDatabaseError, watchDatabase, type DatabaseWatch } from './db/database-away'
import { announcePresence } from './db/process-presence'
import { creatorOrderIndex } from './repositories/creator-orders'
import { shopifyKeyAttempts } from './repositories/shopify-key-attempts'
import { shopConnectionStore } from './repositories/shop-connections'
import { openJobQueue } from './jobs/open-job-queue'
import { startBackgroundWork } from './services/background-work'
import { createSecretBox } from './secrets'
import { seedSandboxMarketplace } from './seed/seed'
import { sandboxEmulators } from './sandbox/sandbox-controls'
import { failpointsFrom } from './transfers/failpoints'
import { transferTiming } from './transfers/transfer-timing'

// The Tandem server on its own: `npm start --workspace server`, the container image, or through
// the local stack. Shopify and Stripe are reached through their adapters: the emulators when
// TANDEM_SHOPIFY_ENDPOINT and TANDEM_STRIPE_ENDPOINT are set (sandbox mode only), the real
// services otherwise.

/** How long a stop waits for the requests in flight before it gives up on them. */
const SHUTDOWN_GRACE_MS = 25_000
/**
 * How often a process tells the others it is alive; one silent for three beats counts as gone, and
 * the others take its share of Stripe's rate over. The others learn of a process started within a
 * beat: until then together they may ask a little over Stripe's limits, whose 429s are asked again.
 */
const PRESENCE_BEAT_MS = 5_000

/** How often a process on PostgreSQL looks whether its database answers, and how long it waits. */
const DATABASE_WATCH = { intervalMs: 5_000, timeoutMs: 3_000 }

async function main(): Promise<void> {
  const config = readServerConfig(process.env)
  // The app's log once it exists (the console before), and whether the database is known away.
  let log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> = console
  let watch: DatabaseWatch | undefined
  // Errors of connections and of the job queue's polls come by the dozen when the database goes
  // away: the first has the watch look at once, and once it knows, its one line says so.
  const unlessKnownAway = (what: string) => (error: unknown) => {
    if (watch?.away()) return
    watch?.lookNow()
    log.warn({ cause: loggableDatabaseError(error) }, what)
  }
  const db = await openDatabase({
    databaseUrl: config.databaseUrl ?? undefined,
    sqliteFile: config.sqliteFile,
    onConnectionError: unlessKnownAway('a database connection failed; the pool makes another'),
  })
  const secrets = createSecretBox(config.secretKey, config.previousSecretKeys)
  // Production never seeds. The sandbox marketplace's stores live in the Shopify emulator: only
  // beside it are they seeded.
  const seeded =
    config.mode === 'sandbox' &&
    config.shopifyEndpoint !== null &&
    (await seedSandboxMarketplace(db, { secrets, now: new Date() }))
  const shopify = connectShopify({
    connectionStore: shopConnectionStore(db, secrets),
    creatorOrders: creatorOrderIndex(db),
    keyAttempts: shopifyKeyAttempts(db),
    endpoint: config.shopifyEndpoint,
    publicUrl: config.publicUrl,
    now: () => new Date(),
  })
  const timing = {
    ...(config.transferLeaseMs ? { leaseMs: config.transferLeaseMs } : {}),
    failpoint: failpointsFrom(config.failpoints),
  }
  // Stripe's limits are the platform's: shared among the processes on the database, alive.
  const stripeRate = new StripeRate(config.stripeRateLimits)
  const presence = await announcePresence(db, {
    beatMs: PRESENCE_BEAT_MS,
    ttlMs: 3 * PRESENCE_BEAT_MS,
    now: () => new Date(),
    onCount: (processes) => stripeRate.shareAmong(processes),
  })
  const payments = connectStripe({
    secretKey: config.stripeSecretKey,
    endpoint: config.stripeEndpoint,
    // A try (two requests, when stripe-node resends after a closed connection) ends well inside a
    // transfer's remote-call deadline, so that no request reaches Stripe after the lease is gone.
    requestTimeoutMs: Math.floor(transferTiming(timing).remoteTimeoutMs / 3),
    rate: stripeRate,
  })
  const jobs = openJobQueue(db, {
    databaseUrl: config.databaseUrl,
    ...(config.jobLeaseMs ? { leaseMs: config.jobLeaseMs } : {}),
    onError: unlessKnownAway('the job queue failed; it recovers itself'),
  })
  const app = await buildApp({
    db,
    jobs,
    verifier: firebaseTokenVerifier({ projectId: config.firebaseProjectId }),
    adminEmails: config.adminEmails,
    secrets,
    commerce: shopify.commerce,
    shopify,
    payments,
    publicUrl: config.publicUrl,
    transferTiming: timing,
    trustedProxies: config.trustedProxies,
    logger: { requests: config.logRequests },
    database: { away: () => watch?.away() ?? false },
    sandbox: sandboxEmulators(config),
  })
  log = app.log
  const databaseUrl = config.databaseUrl
  if (databaseUrl) {
    watch = watchDatabase({
      ...DATABASE_WATCH,
      probe: (timeoutMs) => probePostgres(databaseUrl, timeoutMs),
      onChange: (away, cause) =>
        away
          ? app.log.error(
              { cause: loggableDatabaseError(cause) },
              'The database cannot be reached: requests are answered 503, and jobs wait, until it answers again',
            )
          : app.log.info('The database answers again: requests and jobs go on'),
    })
  }
  // Before listening: a webhook's job is sent as it is answered, to a queue that must be running.
  // The catch-up sent at start runs in the background while the server answers.
  await startBackgroundWork(
    {
      db,
      jobs,
      shopify,
      commerce: shopify.commerce,
      payments,
      now: () => new Date(),
      transferTiming: timing,
      // The same failpoints as the transfers': each armed one fires once in this process.
      failpoint: timing.failpoint,
    },
    app.log,
    {
      schedules: true,
      ...(config.jobRetryDelaySeconds ? { retryDelaySeconds: config.jobRetryDelaySeconds } : {}),
    },
  )
  await app.listen({ host: config.host, port: config.port })
  if (config.mode === 'production' && !process.env.GOOGLE_APPLICATION_CREDENTIALS) {
    app.log.warn(
      'GOOGLE_APPLICATION_CREDENTIALS is not set: sign-ins are checked with the platform default ' +
        'credentials, which only Google Cloud has; elsewhere every sign-in will fail (503)',
    )
  }
  app.log.info(
    `Tandem server in ${config.mode} mode on ${config.databaseUrl ? 'PostgreSQL' : config.sqliteFile}` +
      (seeded ? ', sandbox marketplace loaded' : '') +
      // The runtime, for whoever reads a deploy's log: the project runs on Node 24 (.node-version).
      `, Node ${process.version}`,
  )

  // A stop (a deploy, a scale-down) finishes the requests in flight: new ones are refused with
  // 503 while they run, idle connections are closed, and the process leaves once they are done,
  // or after the grace period, saying so.
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C: the operator does not want to wait.
      app.log.warn(`${signal} again: stopping now, without waiting for the requests in flight`)
      process.exit(1)
    }
    stopping = true
    watch?.stop()
    app.log.info(`${signal}: finishing the requests in flight, then stopping`)
    const overdue = setTimeout(() => {
      app.log.error(`Requests still running after ${SHUTDOWN_GRACE_MS / 1000} s: stopping anyway`)
      process.exit(1)
    }, SHUTDOWN_GRACE_MS)
    // The jobs running are told to stop and awaited; one cut short runs again on another process.
    await Promise.all([app.close(), jobs.stop()])
    await presence.stop().catch(() => {})
    await db.destroy()
    clearTimeout(overdue)
    app.log.info('Stopped')
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
