import { randomBytes } from 'node:crypto'
import type { AuditEntry } from '@shared/contract'
import type { Db } from '../db/connect'
import { pastLastRow } from '../db/keyset'
import { decodeCursor, pageOf } from '../domain/page-cursor'

// The audit log (docs/operations.md "Who gets in"): every change an administrator makes, with who,
// when, the action, its target and what changed. Callers pass only what is safe to show: a client
// secret or a token never goes in `details`.

export interface AuditRecord {
  actorEmail: string | null
  action: string
  target: string
  details: Record<string, unknown>
}

export async function recordAudit(db: Db, at: Date, record: AuditRecord): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: entryId(at),
      at: at.toISOString(),
      actor_email: record.actorEmail,
      action: record.action,
      target: record.target,
      details: JSON.stringify(record.details),
    })
    .execute()
}

/** Newest first, a page at a time. */
export async function listAuditEntries(
  db: Db,
  page: { cursor?: string; limit: number },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const after = decodeCursor(page.cursor)
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .$if(after !== null, (qb) =>
      qb.where(pastLastRow('at', 'id', { sortedBy: after![0], id: after![1] })),
    )
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
  const { rows: entries, nextCursor } = pageOf(rows, page.limit, (row) => [row.at, row.id])
  return {
    entries: entries.map((row) => ({
      at: row.at,
      actorEmail: row.actor_email,
      action: row.action,
      target: row.target,
      details: JSON.parse(row.details) as Record<string, unknown>,
    })),
    nextCursor,
  }
}

/**
 * Sorts as the entries were made: entries of one millisecond by this process's monotonic clock
 * (entries of another process in the same millisecond come in either order), made unique apart.
 */
const entryId = (at: Date) =>
  `${at.toISOString()}.${process.hrtime.bigint().toString().padStart(20, '0')}.${randomBytes(4).toString('hex')}`
