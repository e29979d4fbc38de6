import { sql, type SelectQueryBuilder } from 'kysely'
import { PAGE_LIMIT } from '@shared/contract'
import { badCursor, decodeCursor, pageOf, type CursorKey } from '../domain/page-cursor'

// The one reader of a paged list (docs/architecture.md "Paged lists"): every list the console
// pages through is read here, by keyset, so that a page is the same rows however many arrive
// meanwhile, and a deep page costs what the first does.

/**
 * How a list is sorted: by the column `sortedBy`, ties broken by the unique column `id`, both in
 * `order`. Both are selected, so that a page's last row gives the next page's cursor.
 */
export interface Keyset {
  sortedBy: string
  id: string
  order: 'asc' | 'desc'
  /** Whether the id column is an integer: a cursor's id is then checked to be digits. */
  numericId?: boolean
}

/** Where a caller is in a list: the cursor a previous page answered, and how many rows it wants. */
export interface PageRequest {
  cursor?: string
  limit?: number
}

/**
 * One page of `query` (already filtered and selected) in the keyset's order, after the cursor's
 * row, and the next page's cursor. One row more than asked for is read, so that whether there is
 * a next page is known without counting.
 */
export async function readPage<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  keyset: Keyset,
  page: PageRequest,
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const limit = page.limit ?? PAGE_LIMIT.default
  const after = decodeCursor(page.cursor)
  // Another list's cursor may decode too: only digits go into an integer comparison.
  if (after && keyset.numericId && !/^\d{1,15}$/.test(after[1])) throw badCursor()
  const rows = await query
    .$if(after !== null, (qb) => qb.where(pastLastRow(keyset, after!)))
    .orderBy(sql.ref(keyset.sortedBy), keyset.order)
    .orderBy(sql.ref(keyset.id), keyset.order)
    .limit(limit + 1)
    .execute()
  return pageOf(rows, limit, (row) => [valueOf(row, keyset.sortedBy), valueOf(row, keyset.id)])
}

/** A row's value of a column, as text: `o.created_at` is the row's `created_at`. */
const valueOf = (row: unknown, column: string) =>
  String((row as Record<string, unknown>)[column.slice(column.lastIndexOf('.') + 1)])

/**
 * The rows after a page's last row. A row-value comparison, so that both SQLite and PostgreSQL
 * start the scan of an index on both columns at the cursor rather than filter every row before it.
 */
function pastLastRow(keyset: Keyset, [sortedBy, id]: CursorKey) {
  const beyond = sql.raw(keyset.order === 'desc' ? '<' : '>')
  const lastId = keyset.numericId ? Number(id) : id
  return sql<boolean>`(${sql.ref(keyset.sortedBy)}, ${sql.ref(keyset.id)}) ${beyond} (${sortedBy}, ${lastId})`
}
