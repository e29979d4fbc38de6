import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

// The e2e project's global setup: the end-to-end tests drive the built console (`out/`), so a run
// that selects one of them builds it first. Runs of other projects alone (a server or renderer
// file) never build, which took 15 s of every `npm test -- <file>`.
const root = resolve(import.meta.dirname, '../..')

export default function buildApp() {
  const electronVite = resolve(root, 'node_modules/electron-vite/bin/electron-vite.js')
  execFileSync(process.execPath, [electronVite, 'build'], { cwd: root, stdio: 'inherit' })
}
