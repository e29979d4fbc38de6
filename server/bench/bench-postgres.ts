import { randomBytes } from 'node:crypto'
import { onPostgres } from '../../scripts/lib/postgres'
import { startPostgresCluster } from '../../scripts/lib/postgres-cluster'

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

async function startThrowawayCluster(): Promise<BenchPostgres> {
  const cluster = await startPostgresCluster(
    'The load test needs PostgreSQL: set TANDEM_BENCH_DATABASE_URL, or apt-get install postgresql',
  )
  // The cluster runs apart from this process: interrupted, the benchmark still removes it (and
  // its exit handlers stop the servers).
  const interrupted = () => void cluster.remove().finally(() => process.exit(130))
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted)
  return {
    pid: cluster.postmasterPid(),
    url: cluster.url,
    origin: `a throwaway PostgreSQL ${cluster.version} cluster`,
    stop: async () => {
      process.off('SIGINT', interrupted).off('SIGTERM', interrupted)
      await cluster.remove()
    },
  }
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
