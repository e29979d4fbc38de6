import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

// How CI runs a benchmark's short form (issue 48: no benchmark breaks unseen): its npm script with
// `--short`, as a person would type it, through ./npmw. Every process it starts carries a marker in
// its environment (Chromium and the emulators too, which leave the script's process group), so
// that what is still running after it exits is found and named, then stopped.

const root = resolve(import.meta.dirname, '../../..')
const MARKER = 'TANDEM_BENCH_RUN'

export interface BenchRun {
  /** The script's exit code; null when it was killed for running past its time. */
  code: number | null
  /** What it printed, standard output and error together, in order. */
  output: string
  /** "pid command" of each process it started that outlived it (stopped since). */
  leftBehind: string[]
}

/** Runs `npm run <script> -- --short` and answers how it ended. */
export async function runShortForm(script: string, timeoutMs: number): Promise<BenchRun> {
  const run = randomUUID()
  const child = spawn(join(root, 'npmw'), ['run', '--silent', script, '--', '--short'], {
    cwd: root,
    env: { ...process.env, [MARKER]: run },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const closed = new Promise((done) => child.once('close', done))
  const code = await new Promise<number | null>((done) =>
    child.once('exit', (exitCode) => done(exitCode)),
  )
  clearTimeout(timer)
  // Its output is whole once its pipes close; a process left behind may hold them open.
  await Promise.race([closed, new Promise((done) => setTimeout(done, 2000))])
  const leftBehind = processesOf(run)
  for (const { pid } of leftBehind) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone meanwhile
    }
  }
  return { code, output, leftBehind: leftBehind.map(({ pid, command }) => `${pid} ${command}`) }
}

/** Processes whose environment carries this run's marker (Linux's /proc). */
function processesOf(run: string): { pid: number; command: string }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const environment = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0')
        if (!environment.includes(`${MARKER}=${run}`)) return []
        const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ')
        return [{ pid: Number(name), command: command.trim().slice(0, 200) }]
      } catch {
        return [] // gone meanwhile, or not ours to read
      }
    })
}
