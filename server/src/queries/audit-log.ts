import type { AuditEntry } from '@shared/contract'
import type { Selectable } from 'kysely'
import type { Db } from '../db/connect'
import type { AuditLogTable } from '../db/schema'
import { readPage, type PageRequest } from '../db/keyset'

// The activity screen's list: the audit log (repositories/audit-log.ts writes it).

type AuditRow = Selectable<AuditLogTable>

/** Newest first, a page at a time. */
export async function listAuditEntries(db: Db, page: PageRequest) {
  const order = { sortedBy: 'at', id: 'id', order: 'desc' } as const
  const { rows, nextCursor } = await readPage(db.selectFrom('audit_log').selectAll(), order, page)
  return { entries: rows.map(entryOf), nextCursor }
}

const entryOf = (row: AuditRow): AuditEntry => ({
  at: row.at,
  actorEmail: row.actor_email,
  action: row.action,
  target: row.target,
  details: JSON.parse(row.details) as Record<string, unknown>,
})
