import type { Db } from '../db/connect'
import { auditDetailsOf, recordAudit } from '../repositories/audit-log'

// What a creator's customer got back in Stripe beyond what the order's refunds gave back for
// units, tax and shipping (domain/refund-money.ts) is the creator's to pay (order-refunds.ts):
// Activity says so, once for each amount it reaches, before it is taken from her commission.

export const REFUND_BEYOND_UNITS_ACTION = 'transfer.refund-beyond-units'

/** Why the creator pays `amount` (the money with its currency) of creator order `id`'s refunds. */
export const beyondUnitsReason = (id: string, amount: string) =>
  `The customer of creator order ${id} was refunded ${amount} in Stripe beyond what its refunds gave back for units, tax and shipping: the creator refunded it, so she pays it from her commission on the order, and owes what that cannot carry`

/**
 * In Activity unless said already of this amount: the job runs again and again over the same
 * refunds (under the order's lease, one run at a time), and says it once.
 */
export async function recordRefundBeyondUnits(
  deps: { db: Db; now: () => Date },
  id: string,
  amount: string,
): Promise<void> {
  const said = await auditDetailsOf(deps.db, REFUND_BEYOND_UNITS_ACTION, id)
  if (said.some((details) => details.amount === amount)) return
  await recordAudit(deps.db, deps.now(), {
    actorEmail: null,
    action: REFUND_BEYOND_UNITS_ACTION,
    target: id,
    details: { party: 'CREATOR', amount, reason: beyondUnitsReason(id, amount) },
  })
}
