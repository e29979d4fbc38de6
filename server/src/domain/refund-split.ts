import { splitBase, type ResolvedRates } from './commission'
import { lineBaseMinor, type PlanInput } from './transfer-plan'

// What goes back when a creator order is refunded, edited or cancelled after its transfer
// (docs/integrations.md "After the sale"). Each brand keeps what a transfer of its still-sold units
// would have paid, at the rates frozen when the transfer ran and with the same rounding (the base
// of the units left, as planning computes it, split as planning splits it); what goes back from
// each party is what was paid less that. So transfers less reversals always equal a transfer of
// the still-sold lines, to the minor unit, however many refunds come and in whatever order.
//
// Shipping and tax are not in any brand's base: the platform received them, and a refund of them
// is the platform's alone.

/** A brand's part of a transfer as it froze: its units, rates and figures. */
export interface FrozenBrandPart {
  brandStoreShop: string
  lines: readonly { brandVariantId: string; quantity: number }[]
  rates: ResolvedRates
  baseMinor: number
  brandAmountMinor: number
  creatorCommissionMinor: number
  tandemCommissionMinor: number
}

/** A base and its three parts, in minor units of the order's currency. */
export interface PartyFigures {
  baseMinor: number
  brandAmountMinor: number
  creatorCommissionMinor: number
  tandemCommissionMinor: number
}

export interface BrandRefundSplit {
  brandStoreShop: string
  /** The units, per variant, the order no longer sells: what the brand's own order refunds. */
  refundedUnits: { brandVariantId: string; quantity: number }[]
  /** What a transfer of the still-sold units pays each party. */
  kept: PartyFigures
  /**
   * What goes back: paid less kept. A part may be negative by a minor unit where rounding a
   * smaller base gives the brand more (10 % of 9.5 rounds up, of 9.4 down): the party is then owed
   * that unit, so that the sum still holds to the minor unit.
   */
  back: PartyFigures
}

/**
 * Each frozen brand's split of the refunds so far, from the order as it is now (`input`: its
 * lines' current quantities, whether it was cancelled). Units a creator's edit added are never
 * paid for: a variant's units are counted at most as many as froze. Only a cancellation or units
 * given back take a brand's units off: an order refunded in full as money alone (REFUNDED, every
 * unit still sold) still sells them, and what the customer got back beyond its units is the
 * creator's to pay (order-refunds.ts).
 */
export function refundSplit(
  input: PlanInput,
  frozen: readonly FrozenBrandPart[],
): BrandRefundSplit[] {
  const lines = input.order.cancelledAt !== null ? [] : input.lines
  return frozen.map((brand) => {
    const unitsLeft = new Map<string, number>()
    for (const line of brand.lines) {
      unitsLeft.set(line.brandVariantId, (unitsLeft.get(line.brandVariantId) ?? 0) + line.quantity)
    }
    const frozenUnits = new Map(unitsLeft)
    // The still-sold lines, each counted up to the units of its variant not yet counted.
    let baseMinor = 0
    for (const line of lines) {
      if (line.brandStoreShop !== brand.brandStoreShop || line.brandVariantId === null) continue
      const left = unitsLeft.get(line.brandVariantId) ?? 0
      const counted = Math.min(line.currentQuantity, left)
      if (counted === 0) continue
      unitsLeft.set(line.brandVariantId, left - counted)
      baseMinor += lineBaseMinor({ ...line, currentQuantity: counted })
    }
    const kept = { baseMinor, ...splitBase(baseMinor, brand.rates) }
    return {
      brandStoreShop: brand.brandStoreShop,
      refundedUnits: [...frozenUnits]
        .map(([brandVariantId]) => ({
          brandVariantId,
          quantity: unitsLeft.get(brandVariantId) ?? 0,
        }))
        .filter((units) => units.quantity > 0),
      kept,
      back: {
        baseMinor: brand.baseMinor - kept.baseMinor,
        brandAmountMinor: brand.brandAmountMinor - kept.brandAmountMinor,
        creatorCommissionMinor: brand.creatorCommissionMinor - kept.creatorCommissionMinor,
        tandemCommissionMinor: brand.tandemCommissionMinor - kept.tandemCommissionMinor,
      },
    }
  })
}
