import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

// What a window must load before it shows the first screen (the sign-in page): index.html's module
// script and the chunks it preloads. `npm run build` prints it (scripts/bundle-size.ts) and the
// e2e project's first-screen test holds it to the budget on the build the e2e tests run.

export const FIRST_SCREEN_BUDGET_GZIP_BYTES = 150 * 1024

export interface FirstScreen {
  /** Absolute paths of the JavaScript files index.html loads at once. */
  files: string[]
  gzipBytes: number
  /** pdf.js (1.6 MB with its worker) belongs to the receipt viewer alone. */
  holdsPdfJs: boolean
}

export const gzipped = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length

/** Reads `out/renderer` as `electron-vite build` left it. */
export function firstScreen(rendererDir: string): FirstScreen {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8')
  const files = [
    ...new Set(
      [
        ...html.matchAll(
          /<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g,
        ),
      ].map((match) => join(rendererDir, match[1]!.replace(/^\.?\//, ''))),
    ),
  ]
  return {
    files,
    gzipBytes: files.reduce((sum, file) => sum + gzipped(file), 0),
    holdsPdfJs: files.some((file) => readFileSync(file, 'utf8').includes('pdfjs-dist')),
  }
}
