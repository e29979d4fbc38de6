import { expect, it } from 'vitest'
import { runShortForm } from './support/run-bench'

// `npm run bench:transfer -- --short`: the 20-brand order processed with 100 ms per remote call,
// beside the least time its calls allow, derived from the calls it made (the chain printed), and
// no read made twice.
it('processes the 20-brand order beside the floor its own calls set, and reads nothing twice', async () => {
  const run = await runShortForm('bench:transfer', 150_000)
  expect(run.output).toContain('Processing a 20-brand order, 100 ms per remote call')
  expect(run.output).toMatch(/calls processing made: \d+ \(.*20 OrderCreate.*20 transfers\.create/)
  expect(run.output).toMatch(/the longest chain of calls each needing the one before: \d+ calls/)
  expect(run.output).toMatch(/shopify +OrderCreate +bench-brand-\d+\.myshopify\.com/)
  expect(run.output).toMatch(
    /processed in [\d.]+ s; least the calls allow [\d.]+ s; ratio [\d.]+ \(aim ≤ 1\.25; short form: not judged\)/,
  )
  expect(run.output).toContain('repeated reads: none')
  expect(run.leftBehind).toEqual([])
  expect(run.code, run.output).toBe(0)
})
