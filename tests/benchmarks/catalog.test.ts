import { expect, it } from 'vitest'
import { runShortForm } from './support/run-bench'

// `bench:catalog --short` (docs/benchmarks.md "Catalog benchmark"): the benchmark still runs and
// still checks what it checks (every store follows, no process left behind) on 5 stores and 3
// products; its figures are printed beside the bare client's, not judged.

const SHORT_RUN_MS = 120_000

it(
  'runs in its short form, every store following, each figure beside the bare client’s',
  async () => {
    const { code, output, leftBehind } = await runShortForm('bench:catalog', SHORT_RUN_MS)
    expect(output).not.toContain('Failed:')
    expect(code, output).toBe(0)
    expect(leftBehind).toEqual([])
    expect(output).toContain('short form, figures not judged')
    expect(output).toMatch(
      /one product's price and stock change on 5 stores: Tandem [\d.]+ s, bare client [\d.]+ s: [\d.]+× \(aim ≤ 2×\)/,
    )
    expect(output).toMatch(
      /the brand's 3 products changing at once on 5 stores \(15 listings\): Tandem [\d.]+ s, bare client [\d.]+ s: [\d.]+× \(aim ≤ 2×\)/,
    )
    expect(output).toMatch(/Tandem's writes 15 productSet, 15 inventorySetQuantities; jobs sent/)
    expect(output).toMatch(/peak memory of Tandem's process \d+ MB \(aim ≤ 300 MB\)/)
  },
  SHORT_RUN_MS + 10_000,
)
