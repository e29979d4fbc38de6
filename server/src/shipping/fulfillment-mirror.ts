import { orderGid } from '../adapters/commerce/shopify/order-gid'
import {
  FulfillmentRefused,
  type FulfillmentReading,
  type OrderShipping,
  type Tracking,
} from '../adapters/commerce/shipping-port'
import type { RouteDeps } from '../deps'
import { withDeadline } from '../lib/remote-call'
import type { FulfillmentMirrorsTable } from '../db/schema'
import { transferTiming } from '../transfers/transfer-timing'
import type { FrozenLine } from '../transfers/transfer-repository'

// One brand fulfillment mirrored on the creator's order, exactly once: the creator's lines the
// brand's lines were frozen for (order_transfer_brands.lines, never today's links) fulfilled with
// the brand's tracking, no more units of a line than the transfer froze for it, and the customer
// told by Shopify's shipping email; later tracking changes follow, without an email (followTracking
// says why). fulfillmentCreate has no idempotency key, so its intent (the creator lines and units,
// the tracking) is recorded before the call and its result after; a run finding the intent without
// its result (the process died between the two, or the answer was lost) looks on the creator's
// order for the fulfillment of exactly those lines and that tracking before making one. Runs of
// one brand order take turns under a lease (brand-shipment.ts); should one lose it while it works,
// an intent is recorded only over the state its run read, and a young one is left to its run.

type Deps = Pick<RouteDeps, 'db' | 'commerce' | 'now' | 'transferTiming'>

/** A brand order Tandem made, the creator order it was made for, and its frozen lines. */
export interface MadeOrder {
  creatorOrderId: string
  creatorStoreShop: string
  brandStoreShop: string
  brandOrderId: string
  lines: FrozenLine[]
}

/** Units of one creator fulfillment-order line a mirror fulfils. */
interface PlannedLine {
  fulfillmentOrderId: string
  fulfillmentOrderLineItemId: string
  /** The creator order's line. */
  lineItemId: string
  quantity: number
}

type MirrorRow = FulfillmentMirrorsTable

/** The creator's fulfillment orders Shopify lets a fulfillment be made on. */
const FULFILLABLE = ['OPEN', 'IN_PROGRESS']

const firstTracking = (fulfillment: { tracking: Tracking[] }): Tracking | null =>
  fulfillment.tracking[0] ?? null

const sameTracking = (a: Tracking | null, b: Tracking | null) =>
  JSON.stringify(a) === JSON.stringify(b)

const age = (deps: Deps, since: string) => deps.now().getTime() - Date.parse(since)

const parsed = <T>(json: string | null): T | null => (json ? (JSON.parse(json) as T) : null)

/** Lines as a comparable key: creator line and units, whatever their order. */
const linesKey = (lines: { lineItemId: string; quantity: number }[]) =>
  lines
    .map((line) => `${line.lineItemId}×${line.quantity}`)
    .sort()
    .join()

