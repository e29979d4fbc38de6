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
  const own = usesPostgres()
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema
    : undefined
  const tables = await db.introspection.getTables()
  return tables
    .filter((table) => !table.isView && table.schema === own)
    .map((table) => ({
      name: table.name,
      columns: table.columns.map(({ name, dataType }) => ({ name, dataType })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

/** Whether the column holds text (and so could hold a shop's domain): SQLite's and PostgreSQL's names. */
export const holdsText = (dataType: string) => /text|char/i.test(dataType)
