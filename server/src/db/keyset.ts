import { sql, type RawBuilder } from 'kysely'

/**
 * The rows after a page's last row, in a list sorted by `sortColumn` (ties broken by `idColumn`)
 * in `order`. The same SQL on SQLite and PostgreSQL, served by an index on both columns.
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
  return sql<boolean>`(${sorted} ${beyond} ${last.sortedBy} or (${sorted} = ${last.sortedBy} and ${id} ${beyond} ${last.id}))`
}
