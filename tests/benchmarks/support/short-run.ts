import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { runNpmScript, type CommandResult } from '../../support/npm-script'

// A benchmark's short form as CI runs it (`npm run <script> -- --short`), and what it left
// running: a benchmark that exits must take its servers with it. The benchmarks' files run one at
// a time, so that one's servers are not taken for another's left behind.

/** What a benchmark's servers run: its bundles in server/dist (server/scripts/bundle.ts). */
const BUNDLES = resolve(__dirname, '../../../server/dist/bench-')

/** The processes running one of this tree's benchmark bundles. */
export function benchProcesses(): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
        return command.includes(BUNDLES) ? [`${pid} ${command}`] : []
      } catch {
        return [] // gone meanwhile
      }
    })
}

/**
 * Runs the script's short form, on the tests' PostgreSQL when one is given (a throwaway cluster
 * otherwise), and answers what it printed and the benchmark processes it left behind.
 */
export async function runShortBenchmark(
  script: string,
  timeoutMs: number,
): Promise<CommandResult & { leftBehind: string[] }> {
  const database = process.env.TANDEM_TEST_DATABASE_URL
  const run = await runNpmScript(
    script,
    ['--short'],
    database ? { TANDEM_BENCH_DATABASE_URL: database } : {},
    timeoutMs,
  )
  return { ...run, leftBehind: benchProcesses() }
}
