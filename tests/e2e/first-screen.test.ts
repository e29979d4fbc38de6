import { basename, resolve } from 'node:path'
import { expect, it } from 'vitest'
import { FIRST_SCREEN_BUDGET_GZIP_BYTES, firstScreen } from '../../scripts/lib/first-screen'

// The e2e project builds the console once (tests/support/build-app.ts); this reads that build, so
// CI holds the first screen to its budget without building again. `npm run build` prints the same
// figure with its table of every chunk, to find what grew.

it('loads at most 150 KB gzip of JavaScript, and no pdf.js, before the sign-in page shows', () => {
  const initial = firstScreen(resolve(import.meta.dirname, '../../out/renderer'))
  const kb = (initial.gzipBytes / 1024).toFixed(1)
  expect(initial.holdsPdfJs, 'pdf.js is loaded before the first screen').toBe(false)
  expect(
    initial.gzipBytes,
    `The first screen loads ${kb} KB gzip (${initial.files.map((file) => basename(file)).join(', ')}): lazy-load what the sign-in page does not show`,
  ).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_GZIP_BYTES)
})
