import { orderGid } from '../adapters/commerce/shopify/order-gid'
import {
  FulfillmentRefused,
  type FulfillmentInput,
  type FulfillmentReading,
  type OrderShipping,
  type Tracking,
} from '../adapters/commerce/shipping-port'
import type { RouteDeps } from '../deps'
import { withDeadline } from '../lib/remote-call'
import { transferTiming } from '../transfers/transfer-timing'

// One brand fulfillment mirrored on the creator's order, exactly once: the creator's units of the
// same products fulfilled with the brand's tracking, and the customer told by Shopify's shipping
// email; later tracking changes follow. fulfillmentCreate has no idempotency key, so the intent
// (the creator lines and units) is recorded before the call and its result after; a run finding
// the intent without its result (the process died between the two, or the answer was lost) looks
// on the creator's order for the fulfillment it made, from then, before making one.

type Deps = Pick<RouteDeps, 'db' | 'commerce' | 'now' | 'transferTiming'>

/** A brand order Tandem made, and the creator order it was made for. */
export interface MadeOrder {
  creatorOrderId: string
  creatorStoreShop: string
  brandStoreShop: string
  brandOrderId: string
}

type PlannedLines = FulfillmentInput['lines']

/** How far apart Tandem's and Shopify's clocks may be when a made fulfillment is looked for. */
const CLOCK_SKEW_MS = 5 * 60_000

/** The creator's fulfillment orders Shopify lets a fulfillment be made on. */
const FULFILLABLE = ['OPEN', 'IN_PROGRESS']

const firstTracking = (fulfillment: { tracking: Tracking[] }): Tracking | null =>
  fulfillment.tracking[0] ?? null

const sameTracking = (a: Tracking | null, b: Tracking | null) =>
  JSON.stringify(a) === JSON.stringify(b)

