import type { ShippingPolicy } from '@shared/contract'
import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import { auditedChange, type Actor } from '../services/audited-change'

// The marketplace's one shipping-policy row (its migration writes it, so it is always there): the
// days within which a brand order should have shipped in full before the Shipping screen calls it
// late.

const ID = 'marketplace'

export async function findShippingPolicy(db: Db): Promise<ShippingPolicy> {
  const row = await db
    .selectFrom('shipping_policy')
    .select('late_after_days')
    .where('id', '=', ID)
    .executeTakeFirstOrThrow()
  return { lateAfterDays: row.late_after_days }
}

export const setShippingPolicy = (
  deps: Pick<RouteDeps, 'db' | 'now'>,
  actor: Actor,
  after: ShippingPolicy,
): Promise<ShippingPolicy> =>
  auditedChange(deps, actor, async (trx) => {
    const before = await findShippingPolicy(trx)
    await trx
      .updateTable('shipping_policy')
      .set({ late_after_days: after.lateAfterDays })
      .where('id', '=', ID)
      .execute()
    return {
      result: after,
      audit: { action: 'shipping-policy.set', target: 'marketplace', details: { before, after } },
    }
  })
