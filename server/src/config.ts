import { accessSync, constants, statSync } from 'node:fs'
import { join } from 'node:path'
import { parseSecretKey } from './secrets'

// The server's settings, all from the environment, checked once at start. TANDEM_MODE=sandbox (the
// default) runs beside the emulators with local defaults; TANDEM_MODE=production refuses to start
// unless every setting a real marketplace needs is there and nothing points at an emulator, and
// says which ones, all at once, so that an operator mends them in one go.

export type ServerMode = 'sandbox' | 'production'

interface ServerConfig {
  mode: ServerMode
  host: string
  port: number
  /** PostgreSQL when set; otherwise the embedded SQLite file. */
  databaseUrl: string | null
  sqliteFile: string
  secretKey: Buffer
  /** TANDEM_PREVIOUS_SECRET_KEYS: keys that still open what they sealed, until a rotation. */
  previousSecretKeys: Buffer[]
  adminEmails: string[]
  publicUrl: string
  firebaseProjectId: string
  /** TANDEM_SHOPIFY_ENDPOINT: the Shopify emulator standing in for every shop; null for Shopify. */
  shopifyEndpoint: string | null
  /** STRIPE_SECRET_KEY: the platform's key; null leaves every payment call failing, saying so. */
  stripeSecretKey: string | null
  /** TANDEM_STRIPE_ENDPOINT: the Stripe emulator in place of api.stripe.com; null for Stripe. */
  stripeEndpoint: string | null
  /**
   * TANDEM_STRIPE_REQUESTS_PER_SECOND and TANDEM_STRIPE_ENDPOINT_REQUESTS_PER_SECOND: the most the
   * server's processes together ask of Stripe. Stripe's limits for the key's mode unless set
   * (stripeRateDefaults); each process takes its share among those alive (db/process-presence.ts).
   */
  stripeRateLimits: { perSecond: number; perEndpointPerSecond: number }
  /** TANDEM_TRANSFER_LEASE_MS: how soon a crashed request's transfer may be taken over. */
  transferLeaseMs: number | undefined
  /** TANDEM_JOB_LEASE_MS: how soon a job whose process died is taken again (jobs/open-job-queue.ts). */
  jobLeaseMs: number | undefined
  /** TANDEM_JOB_RETRY_DELAY_SECONDS: every job's first retry after a failure (BackgroundOptions). */
  jobRetryDelaySeconds: number | undefined
  /** TANDEM_FAILPOINTS: the crash harness's stops (src/transfers/failpoints.ts); never set otherwise. */
  failpoints: string | undefined
  /** TANDEM_TRUSTED_PROXIES: the proxies whose X-Forwarded-For names the client (AppDeps). */
  trustedProxies: string | undefined
  /**
   * TANDEM_LOG_REQUESTS=debug: each request's log lines below the log's level, for the local
   * stack, whose console's polling would drown the terminal; 'info' (a deploy's log) otherwise.
   */
  logRequests: 'info' | 'debug'
}

type Env = Record<string, string | undefined>

