import { expect, it } from 'vitest'
import { runShortForm } from './support/run-bench'

// `npm run bench:pipeline -- --short` (docs/benchmarks.md, "Pipeline benchmark"): a few paid
// orders transfer themselves through two server processes, then again with one of them killed
// half way; none lost or made twice. The ratios to the floor are printed, not judged.

const TIMEOUT_MS = 240_000

it(
  'runs in its short form, with and without a process killed, losing and doubling nothing',
  async () => {
    const run = await runShortForm('bench:pipeline', TIMEOUT_MS)
    expect(run.code, run.output).toBe(0)
    const out = run.output
    expect(out).toMatch(/ratio to the floor +[\d.]+ \(aim ≤ 1.1, not judged in the short form\)/)
    expect(out).toMatch(/ratio to the floor +[\d.]+ \(aim ≤ 1.25, not judged in the short form\)/)
    expect(out).toMatch(/floor: what the orders need +[\d.]+ s/)
    expect(out.match(/orders transferred +30 of 30/g)).toHaveLength(2)
    expect(out.match(/duplicated or mismatched +none/g)).toHaveLength(2)
    expect(out).toMatch(/process killed at +[\d.]+ s \(half transferred\)/)
    expect(out).not.toContain('PIPELINE FAILED')
    expect(run.leftBehind).toEqual([])
  },
  TIMEOUT_MS + 10_000,
)
