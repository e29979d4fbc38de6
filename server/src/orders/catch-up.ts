import type { CreatorOrderHeader } from '../adapters/commerce/commerce-port'
import { underLease } from '../db/lease'
import type { RouteDeps } from '../deps'
import { indexCreatorOrder } from '../repositories/creator-orders'
import { scheduleAutomaticTransfer } from '../services/automatic-transfers'

// The orders inbox lists what the creator-order index holds. Webhooks keep it current while the
// server runs; at start this reads each creator shop's paid orders, newest first, until a page
// holds an order the index knows: the orders paid while no server was listening (or before the
// shop was connected) are listed too, at the cost of one page per shop once caught up. An order
// found so is put on the queue as its webhook would have, if the policy makes it automatic.

type Deps = Pick<RouteDeps, 'db' | 'commerce' | 'jobs' | 'now' | 'transferTiming'>

/**
 * `signal`: a stop asks it to end after the page it is indexing (the lease is then given back),
 * so that a server shutting down does not close the database under it.
 */
export async function catchUpCreatorOrders(
  deps: Deps,
  log: (message: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  try {
    // One process catches up at a time; another starting meanwhile leaves it to that one.
    const ran = await underLease(deps.db, 'creator-order-catch-up', LEASE, () =>
      catchUp(deps, log, signal),
    )
    if (!ran) log('Creator orders are being caught up by another server process')
  } catch (error) {
    log(`Creator orders not caught up: ${messageOf(error)}`)
  }
}

const LEASE = { ttlMs: 60_000, now: () => new Date() }

async function catchUp(
  deps: Deps,
  log: (message: string) => void,
  signal: AbortSignal | undefined,
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
    if (signal?.aborted) return
    await deps.commerce
      .readPaidOrders(shop, async (orders) => !signal?.aborted && indexNew(deps, orders))
      .catch((error: unknown) => log(`Orders of ${shop} not caught up: ${messageOf(error)}`))
  }
}

/**
 * Indexes a page's orders in one transaction, those it did not know put on the queue (read from
 * their own shop, as Shopify has them). Answers whether the next page may hold new ones.
 */
async function indexNew(deps: Deps, orders: CreatorOrderHeader[]): Promise<boolean> {
  if (orders.length === 0) return false
  const known = await deps.db
    .selectFrom('creator_order_index')
    .select('order_id')
    .where(
      'order_id',
      'in',
      orders.map((order) => order.id),
    )
    .where('name', 'is not', null)
    .execute()
  const knownIds = new Set(known.map((row) => Number(row.order_id)))
  await deps.db.transaction().execute(async (trx) => {
    for (const order of orders) {
      await indexCreatorOrder(trx, order)
      if (knownIds.has(order.id)) continue
      const creatorOrder = { creatorOrderId: String(order.id), storeShop: order.storeShop }
      // Paid no later than now, when Tandem learns of it: the hold is counted from here.
      const times = { createdAt: new Date(order.createdAt), paidAt: deps.now() }
      await scheduleAutomaticTransfer(deps, trx, creatorOrder, times)
    }
  })
  return known.length === 0
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
