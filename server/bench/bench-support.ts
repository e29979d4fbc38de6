import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import {
  emulatorIdToken,
  startAuthEmulator,
  upsertEmulatorUser,
} from '../../scripts/lib/auth-emulator'
import { freePort } from '../../scripts/lib/ports'

// What the server benchmarks share: the administrator they sign in as, the server compiled as it
// is deployed, and the figures' formatting.

/**
 * Node's flags and the environment the server runs with, as the container image runs it (the
 * Dockerfile's CMD and ENV: keep them alike): a young generation of at most 8 MB a semi-space,
 * where Node 24 grows it to 64 MB under load and keeps it (its new space was 134 MB of the 393 MB
 * after the benchmark); an old generation let grow 20 % past what the last full collection left
 * live, where V8 lets it grow up to fourfold under a high allocation rate (240 MB for 70 MB live
 * in the soak; after the benchmark 156–167 MB rather than 213–232 MB); and two malloc arenas
 * rather than one per thread. To profile:
 * BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
 */
export const SERVER_NODE_ARGS = [
  '--max-semi-space-size=8',
  '--heap-growing-percent=20',
  ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
]
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' }

/** The benchmarks' administrator, signed in at a Firebase Auth emulator of their own. */
export interface BenchAdmin {
  /** The emulator's URL (FIREBASE_AUTH_EMULATOR_HOST is its host). */
  emulatorUrl: string
  projectId: string
  /** An ID token carrying the `admin` claim. */
  token: string
}

/** Starts the Auth emulator, signs the administrator in, runs `work`, and stops the emulator. */
export async function withBenchAdmin<T>(work: (admin: BenchAdmin) => Promise<T>): Promise<T> {
  const workDir = mkdtempSync(join(tmpdir(), 'tandem-bench-auth-'))
  const emulator = await startAuthEmulator({ port: await freePort(), workDir })
  try {
    const admin = { email: 'bench-admin@tandem.test', password: 'bench-password', admin: true }
    await upsertEmulatorUser(emulator.url, emulator.projectId, admin)
    const token = await emulatorIdToken(emulator.url, admin.email, admin.password)
    return await work({ emulatorUrl: emulator.url, projectId: emulator.projectId, token })
  } finally {
    await emulator.stop()
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** The child's first line of output, as JSON: how a bench server says where it listens. */
export function firstLine<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', (line) => resolve(JSON.parse(line) as T))
    child.once('exit', (code) => reject(new Error(`The bench server exited with ${code}`)))
  })
}

/** A process's resident memory, from Linux's /proc. */
export function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? Number.NaN)
  return kb / 1024
}

/**
 * Seconds of CPU a process and its descendants have used so far (user and system), from Linux's
 * /proc: its own, its children's that it has reaped (a PostgreSQL backend that closed), and those
 * still running. The difference of two readings is what the tree used in between.
 */
export function cpuSeconds(pid: number): number {
  // The fields after the command's closing parenthesis, from the state on: ppid is the 2nd,
  // utime, stime, cutime and cstime the 12th to 15th.
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')
        return [
          { pid: Number(name), ppid: Number(fields[1]), ticks: fields.slice(11, 15).map(Number) },
        ]
      } catch {
        return [] // gone meanwhile
      }
    })
  const tree = (root: number): number => {
    const own = stats.find((stat) => stat.pid === root)
    if (!own) return 0
    const children = stats.filter((stat) => stat.ppid === root)
    return (
      own.ticks.reduce((sum, n) => sum + n, 0) + children.reduce((sum, c) => sum + tree(c.pid), 0)
    )
  }
  return tree(pid) / CLOCK_TICKS
}

/** Linux counts CPU time in ticks of 1/100 s on every architecture Node runs on here. */
const CLOCK_TICKS = 100

/** The machine's CPU time so far, busy and in all, from Linux's /proc/stat (in ticks). */
export function machineCpu(): { busy: number; total: number } {
  const [, ...times] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
  const ticks = times.map(Number)
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const total = ticks.slice(0, 8).reduce((sum, n) => sum + n, 0)
  return { busy: total - ticks[3]! - ticks[4]!, total }
}

/** A whole number with thousands separators: 3,995. */
export const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

/** Rows of cells, each column as wide as its widest cell (the last one left ragged). */
export function printTable(rows: string[][], indent = ''): void {
  const columns = Math.max(...rows.map((row) => row.length))
  const widths = Array.from({ length: columns - 1 }, (_, c) =>
    Math.max(...rows.map((row) => row[c]?.length ?? 0)),
  )
  for (const row of rows) {
    const line = row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ')
    console.log(indent + line.trimEnd())
  }
}
