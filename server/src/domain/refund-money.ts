// What the customer must have been given back, in Stripe, before a refund after the sale moves
// the brands' money (docs/integrations.md "After the sale"). Shopify's word is the creator's (she
// controls her store), so it only bounds what Tandem asks of Stripe, the platform's own account:
// - a brand unit's money is back only as far as the Shopify refunds that refunded its line gave
//   for it (their refund lines' subtotals, rounded Shopify's way, not Tandem's);
// - Stripe must show at least all that Shopify's refunds of the order say went back: a refund of
//   the creator's own products, or of shipping, cannot stand for a brand unit's.

/** A refund of the creator order as Shopify records it (the commerce port's CreatorRefund). */
export interface CreatorRefund {
  /** The money its transactions gave back. */
  refundedMinor: number
  /** The shipping it gave back, with its tax. */
  shippingMinor: number
  /** Its lines' units, and what it gave back for them after discounts, and in tax. */
  lines: readonly {
    lineItemId: string
    quantity: number
    subtotalMinor: number
    taxMinor: number
  }[]
}

/** A brand line as its transfer froze: how many units of the creator order's line it paid for. */
export interface FrozenUnits {
  lineItemId?: string
  quantity: number
}

/**
 * What Shopify's refunds gave back for the units of `line` refunded since the freeze (`units`):
 * a line's units leave it oldest refund first, so those since the freeze are its last refunded.
 */
function lastUnitsMinor(refunds: readonly CreatorRefund[], lineItemId: string, units: number) {
  const lines = refunds
    .flatMap((refund) => refund.lines)
    .filter((line) => line.lineItemId === lineItemId)
    .reverse()
  let left = units
  let minor = 0
  for (const line of lines) {
    if (left === 0) break
    const taken = Math.min(left, line.quantity)
    // Part of a refund line (the units since the freeze end within it) is valued pro rata.
    minor +=
      taken === line.quantity
        ? line.subtotalMinor
        : Math.round((line.subtotalMinor * taken) / line.quantity)
    left -= taken
  }
  return minor
}

/**
 * What Shopify's refunds gave back for the brand units refunded since the transfer froze: each
 * frozen line's units no longer sold (`soldNow`, by line item) at the subtotals its own refunds
 * gave them. A line frozen before its line item was kept counts at `fallbackMinor` (Tandem's base
 * of its brand's units no longer sold), which is answered for the brand as a whole.
 */
export function brandUnitsRefundedMinor(
  frozen: readonly { lines: readonly FrozenUnits[]; fallbackMinor: number }[],
  soldNow: ReadonlyMap<string, number>,
  refunds: readonly CreatorRefund[],
): number {
  return frozen.reduce((sum, brand) => {
    if (brand.lines.some((line) => !line.lineItemId)) return sum + brand.fallbackMinor
    return (
      sum +
      brand.lines.reduce((minor, line) => {
        const units = Math.max(line.quantity - (soldNow.get(line.lineItemId!) ?? 0), 0)
        return minor + lastUnitsMinor(refunds, line.lineItemId!, units)
      }, 0)
    )
  }, 0)
}

/** All that Shopify's refunds of the order say went back to the customer, ever. */
export const shopifyRefundedMinor = (refunds: readonly CreatorRefund[]) =>
  refunds.reduce((sum, refund) => sum + refund.refundedMinor, 0)

/**
 * What a refund gave back for what was sold: its units (their subtotals and tax) and shipping,
 * never more than its money. The brands' and creator's shares of a brand unit go back by the
 * split; the creator's own products, the tax and the shipping were the platform's, which gives
 * them back.
 */
const soldGivenBackMinor = (refund: CreatorRefund) =>
  Math.min(
    refund.refundedMinor,
    refund.lines.reduce((sum, line) => sum + line.subtotalMinor + line.taxMinor, 0) +
      refund.shippingMinor,
  )

/**
 * What Stripe gave the customer back beyond what the order's refunds gave back for what was sold
 * (docs/integrations.md "After the sale"): a goodwill amount the creator typed, a refund as money
 * alone. A cancelled order sells nothing: all it took in may go back. The charge must have been
 * read before the refunds: a refund the charge shows that the refunds lack would count as beyond.
 */
export function refundedBeyondUnitsMinor(
  stripeRefundedMinor: number,
  refunds: readonly CreatorRefund[],
  order: { cancelledAt: string | null; totalMinor: number },
): number {
  const coveredMinor =
    order.cancelledAt !== null
      ? order.totalMinor
      : refunds.reduce((sum, refund) => sum + soldGivenBackMinor(refund), 0)
  return Math.max(stripeRefundedMinor - coveredMinor, 0)
}
