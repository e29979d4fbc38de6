import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A service account key's stand-in: production checks the file is there; nothing signs in. */
const credentialsFile = join(mkdtempSync(join(tmpdir(), 'tandem-credentials-')), 'key.json')
writeFileSync(credentialsFile, JSON.stringify({ type: 'service_account' }))

/** Everything production mode needs, and nothing it refuses; DATABASE_URL names no real server. */
export const PRODUCTION_ENV = {
  TANDEM_MODE: 'production',
  DATABASE_URL: 'postgres://tandem:password@db.internal:5432/tandem',
  TANDEM_SECRET_KEY: randomBytes(32).toString('hex'),
  STRIPE_SECRET_KEY: 'sk_live_51NzTandemPlatformKey',
  TANDEM_FIREBASE_PROJECT_ID: 'tandem-marketplace',
  GOOGLE_APPLICATION_CREDENTIALS: credentialsFile,
  TANDEM_PUBLIC_URL: 'https://api.tandem.example',
}
