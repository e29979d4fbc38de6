import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { runNpmScript, type CommandResult } from '../../support/npm-script'

// A benchmark's short form as CI runs it (`npm run <script> -- --short`), and what it left
// running: a benchmark that exits must take its servers with it. A server whose benchmark is
// gone is left behind; one whose benchmark still runs (another's, beside this one) is not.

/** What a benchmark's servers run: its bundles in server/dist (server/scripts/bundle.ts). */
const BUNDLES = resolve(__dirname, '../../../server/dist/bench-')
/** What a benchmark runs: `node --import tsx bench/<name>.ts` in server/. */
const BENCHMARK = 'bench/bench'

const commandOf = (pid: string) =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
const parentOf = (pid: string) =>
  readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]!

/** The processes running one of this tree's benchmark bundles with no benchmark above them. */
export function benchProcesses(): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const command = commandOf(pid)
        if (!command.includes(BUNDLES) || commandOf(parentOf(pid)).includes(BENCHMARK)) return []
        return [`${pid} ${command}`]
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
