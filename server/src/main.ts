import { connectShopify } from './adapters/commerce/shopify/shopify'
import { connectStripe } from './adapters/payments/stripe/stripe-payments'
import { buildApp } from './app'
import { firebaseTokenVerifier } from './auth/verify'
import { readServerConfig } from './config'
import { openDatabase } from './db/connect'
import { catchUpCreatorOrders } from './orders/catch-up'
import { createSecretBox } from './secrets'
import { seedSandboxMarketplace } from './seed/seed'
import { failpointsFrom } from './transfers/failpoints'
import { transferTiming } from './transfers/transfer-timing'

// The Tandem server on its own: `npm start --workspace server`, or through the local stack.
// Shopify and Stripe are reached through their adapters: the emulators when TANDEM_SHOPIFY_ENDPOINT
// and TANDEM_STRIPE_ENDPOINT are set, the real services otherwise.

async function main(): Promise<void> {
  const config = readServerConfig(process.env)
  const db = await openDatabase({
    databaseUrl: config.databaseUrl ?? undefined,
    sqliteFile: config.sqliteFile,
  })
  const secrets = createSecretBox(config.secretKey)
  // The sandbox marketplace's stores live in the Shopify emulator: only beside it are they seeded.
  const seeded =
    config.shopifyEndpoint !== null &&
    (await seedSandboxMarketplace(db, { secrets, now: new Date() }))
  const shopify = connectShopify({
    db,
    secrets,
    endpoint: config.shopifyEndpoint,
    publicUrl: config.publicUrl,
    now: () => new Date(),
  })
  const timing = {
    ...(config.transferLeaseMs ? { leaseMs: config.transferLeaseMs } : {}),
    failpoint: failpointsFrom(config.failpoints),
  }
  const payments = connectStripe({
    secretKey: config.stripeSecretKey,
    endpoint: config.stripeEndpoint,
    // A try (two requests, when stripe-node resends after a closed connection) ends well inside a
    // transfer's remote-call deadline, so that no request reaches Stripe after the lease is gone.
    requestTimeoutMs: Math.floor(transferTiming(timing).remoteTimeoutMs / 3),
  })
  const app = await buildApp({
    db,
    verifier: firebaseTokenVerifier({ projectId: config.firebaseProjectId }),
    adminEmails: config.adminEmails,
    secrets,
    commerce: shopify.commerce,
    shopify,
    payments,
    publicUrl: config.publicUrl,
    transferTiming: timing,
    logger: true,
  })
  await app.listen({ host: config.host, port: config.port })
  // In the background: the inbox fills in while the server already answers.
  void catchUpCreatorOrders({ db, commerce: shopify.commerce }, (message) => app.log.warn(message))
  app.log.info(
    `Tandem server on ${config.databaseUrl ? 'PostgreSQL' : config.sqliteFile}` +
      (seeded ? ', sandbox marketplace loaded' : ''),
  )
  const stop = async () => {
    await app.close()
    await db.destroy()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
