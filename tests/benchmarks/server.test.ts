import { expect, it } from 'vitest'
import { runShortForm } from './support/run-bench'

// `npm run bench:server -- --short` (docs/benchmarks.md, "Server benchmark"): the benchmark still
// runs end to end and still checks what it checks (no 5xx, no order or payment made twice, the
// orders transferred as recorded), and prints each figure beside the baseline or floor it is read
// against; the figures themselves are not judged in the short form.

const TIMEOUT_MS = 240_000

it(
  'runs in its short form, prints its figures beside their baselines, and leaves nothing running',
  async () => {
    const run = await runShortForm('bench:server', TIMEOUT_MS)
    expect(run.code, run.output).toBe(0)
    const out = run.output
    // The single process: the store list beside its ceiling; its memory beside its aims.
    expect(out).toMatch(/GET \/admin-all-stores +[\d,]+ req\/s, p99 \d+ ms +ceiling [\d,]+ req\/s/)
    expect(out).toMatch(
      /server RSS +\d+ MB after the runs +\d+ MB idle +aim ≤ 200 \/ 120 MB, not judged in the short form/,
    )
    // The load test: the limits it is held to, and its throughput beside the floor they set.
    expect(out).toContain("held to Stripe's live limits (100/s, 25/s per endpoint)")
    expect(out).toMatch(
      /orders processed a second +[\d.]+ of a floor of [\d.]+ +[\d.]+ of a floor of [\d.]+/,
    )
    expect(out).toMatch(/ratio to the floor +[\d.]+ \(aim ≥ 0.8, not judged in the short form\)/)
    expect(out).toMatch(/Stripe, \d+ requests an order at 100\/s/)
    // Every endpoint an order asks of is a limit of its own: the brands' account reads among them.
    expect(out).toMatch(/Stripe accounts\.retrieve, [\d.]+ an order at 25\/s/)
    expect(out).toMatch(/reads p99 +\d+ ms \(aim < 300 ms, not judged in the short form\)/)
    // The order processed as the mix processes each: its three calls at once.
    expect(out).toMatch(/POST \/admin-create-order-transfer, 3 at once +× 1 +\d+ Stripe requests/)
    // Its checks, in both runs.
    expect(out).toMatch(/5xx +none +none/)
    expect(out).toMatch(/exactly-once breaches +none +none/)
    // The order processed alone before each run at least: the checks had a transfer to check.
    expect(out).toMatch(/transfers completed \(partial\) +[1-9][\d,]* \(0\) of 100 orders +[1-9]/)
    expect(out).not.toContain('LOAD TEST FAILED')
    expect(run.leftBehind).toEqual([])
  },
  TIMEOUT_MS + 10_000,
)