/** Production's refusal: every missing or unsafe setting, one per line. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The Tandem server cannot start in production mode:\n- ${problems.join('\n- ')}`)
    this.name = 'ConfigError'
  }
}

export function readServerConfig(env: Env): ServerConfig {
  const mode = modeOf(env)
  if (mode === 'production') {
    const problems = productionProblems(env)
    if (problems.length > 0) throw new ConfigError(problems)
  }
  const port = Number(env.TANDEM_API_PORT || env.PORT || 8787)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`TANDEM_API_PORT must be a port number, not "${env.TANDEM_API_PORT}"`)
  }
  const { databaseUrl, sqliteFile } = readDatabaseSettings(env)
  return {
    mode,
    host: env.TANDEM_API_HOST || '127.0.0.1',
    port,
    databaseUrl,
    sqliteFile,
    ...readSecretKeys(env),
    adminEmails: (env.TANDEM_ADMIN_EMAILS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    publicUrl: (env.TANDEM_PUBLIC_URL || `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
    firebaseProjectId: env.TANDEM_FIREBASE_PROJECT_ID || 'demo-tandem',
    shopifyEndpoint: optionalUrl(env, 'TANDEM_SHOPIFY_ENDPOINT'),
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeEndpoint: optionalUrl(env, 'TANDEM_STRIPE_ENDPOINT'),
    stripeRateLimits: readStripeRateLimits(env),
    transferLeaseMs: optionalPositiveInteger(env, 'TANDEM_TRANSFER_LEASE_MS'),
    jobLeaseMs: optionalPositiveInteger(env, 'TANDEM_JOB_LEASE_MS'),
    jobRetryDelaySeconds: optionalPositiveInteger(env, 'TANDEM_JOB_RETRY_DELAY_SECONDS'),
    failpoints: env.TANDEM_FAILPOINTS || undefined,
    trustedProxies: env.TANDEM_TRUSTED_PROXIES || undefined,
    logRequests: env.TANDEM_LOG_REQUESTS === 'debug' ? 'debug' : 'info',
  }
}

/**
 * Stripe's rate limits (https://docs.stripe.com/rate-limits): per account, 100 requests a second
 * in live mode and 25 in a sandbox (a test-mode key), and 25 a second to any one endpoint in both.
 */
function stripeRateDefaults(secretKey: string | undefined) {
  const sandbox = /^(sk|rk)_test_/.test(secretKey ?? '')
  return { perSecond: sandbox ? 25 : 100, perEndpointPerSecond: 25 }
}

function readStripeRateLimits(env: Env): ServerConfig['stripeRateLimits'] {
  const defaults = stripeRateDefaults(env.STRIPE_SECRET_KEY)
  return {
    perSecond: optionalRate(env, 'TANDEM_STRIPE_REQUESTS_PER_SECOND') ?? defaults.perSecond,
    perEndpointPerSecond:
      optionalRate(env, 'TANDEM_STRIPE_ENDPOINT_REQUESTS_PER_SECOND') ??
      defaults.perEndpointPerSecond,
  }
}

/** Where the data is: PostgreSQL at DATABASE_URL, or the SQLite file in TANDEM_DATA_DIR. */
export function readDatabaseSettings(env: Env): { databaseUrl: string | null; sqliteFile: string } {
  return {
    databaseUrl: env.DATABASE_URL || null,
    sqliteFile: join(env.TANDEM_DATA_DIR || '.tandem', 'tandem.sqlite'),
  }
}

/** The key new secrets are sealed under, and the previous ones that still open old secrets. */
export function readSecretKeys(env: Env): { secretKey: Buffer; previousSecretKeys: Buffer[] } {
  if (!env.TANDEM_SECRET_KEY) {
    throw new Error('TANDEM_SECRET_KEY is required: 32 random bytes as hex or base64')
  }
  return {
    secretKey: parseSecretKey(env.TANDEM_SECRET_KEY),
    previousSecretKeys: (env.TANDEM_PREVIOUS_SECRET_KEYS ?? '')
      .split(',')
      .filter((text) => text.trim())
      .map((text) => parseSecretKey(text, 'Each of TANDEM_PREVIOUS_SECRET_KEYS')),
  }
}

function modeOf(env: Env): ServerMode {
  const mode = env.TANDEM_MODE || 'sandbox'
  if (mode !== 'sandbox' && mode !== 'production') {
    throw new Error(`TANDEM_MODE must be "sandbox" or "production", not "${mode}"`)
  }
  return mode
}

