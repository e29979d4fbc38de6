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
  const db = new Kysely<Database>({ dialect: await dialectFor(options) })
  await migrateToLatest(db as Kysely<unknown>, options.schema)
  return db
}

async function dialectFor(options: { databaseUrl?: string; sqliteFile?: string }) {
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
  const database = new Sqlite(file)
  // WAL lets readers go on while a transfer writes; foreign keys are off in SQLite by default.
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  return new ImmediateSqliteDialect({ database })
}

/**
 * SQLite transactions that take the write lock when they begin. A deferred one that reads first
 * and writes later fails at once with SQLITE_BUSY when another process wrote meanwhile (several
 * server processes may share the file); one that begins immediate waits its turn instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig

  constructor(config: SqliteDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'))
      }
    })(this.#config)
  }
}