export async function mirrorFulfillment(
  deps: Deps,
  order: MadeOrder,
  brand: FulfillmentReading,
): Promise<void> {
  const mirror = await mirrorRow(deps, order, brand.id)
  const tracking = firstTracking(brand)
  if (mirror.creator_fulfillment_id) {
    const written = parsed<Tracking>(mirror.mirrored_tracking)
    if (tracking && !sameTracking(tracking, written)) {
      await followTracking(deps, order, mirror, tracking)
    }
    return
  }
  const timing = transferTiming(deps.transferTiming)
  // An intent younger than two calls' deadline may be a run's whose call is under way still (one
  // that lost the lease while it worked): its outcome is looked for once its call has ended.
  if (mirror.pending_since && age(deps, mirror.pending_since) < 2 * timing.remoteTimeoutMs) {
    throw new Error(`Fulfillment ${brand.id} is being mirrored by another run: retried later`)
  }
  const creator = await withDeadline(timing.remoteTimeoutMs, () =>
    deps.commerce.readOrderShipping(order.creatorStoreShop, orderGid(order.creatorOrderId)),
  )
  if (!creator) return fail(deps, mirror, "the creator's order is no longer in its store")
  if (mirror.pending_since) {
    const made = await madeBefore(deps, creator, mirror)
    if (made) {
      await recordMirrored(deps, mirror, made, parsed<Tracking>(mirror.sent_tracking))
      // The brand may have changed its tracking since the intent.
      const adopted = await mirrorRow(deps, order, brand.id)
      if (tracking && !sameTracking(tracking, parsed(adopted.mirrored_tracking))) {
        await followTracking(deps, order, adopted, tracking)
      }
      return
    }
  }
  const plan = await planLines(deps, order, brand, creator)
  // An earlier intent found unmade ships nothing: its units are no longer counted as shipping.
  if ('refusal' in plan) return fail(deps, mirror, plan.refusal, { dropIntent: true })

  const now = deps.now().toISOString()
  // Taken only from the state this run read: of two runs that read it, one records its intent.
  const claimed = await deps.db
    .updateTable('fulfillment_mirrors')
    .set({
      state: 'PENDING',
      message: null,
      pending_since: now,
      lines: JSON.stringify(plan.lines),
      sent_tracking: tracking ? JSON.stringify(tracking) : null,
      updated_at: now,
    })
    .where('brand_fulfillment_id', '=', brand.id)
    .where('creator_fulfillment_id', 'is', null)
    .where((eb) =>
      mirror.pending_since === null
        ? eb('pending_since', 'is', null)
        : eb('pending_since', '=', mirror.pending_since),
    )
    .executeTakeFirst()
  if (claimed.numUpdatedRows !== 1n) {
    throw new Error(`Fulfillment ${brand.id} was taken by another run: retried later`)
  }
  let creatorFulfillmentId: string
  try {
    creatorFulfillmentId = await withDeadline(timing.remoteTimeoutMs, (signal) =>
      deps.commerce.createFulfillment(
        order.creatorStoreShop,
        {
          lines: plan.lines.map(({ fulfillmentOrderId, fulfillmentOrderLineItemId, quantity }) => ({
            fulfillmentOrderId,
            fulfillmentOrderLineItemId,
            quantity,
          })),
          tracking,
          notifyCustomer: true,
        },
        { signal },
      ),
    )
  } catch (error) {
    // Refused, Shopify made nothing: the intent goes, and the reason stays for a person.
    if (!(error instanceof FulfillmentRefused)) throw error
    return fail(deps, mirror, error.message, { dropIntent: true })
  }
  await timing.failpoint('shipment:after-call')
  await recordMirrored(deps, mirror, creatorFulfillmentId, tracking)
}

/** The brand fulfillment's mirror, made PENDING the first time it is seen. */
async function mirrorRow(deps: Deps, order: MadeOrder, brandFulfillmentId: string) {
  await deps.db
    .insertInto('fulfillment_mirrors')
    .values({
      brand_fulfillment_id: brandFulfillmentId,
      brand_order_id: order.brandOrderId,
      creator_order_id: order.creatorOrderId,
      creator_store_shop: order.creatorStoreShop,
      state: 'PENDING',
      updated_at: deps.now().toISOString(),
    })
    .onConflict((conflict) => conflict.column('brand_fulfillment_id').doNothing())
    .execute()
  return deps.db
    .selectFrom('fulfillment_mirrors')
    .selectAll()
    .where('brand_fulfillment_id', '=', brandFulfillmentId)
    .executeTakeFirstOrThrow()
}

/**
 * The creator's fulfillment-order lines and units for the brand's: each brand variant's units on
 * the creator lines the transfer froze for it, no more than it froze for each line less what
 * Tandem's other fulfillments of this brand order shipped there, and no more than is left to fulfil.
 */
async function planLines(
  deps: Deps,
  order: MadeOrder,
  brand: FulfillmentReading,
  creator: OrderShipping,
): Promise<{ lines: PlannedLine[] } | { refusal: string }> {
  if (creator.cancelledAt) return { refusal: "the creator's order was cancelled" }
  if (order.lines.some((line) => !line.lineItemId)) {
    return {
      refusal:
        "its transfer was made before Tandem kept which creator line each brand line is for: fulfil the creator's order in Shopify",
    }
  }
  const room = await unitsLeftToMirror(deps, order, brand.id)
  const remaining = new Map(
    creator.fulfillmentOrders.flatMap((fulfillmentOrder) =>
      fulfillmentOrder.lines.map((line) => [line.id, line.remainingQuantity] as const),
    ),
  )
  const lines: PlannedLine[] = []
  const held = new Set<string>()
  for (const shipped of brand.lines) {
    let wanted = shipped.quantity
    for (const frozen of order.lines) {
      if (frozen.brandVariantId !== shipped.variantId) continue
      const lineItemId = frozen.lineItemId!
      for (const fulfillmentOrder of creator.fulfillmentOrders) {
        for (const line of fulfillmentOrder.lines) {
          if (line.lineItemId !== lineItemId || wanted === 0) continue
          if (!FULFILLABLE.includes(fulfillmentOrder.status)) {
            fulfillmentOrder.holds.forEach((hold) => held.add(hold.reason))
            continue
          }
          const quantity = Math.min(wanted, room.get(lineItemId) ?? 0, remaining.get(line.id) ?? 0)
          if (quantity === 0) continue
          lines.push({
            fulfillmentOrderId: fulfillmentOrder.id,
            fulfillmentOrderLineItemId: line.id,
            lineItemId,
            quantity,
          })
          wanted -= quantity
          room.set(lineItemId, room.get(lineItemId)! - quantity)
          remaining.set(line.id, remaining.get(line.id)! - quantity)
        }
      }
    }
  }
  if (lines.length > 0) return { lines }
  if (held.size > 0) {
    return {
      refusal: `the creator's order is on hold (${[...held].join(', ')}): release it in the creator's Shopify`,
    }
  }
  return {
    refusal:
      "the creator's order has none of these units left to fulfil: they were fulfilled or removed in the creator's store",
  }
}

