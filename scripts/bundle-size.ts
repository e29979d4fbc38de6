import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

// Prints what `electron-vite build` produced, and fails when the JavaScript a window must load
// before the first screen (index.html's module script and its preloads) passes the budget.

const BUDGET_GZIP_BYTES = 150 * 1024
const out = resolve(__dirname, '..', 'out')
const renderer = join(out, 'renderer')

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const gzipped = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length

function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)],
  )
}

const html = readFileSync(join(renderer, 'index.html'), 'utf8')
const initial = new Set(
  [
    ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g),
  ].map((match) => join(renderer, match[1]!.replace(/^\.?\//, ''))),
)

console.log('\nBuild output (gzip -9):')
for (const file of files(out)
  .filter((f) => /\.(js|mjs|cjs|css)$/.test(f))
  .sort()) {
  const tag = initial.has(file) ? '  initial' : ''
  console.log(
    `  ${relative(out, file).padEnd(60)} ${kb(statSync(file).size).padStart(10)} ${kb(gzipped(file)).padStart(10)}${tag}`,
  )
}

const initialGzip = [...initial].reduce((sum, file) => sum + gzipped(file), 0)
const pdfjsInInitial = [...initial].some((file) =>
  readFileSync(file, 'utf8').includes('pdfjs-dist'),
)
console.log(
  `\nInitial renderer JS: ${kb(initialGzip)} gzip (budget ${kb(BUDGET_GZIP_BYTES)}); pdf.js in it: ${pdfjsInInitial ? 'yes' : 'no'}`,
)
if (initialGzip > BUDGET_GZIP_BYTES || pdfjsInInitial) {
  console.error('The initial renderer bundle is over budget.')
  process.exit(1)
}
