import { join } from 'node:path'
import { parseSecretKey } from './secrets'

// The server's settings, all from the environment, checked once at start.

interface ServerConfig {
  host: string
  port: number
  /** PostgreSQL when set; otherwise the embedded SQLite file. */
  databaseUrl: string | null
  sqliteFile: string
  secretKey: Buffer
  adminEmails: string[]
  publicUrl: string
  firebaseProjectId: string
  /** TANDEM_SHOPIFY_ENDPOINT: the Shopify emulator standing in for every shop; null for Shopify. */
  shopifyEndpoint: string | null
  /** STRIPE_SECRET_KEY: the platform's key; null leaves every payment call failing, saying so. */
  stripeSecretKey: string | null
  /** TANDEM_STRIPE_ENDPOINT: the Stripe emulator in place of api.stripe.com; null for Stripe. */
  stripeEndpoint: string | null
  /** TANDEM_TRANSFER_LEASE_MS: how soon a crashed request's transfer may be taken over. */
  transferLeaseMs: number | undefined
  /** TANDEM_FAILPOINTS: the crash harness's stops (src/transfers/failpoints.ts); never set otherwise. */
  failpoints: string | undefined
}

type Env = Record<string, string | undefined>

export function readServerConfig(env: Env): ServerConfig {
  const port = Number(env.TANDEM_API_PORT || env.PORT || 8787)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`TANDEM_API_PORT must be a port number, not "${env.TANDEM_API_PORT}"`)
  }
  if (!env.TANDEM_SECRET_KEY) {
    throw new Error('TANDEM_SECRET_KEY is required: 32 random bytes as hex or base64')
  }
  const dataDir = env.TANDEM_DATA_DIR || '.tandem'
  return {
    host: env.TANDEM_API_HOST || '127.0.0.1',
    port,
    databaseUrl: env.DATABASE_URL || null,
    sqliteFile: join(dataDir, 'tandem.sqlite'),
    secretKey: parseSecretKey(env.TANDEM_SECRET_KEY),
    adminEmails: (env.TANDEM_ADMIN_EMAILS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    publicUrl: (env.TANDEM_PUBLIC_URL || `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
    firebaseProjectId: env.TANDEM_FIREBASE_PROJECT_ID || 'demo-tandem',
    shopifyEndpoint: optionalUrl(env, 'TANDEM_SHOPIFY_ENDPOINT'),
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeEndpoint: optionalUrl(env, 'TANDEM_STRIPE_ENDPOINT'),
    transferLeaseMs: optionalPositiveInteger(env, 'TANDEM_TRANSFER_LEASE_MS'),
    failpoints: env.TANDEM_FAILPOINTS || undefined,
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

function optionalUrl(env: Env, name: string): string | null {
  const text = env[name]
  if (!text) return null
  if (!/^https?:\/\/[^/]+/.test(text)) {
    throw new Error(`${name} must be an http(s) URL like http://127.0.0.1:8788, not "${text}"`)
  }
  return text.replace(/\/+$/, '')
}
