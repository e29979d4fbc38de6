import { expect, it } from 'vitest'
import { runShortForm } from './support/run-bench'

// `npm run bench:sync -- --short`: a store read in bulk and one read page by page at Shopify's rate
// limit, through the real adapter, every product checked, each time beside the least Shopify allows.
it('syncs a store in bulk and one page by page, each beside the least time Shopify allows', async () => {
  const run = await runShortForm('bench:sync', 150_000)
  expect(run.output).toContain('Product sync at 100 points/s (bucket 2000), through the adapter')
  expect(run.output).toMatch(
    /2,001 products, one bulk operation +[\d.]+ s +\d+ points; least Shopify allows [\d.]+ s; [\d.]+× that \(short form: not judged\)/,
  )
  expect(run.output).toMatch(
    /450 products, page by page +[\d.]+ s +\d+ points; least Shopify allows [\d.]+ s; [\d.]+× that/,
  )
  expect(run.leftBehind).toEqual([])
  expect(run.code, run.output).toBe(0)
})
