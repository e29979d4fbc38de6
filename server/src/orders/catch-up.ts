import type { CommercePort } from '../adapters/commerce/commerce-port'
import type { Db } from '../db/connect'
import { indexCreatorOrder } from '../repositories/creator-orders'

// The orders inbox lists what the creator-order index holds. Webhooks keep it current while the
// server runs; this reads every creator shop's paid orders once at start, so that orders paid
// while no server was listening (or before a shop was connected) are listed too.

export async function catchUpCreatorOrders(
  deps: { db: Db; commerce: CommercePort },
  log: (message: string) => void,
): Promise<void> {
  const creators = await deps.db
    .selectFrom('stores')
    .innerJoin('app_configs', 'app_configs.shop', 'stores.shop')
    .select('stores.shop')
    .where('stores.shop_type', '=', 'CREATOR')
    .execute()
  // One shop after another: each reads within its own rate limit, and a failing shop (not
  // connected, uninstalled) does not keep the others out of the inbox.
  for (const { shop } of creators) {
    try {
      await deps.commerce.readPaidOrders(shop, async (orders) => {
        for (const order of orders) await indexCreatorOrder(deps.db, order)
      })
    } catch (error) {
      log(`Orders of ${shop} not caught up: ${error instanceof Error ? error.message : error}`)
    }
  }
}
