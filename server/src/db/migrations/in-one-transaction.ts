import type { Kysely } from 'kysely'

// What the migrations share.

/**
 * Runs a migration in one transaction on SQLite too (Kysely runs SQLite's migrations outside one):
 * a crash half-way through must leave the database as it was, not half migrated.
 */
export const inOneTransaction = (
  db: Kysely<unknown>,
  run: (trx: Kysely<unknown>) => Promise<void>,
) => (db.isTransaction ? run(db) : db.transaction().execute(run))
