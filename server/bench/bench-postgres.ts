import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { onPostgres } from '../../scripts/lib/postgres'
import { freePort } from '../../scripts/lib/ports'

// The load test's PostgreSQL: the one named by TANDEM_BENCH_DATABASE_URL (or the tests'
// TANDEM_TEST_DATABASE_URL), else a throwaway cluster started the way .ci/run starts the tests'
// and removed at the end. Each run gets a database of its own, dropped after it.

export interface BenchPostgres {
  /** A URL of the server's maintenance database, where databases are created and dropped. */
  url: string
  /** Where it came from, for the printout. */
  origin: string
  /** The cluster's postmaster, whose CPU (its backends' with it) is measured; null when given. */
  pid: number | null
  stop(): Promise<void>
}

export async function benchPostgres(): Promise<BenchPostgres> {
  const given = process.env.TANDEM_BENCH_DATABASE_URL || process.env.TANDEM_TEST_DATABASE_URL
  if (given) return { url: given, origin: 'the given PostgreSQL', pid: null, stop: async () => {} }
  return startThrowawayCluster()
}

/** The newest PostgreSQL installed from Debian's packages (apt-get install postgresql). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
        .sort((a, b) => Number(a) - Number(b))
    : []
  const newest = versions.at(-1)
  if (!newest) {
    throw new Error(
      'The load test needs PostgreSQL: set TANDEM_BENCH_DATABASE_URL, or apt-get install postgresql',
    )
  }
  return join(root, newest, 'bin')
}

async function startThrowawayCluster(): Promise<BenchPostgres> {
  const bin = postgresBin()
  const dataDir = mkdtempSync('/tmp/tandem-bench-pg-')
  const port = await freePort()
  // PostgreSQL refuses to run as root: as root, its own user runs the cluster.
  const asPostgres = process.getuid?.() === 0 ? userIds('postgres') : null
  if (asPostgres) chownSync(dataDir, asPostgres.uid, asPostgres.gid)
  const run = (tool: string, args: string[]) =>
    execFileSync(join(bin, tool), args, {
      ...asPostgres,
      // Somewhere its user may read: not this (root's) working directory.
      cwd: dataDir,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
  const stopNow = () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', 'stop'])
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  // The cluster runs apart from this process: interrupted, the benchmark still removes it (and
  // its exit handlers stop the servers).
  const interrupted = () => {
    stopNow()
    process.exit(130)
  }
  try {
    run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'tandem'])
    const options = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`
    run('pg_ctl', ['-D', dataDir, '-w', '-l', join(dataDir, 'log'), '-o', options, 'start'])
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted)
  const version = execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' })
  const postmasterPid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
  return {
    pid: postmasterPid,
    url: `postgres://tandem@127.0.0.1:${port}/postgres`,
    origin: `a throwaway PostgreSQL ${version.match(/\d+(\.\d+)?/)?.[0] ?? ''} cluster`,
    stop: async () => {
      process.off('SIGINT', interrupted).off('SIGTERM', interrupted)
      stopNow()
    },
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }))
  return { uid: id('-u'), gid: id('-g') }
}

export interface BenchDatabase {
  url: string
  drop(): Promise<void>
}

/** A new, empty database on the server; `drop` removes it, cutting what is still connected. */
export async function freshDatabase(postgres: BenchPostgres): Promise<BenchDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`
  await onPostgres(postgres.url, (client) => client.query(`CREATE DATABASE ${name}`))
  const url = new URL(postgres.url)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    // FORCE: by then every server process has stopped; a backend still closing must not keep the
    // database (and the run's disk) around.
    drop: () =>
      onPostgres(postgres.url, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      ).then(() => {}),
  }
}