export async function mirrorFulfillment(
  deps: Deps,
  order: MadeOrder,
  brand: FulfillmentReading,
): Promise<void> {
  const now = deps.now().toISOString()
  await deps.db
    .insertInto('fulfillment_mirrors')
    .values({
      brand_fulfillment_id: brand.id,
      brand_order_id: order.brandOrderId,
      creator_order_id: order.creatorOrderId,
      creator_store_shop: order.creatorStoreShop,
      state: 'PENDING',
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('brand_fulfillment_id').doNothing())
    .execute()
  const mirror = await deps.db
    .selectFrom('fulfillment_mirrors')
    .selectAll()
    .where('brand_fulfillment_id', '=', brand.id)
    .executeTakeFirstOrThrow()
  const tracking = firstTracking(brand)
  if (mirror.creator_fulfillment_id) {
    const written = mirror.mirrored_tracking
      ? (JSON.parse(mirror.mirrored_tracking) as Tracking)
      : null
    if (tracking && !sameTracking(tracking, written)) {
      await followTracking(deps, order, brand.id, mirror.creator_fulfillment_id, tracking)
    }
    return
  }
  const timing = transferTiming(deps.transferTiming)
  const creator = await withDeadline(timing.remoteTimeoutMs, () =>
    deps.commerce.readOrderShipping(order.creatorStoreShop, orderGid(order.creatorOrderId)),
  )
  if (!creator) return fail(deps, brand.id, "the creator's order is no longer in its store")
  if (mirror.pending_since) {
    const planned: PlannedLines = JSON.parse(mirror.pending_lines ?? '[]')
    const made = await madeBefore(deps, creator, planned, tracking, mirror.pending_since)
    if (made) return recordMirrored(deps, brand.id, made, tracking)
  }
  const plan = await planLines(deps, order, brand, creator)
  if ('refusal' in plan) return fail(deps, brand.id, plan.refusal)

  await deps.db
    .updateTable('fulfillment_mirrors')
    .set({
      state: 'PENDING',
      message: null,
      pending_since: deps.now().toISOString(),
      pending_lines: JSON.stringify(plan.lines),
      updated_at: deps.now().toISOString(),
    })
    .where('brand_fulfillment_id', '=', brand.id)
    .execute()
  let creatorFulfillmentId: string
  try {
    creatorFulfillmentId = await withDeadline(timing.remoteTimeoutMs, (signal) =>
      deps.commerce.createFulfillment(
        order.creatorStoreShop,
        { lines: plan.lines, tracking, notifyCustomer: true },
        { signal },
      ),
    )
  } catch (error) {
    // Refused, Shopify made nothing: the intent goes, and the reason stays for a person.
    if (!(error instanceof FulfillmentRefused)) throw error
    await deps.db
      .updateTable('fulfillment_mirrors')
      .set({ pending_since: null, pending_lines: null })
      .where('brand_fulfillment_id', '=', brand.id)
      .execute()
    return fail(deps, brand.id, error.message)
  }
  await timing.failpoint('shipment:after-call')
  await recordMirrored(deps, brand.id, creatorFulfillmentId, tracking)
}

/**
 * The creator's fulfillment-order lines and units for the brand's: each brand variant's units on
 * the creator lines whose variants Tandem linked to it, as many as are left to fulfil there.
 */
async function planLines(
  deps: Deps,
  order: MadeOrder,
  brand: FulfillmentReading,
  creator: OrderShipping,
): Promise<{ lines: PlannedLines } | { refusal: string }> {
  if (creator.cancelledAt) return { refusal: "the creator's order was cancelled" }
  const creatorVariants = creator.fulfillmentOrders.flatMap((fulfillmentOrder) =>
    fulfillmentOrder.lines.flatMap((line) => (line.variantId ? [line.variantId] : [])),
  )
  const links =
    creatorVariants.length === 0
      ? []
      : await deps.db
          .selectFrom('variant_links')
          .select(['creator_variant_id', 'brand_variant_id'])
          .where('creator_store_shop', '=', order.creatorStoreShop)
          .where('brand_store_shop', '=', order.brandStoreShop)
          .where('creator_variant_id', 'in', creatorVariants)
          .execute()
  const brandVariantOf = new Map(
    links.map((link) => [link.creator_variant_id, link.brand_variant_id]),
  )
  const lines: PlannedLines = []
  const held: string[] = []
  for (const shipped of brand.lines) {
    let wanted = shipped.quantity
    for (const fulfillmentOrder of creator.fulfillmentOrders) {
      for (const line of fulfillmentOrder.lines) {
        const linked = line.variantId !== null && brandVariantOf.get(line.variantId)
        if (wanted === 0 || !linked || linked !== shipped.variantId) continue
        if (!FULFILLABLE.includes(fulfillmentOrder.status)) {
          if (fulfillmentOrder.status === 'ON_HOLD') {
            held.push(...fulfillmentOrder.holds.map((hold) => hold.reason))
          }
          continue
        }
        const quantity = Math.min(wanted, line.remainingQuantity)
        if (quantity === 0) continue
        lines.push({
          fulfillmentOrderId: fulfillmentOrder.id,
          fulfillmentOrderLineItemId: line.id,
          quantity,
        })
        wanted -= quantity
      }
    }
  }
  if (lines.length > 0) return { lines }
  if (held.length > 0) {
    return {
      refusal: `the creator's order is on hold (${[...new Set(held)].join(', ')}): release it in the creator's Shopify`,
    }
  }
  return {
    refusal:
      "the creator's order has none of these units left to fulfil: they were fulfilled or removed in the creator's store",
  }
}

/**
 * The creator fulfillment an earlier run made for these lines, if it did: made since its intent
 * (give or take the clocks' skew), of exactly the planned lines and units, with the same tracking,
 * and recorded for no other brand fulfillment.
 */
async function madeBefore(
  deps: Deps,
  creator: OrderShipping,
  planned: PlannedLines,
  tracking: Tracking | null,
  since: string,
): Promise<string | null> {
  const lineItemOf = new Map(
    creator.fulfillmentOrders.flatMap((fulfillmentOrder) =>
      fulfillmentOrder.lines.map((line) => [line.id, line.lineItemId] as const),
    ),
  )
  const wanted = planned
    .map((line) => `${lineItemOf.get(line.fulfillmentOrderLineItemId)}×${line.quantity}`)
    .sort()
    .join()
  const from = Date.parse(since) - CLOCK_SKEW_MS
  const candidates = creator.fulfillments.filter(
    (fulfillment) =>
      fulfillment.status === 'SUCCESS' &&
      Date.parse(fulfillment.createdAt) >= from &&
      sameTracking(firstTracking(fulfillment), tracking) &&
      fulfillment.lines
        .map((line) => `${line.lineItemId}×${line.quantity}`)
        .sort()
        .join() === wanted,
  )
  if (candidates.length === 0) return null
  const taken = await deps.db
    .selectFrom('fulfillment_mirrors')
    .select('creator_fulfillment_id')
    .where(
      'creator_fulfillment_id',
      'in',
      candidates.map((fulfillment) => fulfillment.id),
    )
    .execute()
  const takenIds = new Set(taken.map((row) => row.creator_fulfillment_id))
  return candidates.find((fulfillment) => !takenIds.has(fulfillment.id))?.id ?? null
}

/** The brand's new tracking written to the creator's fulfillment; Shopify emails the customer. */
async function followTracking(
  deps: Deps,
  order: MadeOrder,
  brandFulfillmentId: string,
  creatorFulfillmentId: string,
  tracking: Tracking,
) {
  const timing = transferTiming(deps.transferTiming)
  try {
    await withDeadline(timing.remoteTimeoutMs, (signal) =>
      deps.commerce.updateTracking(order.creatorStoreShop, creatorFulfillmentId, tracking, {
        signal,
      }),
    )
  } catch (error) {
    if (!(error instanceof FulfillmentRefused)) throw error
    return fail(deps, brandFulfillmentId, error.message)
  }
  await recordMirrored(deps, brandFulfillmentId, creatorFulfillmentId, tracking)
}

async function recordMirrored(
  deps: Deps,
  brandFulfillmentId: string,
  creatorFulfillmentId: string,
  tracking: Tracking | null,
) {
  await deps.db
    .updateTable('fulfillment_mirrors')
    .set({
      state: 'MIRRORED',
      message: null,
      creator_fulfillment_id: creatorFulfillmentId,
      mirrored_tracking: tracking ? JSON.stringify(tracking) : null,
      pending_since: null,
      pending_lines: null,
      updated_at: deps.now().toISOString(),
    })
    .where('brand_fulfillment_id', '=', brandFulfillmentId)
    .execute()
}

async function fail(deps: Deps, brandFulfillmentId: string, message: string) {
  await deps.db
    .updateTable('fulfillment_mirrors')
    .set({ state: 'FAILED', message, updated_at: deps.now().toISOString() })
    .where('brand_fulfillment_id', '=', brandFulfillmentId)
    .execute()
}
