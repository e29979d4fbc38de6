import { TRANSFER_ERRORS } from '@shared/contract'
import { attention, type AttentionReason } from './attention'
import { resolveRates, splitBase, type DefaultRates } from './commission'
import { currencyDecimals } from './money'

export interface PlanLine {
  lineItemId: string
  /** null for the creator's own products (not transferred) */
  brandStoreShop: string | null
  brandVariantId: string | null
  /** as ordered */
  quantity: number
  /** Shopify's current quantity: what is still sold once edits and refunds removed units */
  currentQuantity: number
  /** the unit price before discounts, in minor units */
  unitPriceMinor: number
  /** every discount allocated to the line (order-level codes included), for `quantity` units */
  discountMinor: number
}

/** What the plan needs to know of the creator order itself. */
export interface PlanOrder {
  name: string
  /** Shopify's displayFinancialStatus; null when it gave none */
  financialStatus: string | null
  cancelledAt: string | null
}

export interface PlanInput {
  order: PlanOrder
  currency: string
  creatorStoreShop: string
  lines: PlanLine[]
  /** brand shops the marketplace knows */
  knownStores: ReadonlySet<string>
  /** by brand shop */
  defaultRates: ReadonlyMap<string, DefaultRates>
  /** by brand shop, for this order's creator */
  uniqueRates: ReadonlyMap<string, number>
}

export interface BrandPlanLine {
  lineItemId: string
  brandVariantId: string
  quantity: number
}

export interface BrandPlan {
  brandStoreShop: string
  lines: BrandPlanLine[]
  baseMinor: number
  tandemRate: number
  creatorRate: number
  creatorCommissionMinor: number
  tandemCommissionMinor: number
  brandAmountMinor: number
}

interface PlanTotals {
  totalBrandAmountMinor: number
  totalCreatorCommissionMinor: number
  totalTandemCommissionMinor: number
}

export type PlanResult =
  | { ok: true; brands: BrandPlan[]; totals: PlanTotals }
  /**
   * The order as it stands has nothing to transfer (no brand lines, none left, or no money to
   * share: cancelled, refunded, not paid); the sentence says why.
   */
  | { ok: false; error: 'nothingToTransfer'; message: string }
  /** A brand's store or commission that a person must fix first. */
  | { ok: false; error: 'needsAttention'; reason: AttentionReason }

/**
 * The financial states in which the customer's money is with the creator: paid, or paid and then
 * partly refunded (what is still sold is transferred). Pending, authorized, partially paid,
 * expired, voided and refunded orders hold no money to share.
 */
const PAID_STATES: ReadonlySet<string> = new Set(['PAID', 'PARTIALLY_REFUNDED'])

/** Why the order as it stands cannot be transferred, or null when it can. */
export function orderRefusal(order: PlanOrder): string | null {
  if (order.cancelledAt !== null) {
    return `Creator order ${order.name} was cancelled (${order.cancelledAt}): a cancelled order is not transferred`
  }
  if (order.financialStatus === 'REFUNDED') {
    return `Creator order ${order.name} was refunded in full (REFUNDED): it has nothing left to transfer`
  }
  if (order.financialStatus === null || !PAID_STATES.has(order.financialStatus)) {
    return `Creator order ${order.name} is not paid (${order.financialStatus ?? 'no financial status'}): only a paid order is transferred`
  }
  return null
}

/**
 * The commission base of a line: what the customer paid for the units still sold. The discounts
 * Shopify allocated to the line are for the ordered quantity; the units still sold keep their
 * share of them, prorated and rounded up (ceil(discount × current ÷ ordered)), so that the base
 * never exceeds what was paid for them. Integer minor units throughout.
 */
export function lineBaseMinor(line: PlanLine): number {
  if (line.quantity === 0) return 0
  const keptDiscount = Math.ceil((line.discountMinor * line.currentQuantity) / line.quantity)
  return line.currentQuantity * line.unitPriceMinor - keptDiscount
}

