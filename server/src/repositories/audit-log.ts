import { randomBytes } from 'node:crypto'
import type { Db } from '../db/connect'

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

/** The details of the entries of `action` about `target`, as recorded. */
export async function auditDetailsOf(
  db: Db,
  action: string,
  target: string,
): Promise<Record<string, unknown>[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select('details')
    .where('action', '=', action)
    .where('target', '=', target)
    .execute()
  return rows.map((row) => JSON.parse(row.details) as Record<string, unknown>)
}

/**
 * Sorts as the entries were made: entries of one millisecond by this process's monotonic clock
 * (entries of another process in the same millisecond come in either order), made unique apart.
 */
const entryId = (at: Date) =>
  `${at.toISOString()}.${process.hrtime.bigint().toString().padStart(20, '0')}.${randomBytes(4).toString('hex')}`
