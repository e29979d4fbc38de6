import { Refusal } from './errors'

// Lists are paged by an opaque cursor: the sort key of the last row of a page (newest first,
// ties broken by id), so that a page is the same rows however many arrive meanwhile. The lists'
// queries read it, so a cursor refused is a refusal of theirs, not an HTTP answer.

export type CursorKey = [sortedBy: string, id: string]

export const encodeCursor = (key: CursorKey): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url')

/** The key a cursor stands for; a cursor this server did not give is refused as bad input. */
export function decodeCursor(cursor: string | undefined): CursorKey | null {
  if (cursor === undefined) return null
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(key) && key.length === 2 && key.every((part) => typeof part === 'string')) {
      return key as CursorKey
    }
  } catch {
    // Falls through to the refusal.
  }
  throw badCursor()
}

/** The answer to a cursor no page of this list gave. */
export const badCursor = () =>
  new Refusal('invalid_input', 'cursor must be one a previous page answered as nextCursor')

/**
 * One page of `rows` read with one row more than `limit` (so that whether there is a next page is
 * known without counting), and the cursor of the next page.
 */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => CursorKey,
): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null,
  }
}
