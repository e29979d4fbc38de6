import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'

// `npm run stack:reset`: forget the local stack's data (database, emulator state, settings, downloads).
const dataDir = resolve(process.env.TANDEM_DATA_DIR || join(__dirname, '..', '.tandem'))
rmSync(dataDir, { recursive: true, force: true })
console.log(`Removed ${dataDir}`)