/**
 * Thrown for order data that the code reading it should never have produced (a brand line without
 * a variant, a negative total): a bug to fix, not a business outcome to show the admin.
 */
export class TransferPlanDataError extends Error {
  override name = 'TransferPlanDataError'
}

/**
 * The part of a line the brand's order needs, or null for a line that is not transferred: the
 * creator's own product, or a line an edit or refund removed (nothing to order, nothing to pay).
 */
function brandLineOf(
  line: PlanLine,
  creatorStoreShop: string,
): { shop: string; line: BrandPlanLine; baseMinor: number } | null {
  const valid = (count: number) => Number.isSafeInteger(count) && count >= 0
  const badQuantity = [line.quantity, line.currentQuantity].find((count) => !valid(count))
  if (badQuantity !== undefined) {
    throw new TransferPlanDataError(
      `Line ${line.lineItemId} has an invalid quantity ${badQuantity}`,
    )
  }
  if (!valid(line.unitPriceMinor) || !valid(line.discountMinor)) {
    throw new TransferPlanDataError(`Line ${line.lineItemId} has an invalid price or discount`)
  }
  if (line.currentQuantity > line.quantity) {
    throw new TransferPlanDataError(
      `Line ${line.lineItemId} has ${line.currentQuantity} units left of ${line.quantity} ordered`,
    )
  }
  const baseMinor = lineBaseMinor(line)
  if (!Number.isSafeInteger(baseMinor) || baseMinor < 0) {
    throw new TransferPlanDataError(
      `Line ${line.lineItemId} has an invalid total ${baseMinor} minor units`,
    )
  }
  if (line.brandStoreShop === null) return null
  if (line.brandVariantId === null) {
    throw new TransferPlanDataError(
      `Line ${line.lineItemId} comes from ${line.brandStoreShop} but names no brand variant`,
    )
  }
  // A creator's own product is marked by a null brand; naming the creator's store as the brand
  // would send the creator an order and a payment from itself.
  if (line.brandStoreShop === creatorStoreShop) {
    throw new TransferPlanDataError(
      `Line ${line.lineItemId} names the creator's own store ${creatorStoreShop} as its brand`,
    )
  }
  if (line.currentQuantity === 0) return null
  return {
    shop: line.brandStoreShop,
    line: {
      lineItemId: line.lineItemId,
      brandVariantId: line.brandVariantId,
      quantity: line.currentQuantity,
    },
    baseMinor,
  }
}

/** The units of each brand variant, keyed by its shop and id. */
function unitsByVariant(units: { shop: string; variantId: string; quantity: number }[]) {
  const totals = new Map<string, number>()
  for (const { shop, variantId, quantity } of units) {
    const key = `${shop} ${variantId}`
    totals.set(key, (totals.get(key) ?? 0) + quantity)
  }
  return totals
}

/**
 * Why a transfer begun earlier cannot go on at all, or null. A cancelled or fully refunded order
 * goes on brand by brand (see frozenUnitsStillSold): a brand ordered before is not left without
 * an answer, and one not yet ordered is owed nothing.
 */
export function resumeRefusal(order: PlanOrder): string | null {
  return sellsNothing(order) ? null : orderRefusal(order)
}

/** A cancelled order sells nothing, whatever its lines' quantities still say. */
export const sellsNothing = (order: PlanOrder) =>
  order.cancelledAt !== null || order.financialStatus === 'REFUNDED'

/** How much of a brand's frozen units the order still sells. */
export type StillSold = 'all' | 'some' | 'none'

/**
 * How much of `frozen` (a brand's lines in a transfer frozen earlier) the order still sells, once
 * edits, refunds or a cancellation since took units off: each variant summed over its lines.
 */
