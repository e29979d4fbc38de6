import type { Db } from '../db/connect'

// The orders an administrator released for transfer despite what Shopify found of fraud on them
// (transfers/fraud-check.ts), each with those findings and the reason, recorded (and audited by
// its caller) per order.

/** What Shopify had found when the order was released; null when it never was. */
export async function findReleasedFindings(
  db: Db,
  creatorOrderId: string,
): Promise<string[] | null> {
  const row = await db
    .selectFrom('fraud_releases')
    .select('findings')
    .where('creator_order_id', '=', creatorOrderId)
    .executeTakeFirst()
  return row ? (JSON.parse(row.findings) as string[]) : null
}

/** Records the order's release; a later one replaces it (it covers what Shopify found since). */
export async function recordFraudRelease(
  db: Db,
  release: {
    creatorOrderId: string
    findings: string[]
    reason: string
    releasedBy: string | null
    releasedAt: string
  },
): Promise<void> {
  const row = {
    creator_order_id: release.creatorOrderId,
    findings: JSON.stringify(release.findings),
    reason: release.reason,
    released_by: release.releasedBy,
    released_at: release.releasedAt,
  }
  await db
    .insertInto('fraud_releases')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('creator_order_id').doUpdateSet({
        findings: row.findings,
        reason: row.reason,
        released_by: row.released_by,
        released_at: row.released_at,
      }),
    )
    .execute()
}
