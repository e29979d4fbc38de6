import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { build } from 'esbuild'
import {
  emulatorIdToken,
  startAuthEmulator,
  upsertEmulatorUser,
} from '../../scripts/lib/auth-emulator'
import { freePort } from '../../scripts/lib/ports'
import { startShopifyEmulator } from '../../emulators/shopify/emulator'
import { startStripeEmulator } from '../../emulators/stripe/emulator'
import { addBenchShops, CEILING_PATH } from './bench-data'

// `npm run bench:server`: the server with 10,000 stores and a 100-line order across 20 brands,
// measured with autocannon from this process against the server in another, all in one run.
// Prints figures beside their baseline and aim; asserts nothing.

const SECONDS = Number(process.env.BENCH_SECONDS || 5)
const CONNECTIONS = 10

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'tandem-bench-auth-'))
  const emulator = await startAuthEmulator({ port: await freePort(), workDir })
  try {
    const admin = { email: 'bench-admin@tandem.test', password: 'bench-password', admin: true }
    await upsertEmulatorUser(emulator.url, emulator.projectId, admin)
    const token = await emulatorIdToken(emulator.url, admin.email, admin.password)
    // In this process, not the server's, so that the server's time and memory are its own.
    // Shopify's rate limit would measure itself: each preview of the 100-line order reads it
    // from Shopify, about 900 points, which a standard bucket restores in 9 s; the benchmark is of
    // Tandem's own work, so this bucket never runs dry.
    const shopify = await startShopifyEmulator({
      imageBaseUrl: 'http://127.0.0.1',
      throttle: { maximumAvailable: 1e12, restoreRate: 1e12 },
    })
    // The order's payment is not read by a preview: the Stripe emulator only holds it.
    const stripe = await startStripeEmulator()
    const orderId = await addBenchShops(shopify, stripe)

    const server = spawn(process.execPath, [await buildBenchServer()], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        BENCH_TOKEN: token,
        BENCH_PROJECT_ID: emulator.projectId,
        BENCH_SHOPIFY_URL: shopify.url,
        BENCH_ORDER_ID: orderId,
        FIREBASE_AUTH_EMULATOR_HOST: new URL(emulator.url).host,
      },
    })
    try {
      const { port, storeCount } = await firstLine<{ port: number; storeCount: number }>(server)
      const base = `http://127.0.0.1:${port}`
      const headers = { authorization: `Bearer ${token}` }
      // Throughput with several connections; latency with one, so that it is the time a request
      // takes and not its wait in the queue behind the others.
      const run = (path: string, connections: number, duration = SECONDS) =>
        autocannon({ url: base + path, headers, connections, duration })
      const previewPath = `/admin-preview-order-transfer?creatorOrderId=${orderId}`
      const receiptPath = `/admin-preview-order-transfer-receipt-pdf?creatorOrderId=${orderId}`
      const idleMb = residentMegabytes(server.pid!)

      console.log(
        `Tandem server benchmark: ${storeCount} stores; throughput with ${CONNECTIONS} connections, latency with 1; ${SECONDS} s per run\n`,
      )
      for (const path of [CEILING_PATH, '/admin-all-stores', previewPath, receiptPath]) {
        await run(path, CONNECTIONS, 2) // warm-up, not counted
      }
      const ceiling = await run(CEILING_PATH, CONNECTIONS)
      const list = await run('/admin-all-stores', CONNECTIONS)
      const preview = await run(previewPath, 1)
      const receipt = await run(receiptPath, 1)
      for (const [name, result] of [
        ['ceiling', ceiling],
        ['list', list],
        ['preview', preview],
        ['receipt', receipt],
      ] as const) {
        const failed = result.non2xx + result.errors + result.timeouts
        if (failed > 0) console.log(`  warning: ${name} had ${failed} failed requests`)
      }
      const rssMb = residentMegabytes(server.pid!)

      const rows = [
        [
          'GET /admin-all-stores',
          `${fmt(list.requests.average)} req/s, p99 ${list.latency.p99} ms`,
          `ceiling ${fmt(ceiling.requests.average)} req/s, p99 ${ceiling.latency.p99} ms`,
          `ratio ${(list.requests.average / ceiling.requests.average).toFixed(2)} (aim ≥ 0.50)`,
        ],
        [
          'preview (100 lines, 20 brands)',
          `p50 ${preview.latency.p50} ms, p99 ${preview.latency.p99} ms`,
          `${fmt(preview.requests.average)} req/s`,
          'aim p50 < 10 ms',
        ],
        [
          'receipt PDF',
          `p50 ${receipt.latency.p50} ms, p99 ${receipt.latency.p99} ms`,
          `${fmt(receipt.requests.average)} req/s`,
          'aim p50 < 20 ms',
        ],
        [
          'server RSS',
          `${rssMb.toFixed(0)} MB after the runs`,
          `${idleMb.toFixed(0)} MB idle`,
          'aim < 150 MB',
        ],
      ]
      const widths = [0, 1, 2].map((c) => Math.max(...rows.map((row) => row[c]!.length)))
      for (const row of rows)
        console.log(row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  '))
    } finally {
      server.kill('SIGTERM')
      await shopify.close()
      await stripe.close()
    }
  } finally {
    await emulator.stop()
    rmSync(workDir, { recursive: true, force: true })
  }
}

/**
 * The server runs as it would in production, compiled to JavaScript, not through tsx (whose
 * compiler would count in its memory). Packages stay in node_modules, as they would be deployed.
 */
async function buildBenchServer(): Promise<string> {
  const outfile = join(__dirname, '..', 'dist', 'bench-server.cjs')
  await build({
    entryPoints: [join(__dirname, 'bench-server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    alias: { '@shared': join(__dirname, '..', '..', 'src', 'shared') },
    logLevel: 'warning',
  })
  return outfile
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

function firstLine<T>(child: ReturnType<typeof spawn>): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', (line) => resolve(JSON.parse(line) as T))
    child.once('exit', (code) => reject(new Error(`The bench server exited with ${code}`)))
  })
}

/** The server's resident memory, from Linux's /proc. */
function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? Number.NaN)
  return kb / 1024
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
