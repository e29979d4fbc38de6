import { existsSync } from 'node:fs'
import { readDatabaseSettings, readSecretKeys } from '../config'
import { openDatabase } from '../db/connect'
import { createSecretBox } from '../secrets'
import { rotateSecrets } from '../secrets-rotation'

// `npm run secrets:rotate`, with the server's own settings: DATABASE_URL (or TANDEM_DATA_DIR),
// TANDEM_SECRET_KEY the new key, TANDEM_PREVIOUS_SECRET_KEYS the old one(s). docs/operations.md
// gives the whole procedure: servers first learn the new key, then this runs, then the old key
// goes.

async function main(): Promise<void> {
  const { databaseUrl, sqliteFile } = readDatabaseSettings(process.env)
  if (!databaseUrl && !existsSync(sqliteFile)) {
    throw new Error(`There is no database at ${sqliteFile}: set DATABASE_URL or TANDEM_DATA_DIR`)
  }
  const { secretKey, previousSecretKeys } = readSecretKeys(process.env)
  const db = await openDatabase({ databaseUrl: databaseUrl ?? undefined, sqliteFile })
  try {
    const secrets = createSecretBox(secretKey, previousSecretKeys, { openLegacy: true })
    const result = await rotateSecrets(db, secrets)
    console.log(
      `Sealed anew under key ${result.keyId}: ${result.clientSecrets} client secret(s) and ` +
        `${result.tokens} Shopify token(s). TANDEM_PREVIOUS_SECRET_KEYS may now be emptied.`,
    )
  } finally {
    await db.destroy()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