export function frozenUnitsStillSold(
  input: PlanInput,
  brandStoreShop: string,
  frozen: { brandVariantId: string; quantity: number }[],
): StillSold {
  const sold = unitsByVariant(
    sellsNothing(input.order)
      ? []
      : input.lines.flatMap((line) => {
          const brandLine = brandLineOf(line, input.creatorStoreShop)
          if (brandLine === null) return []
          const { brandVariantId: variantId, quantity } = brandLine.line
          return [{ shop: brandLine.shop, variantId, quantity }]
        }),
  )
  const wanted = [
    ...unitsByVariant(
      frozen.map(({ brandVariantId, quantity }) => ({
        shop: brandStoreShop,
        variantId: brandVariantId,
        quantity,
      })),
    ),
  ].map(([key, quantity]) => ({ quantity, sold: Math.min(sold.get(key) ?? 0, quantity) }))
  if (wanted.every((variant) => variant.sold === variant.quantity)) return 'all'
  return wanted.every((variant) => variant.sold === 0) ? 'none' : 'some'
}

/**
 * The per-brand figures of a creator order, shared by preview and processing so both show and
 * move the same amounts. Brands come in the order of their first line in the order.
 */
export function planTransfer(input: PlanInput): PlanResult {
  // The figures are minor units of this currency; an unknown code makes them meaningless.
  currencyDecimals(input.currency)
  const refusal = orderRefusal(input.order)
  if (refusal !== null) return { ok: false, error: 'nothingToTransfer', message: refusal }

  // A Map keeps insertion order, which is the order of each brand's first line.
  const byBrand = new Map<string, { lines: BrandPlanLine[]; baseMinor: number }>()
  for (const line of input.lines) {
    const brandLine = brandLineOf(line, input.creatorStoreShop)
    if (brandLine === null) continue
    const group = byBrand.get(brandLine.shop) ?? { lines: [], baseMinor: 0 }
    group.lines.push(brandLine.line)
    group.baseMinor += brandLine.baseMinor
    byBrand.set(brandLine.shop, group)
  }

  if (byBrand.size === 0) {
    // Brand lines that edits or refunds emptied are not "no brand orders": say what happened.
    const emptied = input.lines.some((line) => line.brandStoreShop !== null)
    if (emptied) {
      return {
        ok: false,
        error: 'nothingToTransfer',
        message: `Creator order ${input.order.name} has nothing left to transfer: every brand line was refunded or removed`,
      }
    }
    return { ok: false, error: 'nothingToTransfer', message: TRANSFER_ERRORS.noBrandOrders }
  }
  const unknownShop = [...byBrand.keys()].find((shop) => !input.knownStores.has(shop))
  if (unknownShop !== undefined) {
    return { ok: false, error: 'needsAttention', reason: attention.brandStoreUnknown(unknownShop) }
  }

  const brands: BrandPlan[] = []
  for (const [shop, { lines, baseMinor }] of byBrand) {
    const rates = resolveRates(
      input.defaultRates.get(shop) ?? null,
      input.uniqueRates.get(shop) ?? null,
    )
    if (rates === null) {
      return { ok: false, error: 'needsAttention', reason: attention.noDefaultCommission(shop) }
    }
    if (!Number.isSafeInteger(baseMinor)) {
      throw new TransferPlanDataError(`The base of ${shop} is too large`)
    }
    brands.push({
      brandStoreShop: shop,
      lines,
      baseMinor,
      ...rates,
      ...splitBase(baseMinor, rates),
    })
  }

  const sum = (pick: (brand: BrandPlan) => number): number =>
    brands.reduce((total, brand) => total + pick(brand), 0)
  return {
    ok: true,
    brands,
    totals: {
      totalBrandAmountMinor: sum((brand) => brand.brandAmountMinor),
      totalCreatorCommissionMinor: sum((brand) => brand.creatorCommissionMinor),
      totalTandemCommissionMinor: sum((brand) => brand.tandemCommissionMinor),
    },
  }
}