/** What production lacks or must not have, each naming its setting. */
function productionProblems(env: Env): string[] {
  const problems: string[] = []
  const need = (name: string, why: string) => {
    if (!env[name]?.trim()) problems.push(`${name} is missing: ${why}`)
  }
  need('DATABASE_URL', 'production keeps its data in PostgreSQL (postgres://user:password@host/db)')
  if (env.DATABASE_URL && !/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
    problems.push('DATABASE_URL must be a PostgreSQL URL (postgres://…)')
  }
  need('TANDEM_SECRET_KEY', 'it seals client secrets and tokens (32 random bytes as hex or base64)')
  need('STRIPE_SECRET_KEY', "the platform's Stripe secret key moves the brands' money")
  if (env.STRIPE_SECRET_KEY && !/^(sk|rk)_(live|test)_/.test(env.STRIPE_SECRET_KEY)) {
    problems.push(
      'STRIPE_SECRET_KEY is not a Stripe secret key (sk_live_…, or sk_test_… to deploy in test mode)',
    )
  }
  need('TANDEM_FIREBASE_PROJECT_ID', "the Firebase project whose administrators' sign-ins count")
  if (env.TANDEM_FIREBASE_PROJECT_ID?.startsWith('demo-')) {
    problems.push('TANDEM_FIREBASE_PROJECT_ID names a demo project, which only the emulator has')
  }
  // Checking a sign-in reads the Firebase user (its claims, whether it was revoked): that takes a
  // service account's key outside Google Cloud (on it, the platform's own credentials serve, so
  // main.ts only warns when none is given). One that is named must be there now, not at the first
  // sign-in.
  const credentials = env.GOOGLE_APPLICATION_CREDENTIALS
  if (credentials && !isReadableFile(credentials)) {
    problems.push(`GOOGLE_APPLICATION_CREDENTIALS names no readable file: ${credentials}`)
  }
  need('TANDEM_PUBLIC_URL', 'Shopify sends merchants and webhooks to it')
  if (env.TANDEM_PUBLIC_URL && !/^https:\/\/[^/]+/.test(env.TANDEM_PUBLIC_URL)) {
    problems.push('TANDEM_PUBLIC_URL must be https: Shopify sends secrets to it')
  }
  const emulators = {
    TANDEM_SHOPIFY_ENDPOINT: 'the Shopify emulator',
    TANDEM_STRIPE_ENDPOINT: 'the Stripe emulator',
    FIREBASE_AUTH_EMULATOR_HOST: 'the Firebase Auth emulator, which accepts unsigned tokens',
    TANDEM_FAILPOINTS: "the crash harness's stops",
  }
  for (const [name, what] of Object.entries(emulators)) {
    if (env[name]) problems.push(`${name} is set: it points at ${what}; unset it`)
  }
  if (env.TANDEM_TRANSFER_LEASE_MS) {
    problems.push('TANDEM_TRANSFER_LEASE_MS is set: only tests shorten the transfer lease')
  }
  if (env.TANDEM_JOB_LEASE_MS) {
    problems.push('TANDEM_JOB_LEASE_MS is set: only tests shorten the job lease')
  }
  if (env.TANDEM_JOB_RETRY_DELAY_SECONDS) {
    problems.push(
      "TANDEM_JOB_RETRY_DELAY_SECONDS is set: only tests shorten the jobs' waits before a retry",
    )
  }
  return problems
}

function isReadableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function optionalPositiveInteger(env: Env, name: string): number | undefined {
  const text = env[name]
  if (!text) return undefined
  const value = Number(text)
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a whole number of milliseconds, not "${text}"`)
  }
  return value
}

function optionalRate(env: Env, name: string): number | undefined {
  const text = env[name]
  if (!text) return undefined
  const value = Number(text)
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a number of requests a second above 0, not "${text}"`)
  }
  return value
}

function optionalUrl(env: Env, name: string): string | null {
  const text = env[name]
  if (!text) return null
  if (!/^https?:\/\/[^/]+/.test(text)) {
    throw new Error(`${name} must be an http(s) URL like http://127.0.0.1:8788, not "${text}"`)
  }
  return text.replace(/\/+$/, '')
}
