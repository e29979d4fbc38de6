import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Sqlite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
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
  return new SqliteDialect({ database })
}
