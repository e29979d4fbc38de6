import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import { connectStripe } from '../src/adapters/payments/stripe/stripe-payments'
import { buildApp } from '../src/app'
import { sqliteJobQueue } from '../src/jobs/sqlite-job-queue'
import { firebaseTokenVerifier } from '../src/auth/verify'
import { openDatabase } from '../src/db/connect'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { createSecretBox } from '../src/secrets'
import { CEILING_PATH } from './bench-data'

// The server under benchmark, in a process of its own so that its memory is its own: on the
// SQLite file BENCH_SQLITE_FILE, which bench.ts prepared (sealed under BENCH_SECRET_KEY, hex), so
// that its memory is a server's and not a seed's. It prints one JSON line with its port once it
// listens. BENCH_TOKEN is an administrator's ID token; BENCH_SHOPIFY_URL the Shopify emulator
// holding the bench order; BENCH_STRIPE_URL and BENCH_STRIPE_KEY the Stripe emulator holding its
// payment. SERVER_NODE_ARGS (bench-support.ts) are its Node's, as deployed.

async function main(): Promise<void> {
  const db = await openDatabase({ sqliteFile: process.env.BENCH_SQLITE_FILE ?? '' })
  const secrets = createSecretBox(Buffer.from(process.env.BENCH_SECRET_KEY ?? '', 'hex'))
  const publicUrl = 'http://127.0.0.1'
  const adapter = connectShopify({
    connectionStore: shopConnectionStore(db, secrets),
    creatorOrders: creatorOrderIndex(db),
    keyAttempts: shopifyKeyAttempts(db),
    endpoint: process.env.BENCH_SHOPIFY_URL ?? null,
    publicUrl,
    now: () => new Date(),
  })
  const app = await buildApp({
    db,
    verifier: firebaseTokenVerifier({ projectId: process.env.BENCH_PROJECT_ID ?? 'demo-tandem' }),
    adminEmails: [],
    secrets,
    commerce: adapter.commerce,
    shopify: adapter,
    // The preview reads the order's charge; none of the measured calls sends a job.
    payments: connectStripe({
      secretKey: process.env.BENCH_STRIPE_KEY ?? null,
      endpoint: process.env.BENCH_STRIPE_URL ?? null,
    }),
    jobs: sqliteJobQueue(db),
    publicUrl,
  })
  // The ceiling: the same bytes, computed once, behind the same authentication. Routes must be in
  // place before the first request, so the bytes are filled in by that request.
  let precomputed: Buffer = Buffer.alloc(0)
  app.get(CEILING_PATH, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(precomputed),
  )
  const stores = await app.inject({
    url: '/admin-all-stores',
    headers: { authorization: `Bearer ${process.env.BENCH_TOKEN}` },
  })
  if (stores.statusCode !== 200) throw new Error(`Store list answered ${stores.statusCode}`)
  precomputed = stores.rawPayload
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const storeCount = (JSON.parse(stores.body) as unknown[]).length
  console.log(JSON.stringify({ port, storeCount }))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
