import type { Db } from '../db/connect'
import type { PriceShortfall } from '../domain/catalogue-check'

// The price shortfalls an administrator accepted for one creator order, with their reason: the
// one override of the catalogue checks, recorded (and audited by its caller) per order.

export async function findAcceptedShortfalls(
  db: Db,
  creatorOrderId: string,
): Promise<PriceShortfall[]> {
  const row = await db
    .selectFrom('price_exceptions')
    .select('accepted_lines')
    .where('creator_order_id', '=', creatorOrderId)
    .executeTakeFirst()
  return row ? (JSON.parse(row.accepted_lines) as PriceShortfall[]) : []
}

/** Records the order's exception; a later one replaces it (the prices it names are the new ones). */
export async function acceptShortfalls(
  db: Db,
  exception: {
    creatorOrderId: string
    shortfalls: PriceShortfall[]
    reason: string
    acceptedBy: string | null
    acceptedAt: string
  },
): Promise<void> {
  const row = {
    creator_order_id: exception.creatorOrderId,
    accepted_lines: JSON.stringify(exception.shortfalls),
    reason: exception.reason,
    accepted_by: exception.acceptedBy,
    accepted_at: exception.acceptedAt,
  }
  await db
    .insertInto('price_exceptions')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('creator_order_id').doUpdateSet({
        accepted_lines: row.accepted_lines,
        reason: row.reason,
        accepted_by: row.accepted_by,
        accepted_at: row.accepted_at,
      }),
    )
    .execute()
}
