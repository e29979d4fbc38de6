import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Sqlite from 'better-sqlite3'
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely'
import { migrateToLatest } from './migrations'
import type { Database } from './schema'

export type Db = Kysely<Database>

/**
 * The embedded SQLite file by default; PostgreSQL when a URL is given. Migrations run before the
 * database is handed out.
 */
export async function openDatabase(options: {
  databaseUrl?: string
  sqliteFile?: string
  /** A PostgreSQL schema of its own (the tests'); the connection's search_path must name it. */
  schema?: string
}): Promise<Db> {
  const busyWait = { ms: STARTUP_BUSY_WAIT_MS }
  const db = new Kysely<Database>({ dialect: await dialectFor(options, busyWait) })
  await migrateToLatest(db as Kysely<unknown>, options.schema)
  busyWait.ms = REQUEST_BUSY_WAIT_MS
  return db
}

/**
 * A query that found SQLite's write lock taken by another process longer than a request should
 * wait: the caller is asked to try again (503 with Retry-After), rather than held.
 */
export class DatabaseBusyError extends Error {
  constructor() {
    super('The database is busy with another server process: try again in a moment')
    this.name = 'DatabaseBusyError'
  }
}

/** How long a query waits for another process's write lock: a request's, and a start's. */
const REQUEST_BUSY_WAIT_MS = 1_000
const STARTUP_BUSY_WAIT_MS = 30_000

async function dialectFor(
  options: { databaseUrl?: string; sqliteFile?: string },
  busyWait: { ms: number },
) {
  if (options.databaseUrl) {
    // Loaded only when used: the embedded default never pays for the PostgreSQL driver's memory.
    const { default: pg } = await import('pg')
    // PostgreSQL answers bigint as a string; every bigint here is a safe integer (money, rates).
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))
    return new PostgresDialect({
      pool: new pg.Pool({ connectionString: options.databaseUrl, max: 10 }),
    })
  }
  const file = options.sqliteFile ?? ':memory:'
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  // better-sqlite3's own busy timeout waits by blocking the event loop: every request (the health
  // check too) would stall behind another process's write. It is given only to the set-up below,
  // before any request; afterwards waits are asynchronous (waitingWhileBusy).
  const database = new Sqlite(file, { timeout: STARTUP_BUSY_WAIT_MS })
  // WAL lets readers go on while a transfer writes; foreign keys are off in SQLite by default.
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 0')
  return new ImmediateSqliteDialect({ database }, busyWait)
}

/**
 * SQLite transactions that take the write lock when they begin. A deferred one that reads first
 * and writes later fails at once with SQLITE_BUSY when another process wrote meanwhile (several
 * server processes may share the file); one that begins immediate waits its turn instead. A query
 * that finds the lock taken is tried again after short pauses, without blocking the event loop;
 * once the wait allowed has passed since it asked for the connection, it fails with
 * DatabaseBusyError, so that queries queued behind it give up with it rather than wait in turn.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig & { database: Sqlite.Database }
  readonly #busyWait: { ms: number }

  constructor(
    config: SqliteDialectConfig & { database: Sqlite.Database },
    busyWait: { ms: number },
  ) {
    super(config)
    this.#config = config
    this.#busyWait = busyWait
  }

  override createDriver(): Driver {
    const { database } = this.#config
    const busyWait = this.#busyWait
    return new (class extends SqliteDriver {
      override async acquireConnection(): Promise<DatabaseConnection> {
        const giveUpAt = performance.now() + busyWait.ms
        const connection = await super.acquireConnection()
        return waitingWhileBusy(connection, database, giveUpAt)
      }

      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'))
      }
    })(this.#config)
  }
}

/**
 * The connection, its queries tried again while SQLite answers SQLITE_BUSY. A statement that
 * failed busy did nothing, so trying it again is safe: outside a transaction (BEGIN itself), or
 * inside one that is still open (COMMIT). A transaction SQLite rolled back on its own is not
 * gone on with: the error goes to the caller, whose transaction then fails as a whole.
 */
function waitingWhileBusy(
  connection: DatabaseConnection,
  database: Sqlite.Database,
  giveUpAt: number,
): DatabaseConnection {
  return {
    async executeQuery(query) {
      const inTransaction = database.inTransaction
      for (let pauseMs = 2; ; pauseMs = Math.min(pauseMs * 2, 50)) {
        try {
          return await connection.executeQuery(query)
        } catch (error) {
          const busy = String((error as { code?: string }).code).startsWith('SQLITE_BUSY')
          if (!busy || (inTransaction && !database.inTransaction)) throw error
          if (performance.now() + pauseMs > giveUpAt) throw new DatabaseBusyError()
          await new Promise((resolve) => setTimeout(resolve, pauseMs))
        }
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  }
}
