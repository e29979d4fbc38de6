import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { stopChild } from '../../scripts/lib/children'
import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import { connectStripe } from '../src/adapters/payments/stripe/stripe-payments'
import { buildApp } from '../src/app'
import { sqliteJobQueue } from '../src/jobs/sqlite-job-queue'
import { startBackgroundWork } from '../src/services/background-work'
import { openDatabase } from '../src/db/connect'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { createSecretBox } from '../src/secrets'
import { seedSandboxMarketplace } from '../src/seed/seed'

// `npm run bench:webhooks --workspace server`: the server's memory under a flood of unsigned
// webhook bodies, 200 at once, each scenario in a server process of its own whose resident set
// (now and at its peak, from /proc) is printed. Issue 27 measured the server before this change
// going from 129 to 665 MB under 200 unsigned 9.9 MB bodies. Prints the memory and judges it not;
// exits 1 when any body was taken (every answer must be a refusal: 401, 413, 503, or the
// connection closed mid-body). `--short` (CI's form): 40 bodies at once, still past the 32 MB
// budget. Linux only.

const SHORT = process.argv.includes('--short')
const CONCURRENT = Number(process.env.BENCH_WEBHOOK_CONCURRENT || (SHORT ? 40 : 200))
/** What an unsigned body may be answered: not signed, too large, over the budget, or cut off. */
const REFUSALS = new Set([401, 413, 503, -1])
const CLIENTS = 50
const MAYA = 'maya-makes.myshopify.com'

if (process.argv.includes('--serve')) void serve()
else void main()

/** The child: the Tandem server on a seeded SQLite file; prints its port once it listens. */
async function serve() {
  const folder = mkdtempSync(join(tmpdir(), 'tandem-bench-webhooks-'))
  const db = await openDatabase({ sqliteFile: join(folder, 'tandem.sqlite') })
  const secrets = createSecretBox(randomBytes(32))
  await seedSandboxMarketplace(db, { secrets, now: new Date() })
  const shopify = connectShopify({
    connectionStore: shopConnectionStore(db, secrets),
    creatorOrders: creatorOrderIndex(db),
    keyAttempts: shopifyKeyAttempts(db),
    endpoint: null,
    publicUrl: 'http://127.0.0.1',
    now: () => new Date(),
  })
  const jobs = sqliteJobQueue(db)
  const payments = connectStripe({ secretKey: null, endpoint: null })
  const app = await buildApp({
    db,
    jobs,
    verifier: {
      verify: () => Promise.reject(new Error('no sign-in in this benchmark')),
    },
    adminEmails: [],
    secrets,
    commerce: shopify.commerce,
    shopify,
    payments,
    publicUrl: 'http://127.0.0.1',
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  // Deliveries are acted on as in the server, beside the requests measured.
  const quiet = { info: () => {}, warn: () => {}, error: () => {} }
  const background = {
    db,
    jobs,
    shopify,
    commerce: shopify.commerce,
    payments,
    now: () => new Date(),
  }
  await startBackgroundWork(background, quiet, { schedules: false })
  const address = app.server.address()
  console.log(JSON.stringify({ port: typeof address === 'object' && address?.port }))
  process.on('SIGTERM', () => {
    void app.close().then(() => {
      rmSync(folder, { recursive: true, force: true })
      process.exit(0)
    })
  })
}

/** Resident and peak resident set of a process, in MB. */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1])
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

/** Posts `body` with `headers` from the loopback address `from`; answers the status. */
function post(
  port: number,
  headers: Record<string, string>,
  body: Buffer,
  chunked: boolean,
  from: string,
) {
  return new Promise<number>((resolve) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        localAddress: from,
        port,
        method: 'POST',
        path: '/webhooks/shopify',
        headers: {
          'content-type': 'application/json',
          ...(chunked ? {} : { 'content-length': String(body.length) }),
          ...headers,
        },
      },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      },
    )
    // The server may answer and close before the body is sent: that is the point.
    outgoing.on('error', () => resolve(-1))
    outgoing.end(body)
  })
}

async function scenario(
  name: string,
  size: number,
  headers: Record<string, string>,
  chunked = false,
) {
  const child = spawn(process.execPath, [...process.execArgv, __filename, '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  const { port } = JSON.parse(line) as { port: number }
  const before = memoryOf(child.pid!)
  const body = Buffer.alloc(size, 'a')
  const started = performance.now()
  // From 50 addresses, as from many clients: each within its share, together over the budget.
  const statuses = await Promise.all(
    Array.from({ length: CONCURRENT }, (_, i) =>
      post(port, headers, body, chunked, `127.0.0.${1 + (i % CLIENTS)}`),
    ),
  )
  const seconds = (performance.now() - started) / 1000
  const after = memoryOf(child.pid!)
  const counts = new Map<number, number>()
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1)
  // -1: the server closed the connection while the body was still being sent.
  const answers = [...counts]
    .map(([status, count]) => `${count} × ${status === -1 ? 'reset' : status}`)
    .join(', ')
  console.log(
    `  ${name.padEnd(58)} ${before.rss.toFixed(0).padStart(4)} MB → peak ${after.peak
      .toFixed(0)
      .padStart(4)} MB   ${answers} in ${seconds.toFixed(2)} s`,
  )
  await stopChild(child)
  return statuses.every((status) => REFUSALS.has(status))
}

async function main() {
  const shopifyHeaders = {
    'x-shopify-shop-domain': MAYA,
    'x-shopify-topic': 'orders/paid',
    'x-shopify-webhook-id': 'bench',
    'x-shopify-hmac-sha256': randomBytes(32).toString('base64'),
  }
  console.log(`${CONCURRENT} webhook bodies at once, none signed (resident set of the server)`)
  const refused = [
    await scenario('9.9 MB, no Shopify headers', 9_900_000, {}),
    await scenario('9.9 MB, a configured shop, a forged signature', 9_900_000, shopifyHeaders),
    await scenario('3.9 MB, a configured shop, a forged signature', 3_900_000, shopifyHeaders),
    await scenario(
      '3.9 MB chunked, a configured shop, a forged signature',
      3_900_000,
      shopifyHeaders,
      true,
    ),
  ]
  if (refused.every(Boolean)) console.log('Every unsigned body was refused.')
  else {
    console.error('An unsigned body was answered with other than 401, 413 or 503.')
    process.exitCode = 1
  }
}
