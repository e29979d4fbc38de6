import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { startPostgresCluster, type PostgresCluster } from '../../../scripts/lib/postgres-cluster'

// A PostgreSQL cluster of one test file's own, which it may stop, start and freeze as a failover
// or a stalled host would, without touching the cluster the rest of the suite shares.

export interface OwnPostgres extends Pick<PostgresCluster, 'url' | 'stop' | 'start'> {
  /** SIGSTOP to the postmaster, then to every process it started: the host frozen. */
  pause(): void
  /** SIGCONT to them all, the postmaster last. */
  resume(): void
}

/** A cluster started before the file's tests and removed after them. */
export function ownPostgres(): { current(): OwnPostgres } {
  let cluster: PostgresCluster | undefined
  beforeAll(async () => {
    cluster = await startPostgresCluster(
      'The database-away tests start a PostgreSQL of their own: apt-get install postgresql',
    )
  }, 60_000)
  afterAll(() => cluster?.remove(), 30_000)
  return {
    current() {
      if (!cluster) throw new Error('The cluster is started in beforeAll')
      const { url, stop, start, postmasterPid } = cluster
      return {
        url,
        stop,
        start,
        pause() {
          const postmaster = postmasterPid()
          // The postmaster first, so that it starts no process once its children are listed.
          process.kill(postmaster, 'SIGSTOP')
          for (const child of childrenOf(postmaster)) process.kill(child, 'SIGSTOP')
        },
        resume() {
          const postmaster = postmasterPid()
          for (const child of childrenOf(postmaster)) process.kill(child, 'SIGCONT')
          process.kill(postmaster, 'SIGCONT')
        },
      }
    },
  }
}

/** The processes whose parent is `pid`, read from /proc (stat's 4th field, after the name). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid
      } catch {
        // Gone since listed.
        return false
      }
    })
    .map(Number)
}
