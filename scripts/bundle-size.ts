import { readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { FIRST_SCREEN_BUDGET_GZIP_BYTES, firstScreen, gzipped } from './lib/first-screen'

// Prints what `electron-vite build` produced, and fails when the JavaScript a window must load
// before the first screen passes the budget (CI checks the same in tests/e2e/first-screen.test.ts).

const out = resolve(__dirname, '..', 'out')

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)],
  )
}

const initial = firstScreen(join(out, 'renderer'))

console.log('\nBuild output (gzip -9):')
for (const file of files(out)
  .filter((f) => /\.(js|mjs|cjs|css)$/.test(f))
  .sort()) {
  const tag = initial.files.includes(file) ? '  initial' : ''
  console.log(
    `  ${relative(out, file).padEnd(60)} ${kb(statSync(file).size).padStart(10)} ${kb(gzipped(file)).padStart(10)}${tag}`,
  )
}

console.log(
  `\nInitial renderer JS: ${kb(initial.gzipBytes)} gzip (budget ${kb(FIRST_SCREEN_BUDGET_GZIP_BYTES)}); pdf.js in it: ${initial.holdsPdfJs ? 'yes' : 'no'}`,
)
if (initial.gzipBytes > FIRST_SCREEN_BUDGET_GZIP_BYTES || initial.holdsPdfJs) {
  console.error('The initial renderer bundle is over budget.')
  process.exit(1)
}
