import { execFile, execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './ports'

// A throwaway PostgreSQL cluster, started the way .ci/run starts the tests': from Debian's
// packages, on 127.0.0.1 and a free port, user tandem without a password. Its owner may stop and
// start it again (the database-away tests do); `remove` stops it and deletes its files.

const run = promisify(execFile)

export interface PostgresCluster {
  /** A URL of its maintenance database, `postgres`. */
  url: string
  /** PostgreSQL's version, as `postgres --version` gives it: "15.18". */
  version: string
  /** The postmaster's process id, while it runs. */
  postmasterPid(): number
  start(): Promise<void>
  /** `pg_ctl stop -m fast`: the clients' connections are cut. */
  stop(): Promise<void>
  remove(): Promise<void>
}

/** `missing` is what to say when PostgreSQL is not installed. */
export async function startPostgresCluster(missing: string): Promise<PostgresCluster> {
  const bin = postgresBin(missing)
  const dataDir = mkdtempSync('/tmp/tandem-pg-')
  // PostgreSQL refuses to run as root: as root, its own user runs the cluster.
  const asPostgres = process.getuid?.() === 0 ? userIds('postgres') : null
  if (asPostgres) chownSync(dataDir, asPostgres.uid, asPostgres.gid)
  // Somewhere its user may read: not this (root's) working directory.
  const pg = (tool: string, args: string[]) =>
    run(join(bin, tool), args, { ...asPostgres, cwd: dataDir })
  const port = await freePort()
  const options = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`
  const start = async () => {
    await pg('pg_ctl', ['-D', dataDir, '-w', '-l', join(dataDir, 'log'), '-o', options, 'start'])
  }
  const stop = async () => {
    await pg('pg_ctl', ['-D', dataDir, '-w', '-m', 'fast', 'stop'])
  }
  const running = () => existsSync(join(dataDir, 'postmaster.pid'))
  try {
    await pg('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'tandem'])
    await start()
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  const { stdout } = await pg('postgres', ['--version'])
  return {
    url: `postgres://tandem@127.0.0.1:${port}/postgres`,
    version: stdout.match(/\d+(\.\d+)?/)?.[0] ?? '',
    postmasterPid: () =>
      Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    start,
    stop,
    async remove() {
      try {
        if (running()) await stop()
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    },
  }
}

/** The newest PostgreSQL installed from Debian's packages (apt-get install postgresql). */
function postgresBin(missing: string): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
        .sort((a, b) => Number(a) - Number(b))
    : []
  const newest = versions.at(-1)
  if (!newest) throw new Error(missing)
  return join(root, newest, 'bin')
}

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }))
  return { uid: id('-u'), gid: id('-g') }
}
