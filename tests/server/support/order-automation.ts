import type { Db } from '../../../server/src/db/connect'

// Where sandbox orders' automatic processing stands, written as its job would have left it, for
// tests of what the inbox shows (the sandbox's orders were paid before the automatic policy).

export const IRONPEAK_REASON =
  'Commission not found: ironpeak outdoor has no default commission: set it on its store page'

type State = 'WAITING' | 'NEEDS_ATTENTION' | 'NOTHING_TO_TRANSFER'

/**
 * Each order in its state: waiting ten minutes more, needing attention for Ironpeak's missing
 * default commission, or with no brand order to make.
 */
export async function recordAutomation(db: Db, orders: Record<string, State>): Promise<void> {
  const now = new Date()
  await db
    .insertInto('order_automation')
    .values(
      Object.entries(orders).map(([id, state]) => ({
        creator_order_id: id,
        store_shop: 'maya-makes.myshopify.com',
        created_at: now.toISOString(),
        paid_at: now.toISOString(),
        state,
        due_at: state === 'WAITING' ? new Date(now.getTime() + 10 * 60_000).toISOString() : null,
        message: state === 'NOTHING_TO_TRANSFER' ? 'No brand orders found' : null,
        generation: 1,
        updated_at: now.toISOString(),
      })),
    )
    .execute()
  const needing = Object.keys(orders).filter((id) => orders[id] === 'NEEDS_ATTENTION')
  if (needing.length === 0) return
  await db
    .insertInto('order_attention')
    .values(
      needing.map((id) => ({
        creator_order_id: id,
        position: 0,
        brand_store_shop: 'ironpeak-outdoor.myshopify.com',
        kind: 'noDefaultCommission',
        sentence: IRONPEAK_REASON,
      })),
    )
    .execute()
}
