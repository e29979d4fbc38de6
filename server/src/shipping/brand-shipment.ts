import type { OrderShipping } from '../adapters/commerce/shipping-port'
import { underLeaseInTurn } from '../db/lease'
import type { RouteDeps } from '../deps'
import { withDeadline } from '../lib/remote-call'
import type { FrozenLine } from '../transfers/transfer-repository'
import { transferTiming } from '../transfers/transfer-timing'
import { mirrorFulfillment, type MadeOrder } from './fulfillment-mirror'
import { findBrandOrderMade, type BrandShipmentJob } from './shipping-jobs'

// One brand order Tandem made, read from the brand's Shopify after each piece of its news (and by
// the catch-up), never taken from the news: deliveries twice or out of order read the same state.
// The reading is kept for the Shipping screen, and each fulfillment the brand made is mirrored on
// the creator's order (fulfillment-mirror.ts). Runs of one brand order take turns under a lease,
// so that a fulfillment delivered twice at once is mirrored by one run, then found done by the
// other.

type Deps = Pick<RouteDeps, 'db' | 'commerce' | 'now' | 'transferTiming'>

const LEASE_POLL_MS = 250

/**
 * The fulfillment orders' status the Shipping screen shows for a brand order: the one that most
 * needs a person's eye when the order has several.
 */
const BUSIEST_FIRST = [
  'ON_HOLD',
  'INCOMPLETE',
  'IN_PROGRESS',
  'OPEN',
  'SCHEDULED',
  'CLOSED',
  'CANCELLED',
]

export function shownStatus(reading: OrderShipping): string | null {
  const statuses = reading.fulfillmentOrders.map((fulfillmentOrder) => fulfillmentOrder.status)
  return BUSIEST_FIRST.find((status) => statuses.includes(status)) ?? statuses[0] ?? null
}

/**
 * Nothing left to ship: every fulfillment order closed or cancelled, none out of Tandem's sight,
 * or the order cancelled.
 */
const doneShipping = (reading: OrderShipping) =>
  reading.cancelledAt !== null ||
  (!reading.unseen &&
    reading.fulfillmentOrders.length > 0 &&
    reading.fulfillmentOrders.every((fulfillmentOrder) =>
      ['CLOSED', 'CANCELLED'].includes(fulfillmentOrder.status),
    ))

/** The job: the brand order read, kept, and each of its fulfillments mirrored. */
export async function followShipment(deps: Deps, job: BrandShipmentJob): Promise<void> {
  const timing = transferTiming(deps.transferTiming)
  const lease = { ttlMs: timing.leaseMs, pollMs: LEASE_POLL_MS, now: deps.now }
  await underLeaseInTurn(deps.db, `shipment:${job.brandOrderId}`, lease, async () => {
    const made = await findBrandOrderMade(deps.db, job.brandStoreShop, job.brandOrderId)
    if (!made) return
    const reading = await withDeadline(timing.remoteTimeoutMs, () =>
      deps.commerce.readOrderShipping(made.brandStoreShop, job.brandOrderId),
    )
    // Shopify keeps every order it took payment for: one gone is none to follow.
    if (!reading) return
    const order: MadeOrder = {
      ...made,
      brandOrderId: job.brandOrderId,
      lines: JSON.parse(made.lines) as FrozenLine[],
    }
    // Each fulfillment on its own: one that fails (Shopify away) keeps none of the others back.
    const failures: unknown[] = []
    for (const fulfillment of reading.fulfillments) {
      if (fulfillment.status !== 'SUCCESS') continue
      await mirrorFulfillment(deps, order, fulfillment).catch((error: unknown) => {
        failures.push(error)
      })
    }
    // Kept once the creator's order follows it, or failed to: a reading's time says the run is
    // over, and the catch-up reads it again an hour later at the earliest.
    await keepReading(deps, order, reading)
    // The job is retried for what failed; what was done is found done then.
    if (failures.length > 0) throw failures[0]
  })
}

/** The reading kept for the screen; when the order first had nothing left to ship is kept too. */
async function keepReading(deps: Deps, order: MadeOrder, reading: OrderShipping) {
  const now = deps.now().toISOString()
  const shippedAt = doneShipping(reading) ? now : null
  const row = {
    brand_order_id: order.brandOrderId,
    brand_store_shop: order.brandStoreShop,
    creator_order_id: order.creatorOrderId,
    reading: JSON.stringify(reading),
    read_at: now,
    fulfillment_order_status: shownStatus(reading),
    shipped_at: shippedAt,
  }
  await deps.db
    .insertInto('shipments')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('brand_order_id').doUpdateSet((eb) => ({
        reading: row.reading,
        read_at: row.read_at,
        fulfillment_order_status: row.fulfillment_order_status,
        // The first time it was done: a later reading does not make it later.
        shipped_at:
          shippedAt === null ? null : eb.fn.coalesce('shipments.shipped_at', eb.val(shippedAt)),
      })),
    )
    .execute()
}
