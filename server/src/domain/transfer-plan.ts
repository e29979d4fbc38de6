import { resolveRates, splitBase, type DefaultRates } from './commission'
import { currencyDecimals } from './money'

export interface PlanLine {
  lineItemId: string
  /** null for the creator's own products (not transferred) */
  brandStoreShop: string | null
  brandVariantId: string | null
  /** Shopify's current quantity: 0 once an edit or refund removed the line */
  quantity: number
  /** the line's total after discounts, excluding tax and shipping, in minor units */
  discountedTotalMinor: number
}

export interface PlanInput {
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

/** Keys of the contract's TRANSFER_ERRORS, whose sentences say them to a person. */
type PlanErrorCode = 'noBrandOrders' | 'storeNotFound' | 'commissionNotFound'

export type PlanResult =
  | { ok: true; brands: BrandPlan[]; totals: PlanTotals }
  | { ok: false; error: PlanErrorCode; brandStoreShop?: string }

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
): { shop: string; line: BrandPlanLine } | null {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 0) {
    throw new TransferPlanDataError(
      `Line ${line.lineItemId} has an invalid quantity ${line.quantity}`,
    )
  }
  if (!Number.isSafeInteger(line.discountedTotalMinor) || line.discountedTotalMinor < 0) {
    throw new TransferPlanDataError(
      `Line ${line.lineItemId} has an invalid total ${line.discountedTotalMinor} minor units`,
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
  if (line.quantity === 0) return null
  return {
    shop: line.brandStoreShop,
    line: {
      lineItemId: line.lineItemId,
      brandVariantId: line.brandVariantId,
      quantity: line.quantity,
    },
  }
}

/**
 * The per-brand figures of a creator order, shared by preview and processing so both show and
 * move the same amounts. Brands come in the order of their first line in the order.
 */
export function planTransfer(input: PlanInput): PlanResult {
  // The figures are minor units of this currency; an unknown code makes them meaningless.
  currencyDecimals(input.currency)

  // A Map keeps insertion order, which is the order of each brand's first line.
  const byBrand = new Map<string, { lines: BrandPlanLine[]; baseMinor: number }>()
  for (const line of input.lines) {
    const brandLine = brandLineOf(line, input.creatorStoreShop)
    if (brandLine === null) continue
    const group = byBrand.get(brandLine.shop) ?? { lines: [], baseMinor: 0 }
    group.lines.push(brandLine.line)
    group.baseMinor += line.discountedTotalMinor
    byBrand.set(brandLine.shop, group)
  }

  if (byBrand.size === 0) return { ok: false, error: 'noBrandOrders' }
  const unknownShop = [...byBrand.keys()].find((shop) => !input.knownStores.has(shop))
  if (unknownShop !== undefined) {
    return { ok: false, error: 'storeNotFound', brandStoreShop: unknownShop }
  }

  const brands: BrandPlan[] = []
  for (const [shop, { lines, baseMinor }] of byBrand) {
    const rates = resolveRates(
      input.defaultRates.get(shop) ?? null,
      input.uniqueRates.get(shop) ?? null,
    )
    if (rates === null) return { ok: false, error: 'commissionNotFound', brandStoreShop: shop }
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
