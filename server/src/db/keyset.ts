import { sql, type RawBuilder } from 'kysely'

/**
 * The rows after a page's last row, in a list sorted by `sortColumn` (ties broken by `idColumn`)
 * in `order`. A row-value comparison, so that both SQLite and PostgreSQL start the scan of an
 * index on both columns at the cursor rather than filter every row before it.
 */
export function pastLastRow(
  sortColumn: string,
  idColumn: string,
  last: { sortedBy: string; id: string | number },
  order: 'asc' | 'desc' = 'desc',
): RawBuilder<boolean> {
  const sorted = sql.ref(sortColumn)
  const id = sql.ref(idColumn)
  const beyond = sql.raw(order === 'desc' ? '<' : '>')
  return sql<boolean>`(${sorted}, ${id}) ${beyond} (${last.sortedBy}, ${last.id})`
}
