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
  }
}
