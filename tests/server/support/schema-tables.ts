import { sql } from 'kysely'
import type { Db } from '../../../server/src/db/connect'
import { usesPostgres } from './server-under-test'

// The live schema as the database describes it (not as schema.ts says it): every table the
// migrations made, with its columns and their types. On PostgreSQL, the test's own schema only.

export interface SchemaTable {
  name: string
  columns: { name: string; dataType: string }[]
}

export async function schemaTables(db: Db): Promise<SchemaTable[]> {
  const tables = usesPostgres()
    ? await ownPostgresTables(db)
    : (await db.introspection.getTables())
        .filter((table) => !table.isView)
        .map((table) => ({
          name: table.name,
          columns: table.columns.map(({ name, dataType }) => ({ name, dataType })),
        }))
  return tables.sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * The tables of the test's own schema, read from the catalog by it alone. Kysely's introspection
 * reads every schema's tables and resolves each by name, which fails ("schema … does not exist")
 * when another test file drops its schema meanwhile, as a CI run showed. The Migrator's own
 * tables (its default names) are left out, as Kysely's introspection leaves them out on SQLite.
 */
async function ownPostgresTables(db: Db): Promise<SchemaTable[]> {
  const { rows } = await sql<{ table: string; column: string; type: string }>`
    select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute a on a.attrelid = c.oid
    where n.nspname = current_schema() and c.relkind in ('r', 'p')
      and c.relname not in ('kysely_migration', 'kysely_migration_lock')
      and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`.execute(db)
  const tables = new Map<string, SchemaTable>()
  for (const row of rows) {
    const table = tables.get(row.table) ?? { name: row.table, columns: [] }
    table.columns.push({ name: row.column, dataType: row.type })
    tables.set(row.table, table)
  }
  return [...tables.values()]
}

/** Whether the column holds text (and so could hold a shop's domain): SQLite's and PostgreSQL's names. */
export const holdsText = (dataType: string) => /text|char/i.test(dataType)
