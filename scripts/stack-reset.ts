import { rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { stackDataDir } from './lib/paths'

// `npm run stack:reset`: forget the local stack's data (database, emulator state, settings, downloads).
const dataDir = stackDataDir(resolve(__dirname, '..'))
rmSync(dataDir, { recursive: true, force: true })
console.log(`Removed ${dataDir}`)
