import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Sqlite from 'better-sqlite3'
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  PostgresDriver,
  SqliteDialect,
  SqliteDriver,
  type AbortableOperationOptions,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type SqliteDialectConfig,
} from 'kysely'
import { markedIfAway } from './database-away'
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
  /**
   * Told of an error on a PostgreSQL connection between queries (the database restarted, failed
   * over, or the connection cut): the pool drops that connection and makes a new one when next
   * asked. An error no one listens to would end the process.
   */
  onConnectionError?: (error: Error) => void
}): Promise<Db> {
  const busyWait = { ms: STARTUP_BUSY_WAIT_MS }
  const db = new Kysely<Database>({ dialect: await dialectFor(options, busyWait) })
  await migrateToLatest(db as Kysely<unknown>, options.schema)
  busyWait.ms = REQUEST_BUSY_WAIT_MS
  return db
}

/**
 * One look at the PostgreSQL at `databaseUrl`, on a connection of its own made and closed for it,
 * which fails when no answer comes within `timeoutMs`: db/database-away.ts's watch.
 */
export async function probePostgres(databaseUrl: string, timeoutMs: number): Promise<void> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  })
  // A connection cut meanwhile fails the query below, which says so.
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('select 1')
  } finally {
    // Not awaited: a frozen host never acknowledges the goodbye.
    void client.end().catch(() => {})
  }
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

/**
 * SQLite could not grow its file (SQLITE_FULL: the disk full, or a size limit): the write was
 * undone, its transaction with it, and nothing of it was saved.
 */
export class DatabaseFullError extends Error {
  constructor(cause: unknown) {
    super(
      'The server’s disk is full: nothing of this request was saved. Free some space on it, then try again',
      { cause },
    )
    this.name = 'DatabaseFullError'
  }
}

/** How long a query waits for another process's write lock: a request's, and a start's. */
const REQUEST_BUSY_WAIT_MS = 1_000
const STARTUP_BUSY_WAIT_MS = 30_000

/**
 * How long a query waits for a PostgreSQL connection: a pooled one free, or a new one made. A
 * database that is gone refuses at once; one whose host is frozen says nothing, and the request
 * is answered 503 after this rather than held.
 */
const POSTGRES_CONNECT_TIMEOUT_MS = 10_000

async function dialectFor(
  options: {
    databaseUrl?: string
    sqliteFile?: string
    onConnectionError?: (error: Error) => void
  },
  busyWait: { ms: number },
) {
  if (options.databaseUrl) {
    // Loaded only when used: the embedded default never pays for the PostgreSQL driver's memory.
    const { default: pg } = await import('pg')
    // PostgreSQL answers bigint as a string; every bigint here is a safe integer (money, rates).
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
      // A host gone in a failover sends nothing more: the kernel's probes find the connection dead.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    })
    // pg-pool listens to its idle connections' errors itself, and tells them here; one taken out of
    // the pool (a transaction's, between two queries) has no one listening but this.
    const onError = options.onConnectionError ?? (() => {})
    pool.on('error', onError)
    pool.on('connect', (client) => client.on('error', onError))
    return new AwayAwarePostgresDialect({ pool })
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
 * PostgreSQL, whose errors for a database that could not be reached (a connection refused, cut or
 * never made in time) are thrown as DatabaseAwayError, which the HTTP layer answers 503: the
 * same driver error from Shopify's or Stripe's sockets is another matter.
 */
class AwayAwarePostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig

  constructor(config: PostgresDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new (class extends PostgresDriver {
      override async acquireConnection(
        options?: AbortableOperationOptions,
      ): Promise<DatabaseConnection> {
        const connection = await super.acquireConnection(options).catch((error: unknown) => {
          throw markedIfAway(error)
        })
        return awayAware(connection)
      }
    })(this.#config)
  }
}

/**
 * The connection itself, its queries' errors marked: Kysely's driver calls methods of its own on
 * it (under symbols), which must reach the very object.
 */
const awayAware = (connection: DatabaseConnection): DatabaseConnection =>
  new Proxy(connection, {
    get(target, property) {
      if (property === 'executeQuery') {
        return (query: CompiledQuery) =>
          target.executeQuery(query).catch((error: unknown) => {
            throw markedIfAway(error)
          })
      }
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })

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

      // SQLite may roll a transaction back itself on an error (SQLITE_FULL among them): ROLLBACK
      // would then fail, and its error would stand in for the one that said why.
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (database.inTransaction) await super.rollbackTransaction(connection)
      }
    })(this.#config)
  }
}

/**
 * The connection, its queries tried again while SQLite answers SQLITE_BUSY, and SQLITE_FULL said
 * as DatabaseFullError. A statement that
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
          const code = String((error as { code?: string }).code)
          if (code === 'SQLITE_FULL') throw new DatabaseFullError(error)
          const busy = code.startsWith('SQLITE_BUSY')
          if (!busy || (inTransaction && !database.inTransaction)) throw error
          if (performance.now() + pauseMs > giveUpAt) throw new DatabaseBusyError()
          await new Promise((resolve) => setTimeout(resolve, pauseMs))
        }
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  }
}
