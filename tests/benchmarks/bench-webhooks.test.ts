import { expect, it } from 'vitest'
import { runShortForm } from './support/run-bench'

// `npm run bench:webhooks -- --short`: unsigned bodies at once at a server process of its own per
// case; every one must be refused, and the server's memory is printed beside where it started.
it('refuses every unsigned body, printing the server memory before and at its peak', async () => {
  const run = await runShortForm('bench:webhooks', 150_000)
  expect(run.output).toContain(
    '40 webhook bodies at once, none signed (resident set of the server)',
  )
  for (const scenario of [
    '9.9 MB, no Shopify headers',
    '9.9 MB, a configured shop, a forged signature',
    '3.9 MB, a configured shop, a forged signature',
    '3.9 MB chunked, a configured shop, a forged signature',
  ]) {
    expect(run.output).toMatch(
      new RegExp(
        `${scenario} +\\d+ MB → peak +\\d+ MB +(\\d+ × (401|413|503|reset)(, )?)+ in [\\d.]+ s`,
      ),
    )
  }
  expect(run.output).toContain('Every unsigned body was refused.')
  expect(run.leftBehind).toEqual([])
  expect(run.code, run.output).toBe(0)
})
