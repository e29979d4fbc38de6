import type { BrandOrderState, CommercePort } from '../adapters/commerce/commerce-port'
import type { RouteDeps } from '../deps'
import type { BrandRefundSplit } from '../domain/refund-split'
import type { Remote } from '../lib/remote-call'
import { auditDetailsOf, recordAudit } from '../repositories/audit-log'
import { PRODUCT_NAME } from '@shared/product'
import type { FrozenLine, TransferBrandRow } from './transfer-repository'

// The brand's own order follows the creator's (order-refunds.ts): the units the creator order no
// longer sells are refunded in the brand's order, restocked where the creator's refund restocked
// them (units never shipped first, cancelled; shipped ones returned to where they shipped from),
// and the order is cancelled once it sells nothing, unless it shipped: Shopify cancels no order
// with fulfillments, so a shipped order is refunded in full instead. What is left to do is read
// from the brand's order each time (what its lines still sell), so a run after a lost answer does
// only what the last one did not; the refund goes under an idempotency key of the state it leaves
// the order in, so that two runs reading the same order make one refund and a later refund
// another. A cancel is Shopify's job, done a moment later: it is said in Activity once a read
// shows the order cancelled.

type Deps = Pick<RouteDeps, 'db' | 'commerce' | 'now'>
type RefundLine = Parameters<CommercePort['refundBrandOrder']>[2]['lines'][number]

export interface BrandOrderRefund {
  creatorOrderId: string
  brand: TransferBrandRow
  split: BrandRefundSplit
  /** Brand variants of which the creator's refunds restocked units. */
  restocked: ReadonlySet<string>
}

export async function refundBrandOrder(
  deps: Deps,
  { creatorOrderId, brand, split, restocked }: BrandOrderRefund,
  remote: Remote,
  failpoint: (name: string) => Promise<void>,
): Promise<void> {
  const orderId = brand.brand_order_id
  const shop = brand.brand_store_shop
  if (orderId === null || split.refundedUnits.length === 0) return
  const state = await remote(() => deps.commerce.readBrandOrder(shop, orderId))
  if (!state)
    throw new Error(`${shop} no longer has order ${orderId} of creator order ${creatorOrderId}`)

  const frozen = JSON.parse(brand.lines) as FrozenLine[]
  const frozenUnits = frozen.reduce((sum, line) => sum + line.quantity, 0)
  const refundedUnits = split.refundedUnits.reduce((sum, units) => sum + units.quantity, 0)
  const note = `${PRODUCT_NAME}: creator order ${creatorOrderId} was refunded`
  const audit = (action: string, details: Record<string, unknown>) =>
    recordAudit(deps.db, deps.now(), { actorEmail: null, action, target: creatorOrderId, details })
  // A run killed after its call, or whose answer was lost, did the work but never said so in
  // Activity, and the next run finds nothing left to call: it says so then (the crash harness,
  // tests/server/refund-crash.test.ts, found Activity without the refund or cancellation).
  const shown = (action: string) => auditedOf(deps, action, creatorOrderId, shop)

  if (state.cancelledAt !== null) {
    if (refundedUnits >= frozenUnits && (await shown('order.brand-cancel')).length === 0) {
      await audit('order.brand-cancel', { brandShop: shop, brandOrderId: orderId })
    }
    return
  }

  if (refundedUnits >= frozenUnits && !hasShipped(state)) {
    await failpoint('brandRefund:before-call')
    await remote((signal) => deps.commerce.cancelBrandOrder(shop, orderId, note, { signal }))
    await failpoint('brandRefund:after-call')
    const after = await remote(() => deps.commerce.readBrandOrder(shop, orderId))
    if (!after?.cancelledAt) {
      throw new Error(
        `Shopify's job to cancel order ${orderId} in ${shop} ended without cancelling it: it is tried again`,
      )
    }
    await audit('order.brand-cancel', { brandShop: shop, brandOrderId: orderId })
    return
  }

  // Per variant: the units the creator order no longer sells, less those the brand's order already gave back.
  const lines: { lineItemId: string; quantity: number; restock: boolean; sold: number }[] = []
  let givenBack = 0
  for (const { brandVariantId, quantity: target } of split.refundedUnits) {
    const ordered = frozen
      .filter((line) => line.brandVariantId === brandVariantId)
      .reduce((sum, line) => sum + line.quantity, 0)
    const ofVariant = state.lines.filter((line) => line.variantId === brandVariantId)
    const stillSold = ofVariant.reduce((sum, line) => sum + line.currentQuantity, 0)
    givenBack += Math.min(target, ordered - stillSold)
    let toRefund = target - (ordered - stillSold)
    for (const line of ofVariant) {
      const quantity = Math.min(toRefund, line.currentQuantity)
      if (quantity <= 0) continue
      lines.push({
        lineItemId: line.id,
        quantity,
        restock: restocked.has(brandVariantId),
        sold: line.currentQuantity,
      })
      toRefund -= quantity
    }
  }
  // Units the brand's order gave back already that Activity does not show (see `shown` above).
  const unsaid =
    givenBack -
    (await shown('order.brand-refund')).reduce((sum, details) => sum + Number(details.units), 0)
  if (unsaid > 0) {
    await audit('order.brand-refund', { brandShop: shop, brandOrderId: orderId, units: unsaid })
  }
  if (lines.length === 0) return
  // The key names each line's units before and after the refund: two runs reading the same order
  // send the same key, and Shopify makes one refund; a later refund of as many units of the same
  // line starts from fewer units, so it has a key of its own (the key of its lines and quantities
  // alone had Shopify answer the second refund with the first, and the brand ship what the
  // customer returned). What a line still sells only goes down, so no state comes back.
  const idempotencyKey = `brand-refund:${orderId}:${lines
    .map((line) => `${line.lineItemId}=${line.sold}>${line.sold - line.quantity}`)
    .sort()
    .join(',')}`
  const refund = { lines: lines.flatMap((line) => byShipment(state, line)), note, idempotencyKey }
  await failpoint('brandRefund:before-call')
  await remote((signal) => deps.commerce.refundBrandOrder(shop, orderId, refund, { signal }))
  await failpoint('brandRefund:after-call')
  // The units of the refund Shopify took, as sent: Activity says what the brand's order shows.
  await audit('order.brand-refund', {
    brandShop: shop,
    brandOrderId: orderId,
    units: refund.lines.reduce((sum, line) => sum + line.quantity, 0),
  })
}

