import { expect, it } from 'vitest'
import { runShortForm } from './support/run-bench'

// `npm run bench:ui -- --short`: the stores page and the orders inbox in Chromium against the real
// server, with 100 stores and 200 orders (so the inbox has next pages to scroll to).
it('times the stores page, the store selector and the inbox pages, and the selector narrows', async () => {
  const run = await runShortForm('bench:ui', 150_000)
  for (const figure of [
    /answer → table rows painted, p50 \(2 loads\) +[\d.]+ ms +< 200 ms/,
    /keystroke → options painted, p50 \(12 keys\) +[\d.]+ ms +< 50 ms/,
    /first page answer → rows painted, p50 \(2\) +[\d.]+ ms +< 200 ms/,
    /next page answer → rows painted, p50 \(to 200\) +[\d.]+ ms +< 100 ms/,
  ]) {
    expect(run.output).toMatch(figure)
  }
  // Typing "brand 00018x" narrows to a few stores, then to none.
  expect(run.output).toMatch(/100 stores: [\d, ]+, [1-9], Not found\.\.\./)
  expect(run.output).toContain('Short form: the options are checked, the figures not judged.')
  expect(run.leftBehind).toEqual([])
  expect(run.code, run.output).toBe(0)
})
