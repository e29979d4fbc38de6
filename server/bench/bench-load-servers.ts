import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stopChild } from '../../scripts/lib/children'
import { freePort, waitForHttp } from '../../scripts/lib/ports'
import { SERVER_ENV, SERVER_NODE_ARGS, type BenchAdmin } from './bench-support'

// The real server (server/src/main.ts, bundled) as the load test runs it: one or more processes
// on one PostgreSQL database, beside the emulators of this process, each writing its log to a file
// that is read when something failed.

export interface ServerProcess {
  url: string
  child: ChildProcess
  logFile: string
}

export interface ServerGroup {
  servers: ServerProcess[]
  /** Stops every process (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>
}

export async function startServers(options: {
  bundle: string
  count: number
  databaseUrl: string
  secretKey: Buffer
  shopifyUrl: string
  stripe: { url: string; secretKey: string }
  admin: BenchAdmin
  logDir: string
  /** Where Shopify's webhooks go (a balancer before the processes); the first process's if absent. */
  publicUrl?: string
  /** Settings of every process beyond the ones above (a share of Stripe's rate). */
  env?: Record<string, string>
}): Promise<ServerGroup> {
  const ports = await Promise.all(Array.from({ length: options.count }, () => freePort()))
  // One public URL for all, as behind a load balancer: Shopify's webhooks (orders marked as paid)
  // are registered once, not once per process.
  const publicUrl = options.publicUrl ?? `http://127.0.0.1:${ports[0]}`
  const servers: ServerProcess[] = []
  // Should the benchmark exit without stopping them (interrupted), they go with it.
  const killAll = () => servers.forEach((server) => server.child.kill('SIGKILL'))
  process.once('exit', killAll)
  const stop = async () => {
    await Promise.all(servers.map((server) => stopChild(server.child)))
    process.off('exit', killAll)
  }
  try {
    for (const [i, port] of ports.entries()) {
      const logFile = join(options.logDir, `server-${i + 1}.log`)
      const log = openSync(logFile, 'a')
      const child = spawn(process.execPath, [...SERVER_NODE_ARGS, options.bundle], {
        cwd: join(__dirname, '..'),
        stdio: ['ignore', log, log],
        // Only what the server reads: nothing of this shell's (a DATABASE_URL, say) leaks in.
        env: {
          PATH: process.env.PATH ?? '',
          TANDEM_MODE: 'sandbox',
          DATABASE_URL: options.databaseUrl,
          TANDEM_API_PORT: String(port),
          TANDEM_PUBLIC_URL: publicUrl,
          TANDEM_SECRET_KEY: options.secretKey.toString('hex'),
          TANDEM_SHOPIFY_ENDPOINT: options.shopifyUrl,
          TANDEM_STRIPE_ENDPOINT: options.stripe.url,
          STRIPE_SECRET_KEY: options.stripe.secretKey,
          TANDEM_FIREBASE_PROJECT_ID: options.admin.projectId,
          FIREBASE_AUTH_EMULATOR_HOST: new URL(options.admin.emulatorUrl).host,
          ...SERVER_ENV,
          ...options.env,
        },
      })
      closeSync(log)
      const url = `http://127.0.0.1:${port}`
      servers.push({ url, child, logFile })
      const exited = new Promise<false>((done) => child.once('exit', () => done(false)))
      const started = await Promise.race([
        waitForHttp(`${url}/healthz`, 30_000).then(() => true),
        exited,
      ])
      if (!started) {
        throw new Error(`Server ${i + 1} exited at start:\n${readFileSync(logFile, 'utf8')}`)
      }
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { servers, stop }
}

/**
 * The errors a server logged (pino's level 50 and above, and anything it printed that is not
 * pino's), each message once with how often it came and, for the first, its stack: what to tell
 * whoever fixes the server.
 */
export function loggedErrors(logFile: string): { message: string; count: number; first: string }[] {
  const found = new Map<string, { message: string; count: number; first: string }>()
  const add = (message: string, first: string) => {
    const known = found.get(message)
    if (known) known.count++
    else found.set(message, { message, count: 1, first })
  }
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.trim()) continue
    const entry = pinoEntry(line)
    if (!entry) {
      add(line, line)
      continue
    }
    if ((entry.level ?? 0) < 50) continue
    // Fastify logs a failed request's error as `err`; the server's own handlers sometimes `error`.
    const error = entry.err ?? entry.error
    add(`${entry.msg ?? ''}${error?.message ? `: ${error.message}` : ''}`, error?.stack ?? line)
  }
  return [...found.values()].sort((a, b) => b.count - a.count)
}

interface PinoEntry {
  level?: number
  msg?: string
  err?: { message?: string; stack?: string }
  error?: { message?: string; stack?: string }
}

function pinoEntry(line: string): PinoEntry | null {
  if (!line.startsWith('{')) return null
  try {
    return JSON.parse(line) as PinoEntry
  } catch {
    return null
  }
}
