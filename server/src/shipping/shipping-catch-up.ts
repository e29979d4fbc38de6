import type { RouteDeps } from '../deps'
import { brandOrdersMade, sendShipmentJob } from './shipping-jobs'

// News of a shipment can be missed: sent while no server listened, or by a shop connected before
// it subscribed to the shipping topics. So each catch-up (every few minutes) reads again the
// brand orders whose shipping may still change: those never read, and those of the last 60 days
// not shipped in full or with a fulfillment the creator's order does not follow yet, each once an
// hour at most.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

const DAY_MS = 86_400_000
const FOLLOWED_FOR_MS = 60 * DAY_MS
const READ_AGAIN_AFTER_MS = 60 * 60_000
/** Brand orders read per catch-up at most: the rest wait for the next. */
const PER_CATCH_UP = 500

export async function catchUpShipments(deps: Deps): Promise<number> {
  const now = deps.now().getTime()
  const readBefore = new Date(now - READ_AGAIN_AFTER_MS).toISOString()
  const due = await brandOrdersMade(deps.db)
    .select(['b.brand_store_shop', 'b.brand_order_id'])
    .$narrowType<{ brand_order_id: string }>()
    .where('t.created_at', '>=', new Date(now - FOLLOWED_FOR_MS).toISOString())
    .where((eb) =>
      eb.or([
        eb('s.brand_order_id', 'is', null),
        eb.and([
          eb('s.read_at', '<', readBefore),
          eb.or([
            eb('s.shipped_at', 'is', null),
            eb.exists(
              eb
                .selectFrom('fulfillment_mirrors as m')
                .select('m.brand_fulfillment_id')
                .whereRef('m.brand_order_id', '=', 'b.brand_order_id')
                .where('m.state', '!=', 'MIRRORED'),
            ),
          ]),
        ]),
      ]),
    )
    // Never read first, then the longest unread: a shop failing for long keeps none back.
    .orderBy((eb) => eb.fn.coalesce('s.read_at', eb.val('')))
    .limit(PER_CATCH_UP)
    .execute()
  for (const row of due) {
    await sendShipmentJob(deps, deps.db, {
      brandStoreShop: row.brand_store_shop,
      brandOrderId: row.brand_order_id,
    })
  }
  return due.length
}
