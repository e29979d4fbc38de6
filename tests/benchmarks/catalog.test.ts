import { spawn } from 'node:child_process'
import { expect, it } from 'vitest'

// `bench:catalog --short` (docs/benchmarks.md "Catalog benchmark"): the benchmark still runs and
// still checks what it checks (every store follows, no process left behind) on 5 stores and 3
// products; its figures are printed beside the bare client's, not judged.

const SHORT_RUN_MS = 120_000

it(
  'runs in its short form, every store following, each figure beside the bare client’s',
  async () => {
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (resolve) => {
        const child = spawn('./npmw', ['run', 'bench:catalog', '--', '--short'], {
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let output = ''
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
        child.once('exit', (exitCode) => resolve({ code: exitCode, output }))
      },
    )
    expect(output).not.toContain('Failed:')
    expect(code).toBe(0)
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
  SHORT_RUN_MS,
)
