import { recordAudit, type AuditRecord } from '../repositories/audit-log'
import type { Db } from '../db/connect'

// The one way an administrator's change is made and audited (docs/operations.md "Who gets in"):
// the change and its audit entry commit together or not at all, so the log never names a change
// that did not happen and never misses one that did.

/** Who asked: the signed-in administrator's email (null for a token without one). */
export type Actor = string | null

/** What a change tells the audit log of itself; `details` never holds a secret. */
export type AuditNote = Omit<AuditRecord, 'actorEmail'>

export interface AuditedOutcome<T> {
  result: T
  audit: AuditNote
}

/**
 * Runs `change` in a transaction and records its audit entry in the same one. The change decides
 * what the entry says (it alone knows the state before and after); a refusal it throws rolls
 * everything back and records nothing.
 */
export async function auditedChange<T>(
  deps: { db: Db; now: () => Date },
  actor: Actor,
  change: (trx: Db) => Promise<AuditedOutcome<T>>,
): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    const { result, audit } = await change(trx)
    await recordAudit(trx, deps.now(), { actorEmail: actor, ...audit })
    return result
  })
}

/**
 * Records what an outside call (Shopify, Stripe) already did: no transaction can hold it, so the
 * entry is written after it, and a failure to write it does not undo or hide the call's outcome;
 * it goes to `onFailure` (the request's log) instead.
 */
export async function auditAfterTheFact(
  deps: { db: Db; now: () => Date },
  actor: Actor,
  audit: AuditNote,
  onFailure: (error: unknown) => void,
): Promise<void> {
  await recordAudit(deps.db, deps.now(), { actorEmail: actor, ...audit }).catch(onFailure)
}