/**
 * Units of each creator line the transfer froze for this brand, less those Tandem's other
 * fulfillments of the brand order shipped there or are shipping: a brand that adds units to its
 * order and ships them ships no more of the creator's.
 */
async function unitsLeftToMirror(deps: Deps, order: MadeOrder, brandFulfillmentId: string) {
  const room = new Map<string, number>()
  for (const line of order.lines) {
    room.set(line.lineItemId!, (room.get(line.lineItemId!) ?? 0) + line.quantity)
  }
  const others = await deps.db
    .selectFrom('fulfillment_mirrors')
    .select('lines')
    .where('brand_order_id', '=', order.brandOrderId)
    .where('brand_fulfillment_id', '!=', brandFulfillmentId)
    .where('lines', 'is not', null)
    .execute()
  for (const other of others) {
    for (const line of parsed<PlannedLine[]>(other.lines) ?? []) {
      room.set(line.lineItemId, (room.get(line.lineItemId) ?? 0) - line.quantity)
    }
  }
  return room
}

/**
 * The creator fulfillment an earlier run made for this intent, if it did: of exactly its lines
 * and units, with the tracking it sent, and recorded for no other brand fulfillment. Not bounded
 * in time: a fulfillment of the same lines and tracking made otherwise (by the creator, by hand)
 * ships the same units to the same customer, and one more would ship them twice.
 */
async function madeBefore(
  deps: Deps,
  creator: OrderShipping,
  mirror: MirrorRow,
): Promise<string | null> {
  const wanted = linesKey(parsed<PlannedLine[]>(mirror.lines) ?? [])
  const sent = parsed<Tracking>(mirror.sent_tracking)
  const candidates = creator.fulfillments.filter(
    (fulfillment) =>
      fulfillment.status === 'SUCCESS' &&
      sameTracking(firstTracking(fulfillment), sent) &&
      linesKey(fulfillment.lines) === wanted,
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

/**
 * The brand's new tracking written to the creator's fulfillment, the customer not emailed: the
 * brand chose whether its change is announced (notifyCustomer), and Shopify does not let its
 * choice be read (the Fulfillment object has no such field, the argument is the mutation's only),
 * so the stricter reading is taken: none is. A brand flipping its tracking back and forth reaches
 * the customer's order status page, which shows the tracking as it is, and never its inbox. A run
 * killed after the write and before its record writes the same again.
 */
async function followTracking(deps: Deps, order: MadeOrder, mirror: MirrorRow, tracking: Tracking) {
  const timing = transferTiming(deps.transferTiming)
  try {
    await withDeadline(timing.remoteTimeoutMs, (signal) =>
      deps.commerce.updateTracking(
        order.creatorStoreShop,
        mirror.creator_fulfillment_id!,
        tracking,
        {
          signal,
        },
      ),
    )
  } catch (error) {
    if (!(error instanceof FulfillmentRefused)) throw error
    return fail(deps, mirror, error.message)
  }
  await recordMirrored(deps, mirror, mirror.creator_fulfillment_id!, tracking)
}

async function recordMirrored(
  deps: Deps,
  mirror: MirrorRow,
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
      updated_at: deps.now().toISOString(),
    })
    .where('brand_fulfillment_id', '=', mirror.brand_fulfillment_id)
    .execute()
}

/** The reason stays for a person; `dropIntent` when no call of it can have made anything. */
async function fail(deps: Deps, mirror: MirrorRow, message: string, { dropIntent = false } = {}) {
  await deps.db
    .updateTable('fulfillment_mirrors')
    .set({
      state: 'FAILED',
      message,
      updated_at: deps.now().toISOString(),
      ...(dropIntent ? { pending_since: null, lines: null, sent_tracking: null } : {}),
    })
    .where('brand_fulfillment_id', '=', mirror.brand_fulfillment_id)
    .execute()
}