/** The details of Activity's entries of `action` about this brand's order of the creator order. */
async function auditedOf(
  deps: Deps,
  action: string,
  creatorOrderId: string,
  shop: string,
): Promise<Record<string, unknown>[]> {
  return (await auditDetailsOf(deps.db, action, creatorOrderId)).filter(
    (details) => details.brandShop === shop,
  )
}

/**
 * Whether the brand's order shipped, so that Shopify cancels it no more. Shopify leaves out of the
 * app's reading the fulfillments of a location its scopes do not cover (a 3PL's, for a shop
 * connected before Tandem asked for read_third_party_fulfillment_orders), but never a line's
 * counts: units it still sells that are not unfulfilled shipped, wherever from. A fulfillment the
 * app sees counts too, even once its units were returned (Shopify still refuses the cancel).
 */
const hasShipped = (state: BrandOrderState) =>
  state.shipped.length > 0 ||
  state.lines.some((line) => line.currentQuantity > line.unfulfilledQuantity)

/**
 * A line's refunded units as Shopify's restock types take them: those never shipped first (they
 * must not ship now), then shipped ones, by the location they shipped from, in the order they
 * shipped (a line shipped from two locations and returned in part may send a unit to the other
 * one: Shopify lists shipments, not what came back to each). Units not restocked need no split.
 * Units left after these shipped from a location the app cannot see (see `hasShipped`): RETURN
 * needs a location to restock at, so they are refunded without restocking (NO_RESTOCK, which
 * RefundLineItemInput takes with no locationId, Admin GraphQL 2026-10), and their brand restocks
 * them where its warehouse keeps them.
 */
function byShipment(
  state: BrandOrderState,
  line: { lineItemId: string; quantity: number; restock: boolean },
): RefundLine[] {
  const { lineItemId, restock } = line
  if (!restock) return [{ lineItemId, quantity: line.quantity, restock }]
  const onOrder = state.lines.find((candidate) => candidate.id === lineItemId)
  const parts: RefundLine[] = []
  let left = line.quantity
  const take = (most: number, shipped?: RefundLine['shipped']) => {
    const quantity = Math.min(left, most)
    if (quantity <= 0) return
    parts.push({ lineItemId, quantity, restock, ...(shipped ? { shipped } : {}) })
    left -= quantity
  }
  take(onOrder?.unfulfilledQuantity ?? 0)
  for (const shipment of state.shipped.filter((unit) => unit.lineItemId === lineItemId)) {
    take(shipment.quantity, { from: shipment.locationId })
  }
  if (left > 0) parts.push({ lineItemId, quantity: left, restock: false })
  return parts
}
