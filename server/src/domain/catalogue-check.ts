import { attention, type AttentionReason } from './attention'
import { convertMinorUnits, formatMinorUnits } from './money'

// Whether each line a brand is asked to ship is one the brand sells, at no less than its price.
// The brand's store decides (its variants and prices as it has them now), never the creator's.

/** A brand line of a creator order, as the check needs it. */
export interface LineToCheck {
  lineItemId: string
  title: string
  brandStoreShop: string
  brandVariantId: string
  /** Units ordered. */
  quantity: number
  /** What the customer paid for them: unit price × quantity less every discount allocated. */
  paidMinor: number
  /** The line's listing when an administrator paused or removed it; null otherwise. */
  stoppedListing: 'PAUSED' | 'REMOVED' | null
}

/**
 * The currency the customer paid in, and the charge's conversion of it into the platform's
 * settlement currency (Stripe's, which no store owner edits); null when none was read.
 */
export interface OrderCurrencies {
  currency: string
  settlement: { currency: string; exchangeRate: string } | null
}

/** A brand store's variants as it sells them now, by GID, and the currency of their prices. */
export interface CatalogueOfBrand {
  currency: string
  variants: ReadonlyMap<string, { priceMinor: number; productStatus: string }>
}

/** A price below the brand's: the one failure an administrator may accept for an order. */
export interface PriceShortfall {
  lineItemId: string
  brandVariantId: string
  /** What the customer paid a unit (after discounts, rounded down), in `currency`. */
  priceMinor: number
  currency: string
  brandPriceMinor: number
  brandCurrency: string
}

export type LineFailure =
  | AttentionReason<'variantMissing' | 'productNotOnSale' | 'listingStopped'>
  | (AttentionReason<'priceBelowBrand'> & { shortfall: PriceShortfall })

/** A product a brand sells: ACTIVE, or UNLISTED (active, only hidden from its store's search). */
const SELLABLE: ReadonlySet<string> = new Set(['ACTIVE', 'UNLISTED'])

const sameShortfall = (a: PriceShortfall, b: PriceShortfall) =>
  a.lineItemId === b.lineItemId &&
  a.brandVariantId === b.brandVariantId &&
  a.priceMinor === b.priceMinor &&
  a.currency === b.currency &&
  a.brandPriceMinor === b.brandPriceMinor &&
  a.brandCurrency === b.brandCurrency

/**
 * What the customer paid for a line, in the brand's currency: as paid when the order is in it;
 * else at the charge's own rate when the brand's currency is the one the charge settled in; else
 * none (no rate Tandem trusts converts it: a creator's store could show any price).
 */
function paidInBrandCurrency(
  line: LineToCheck,
  order: OrderCurrencies,
  brandCurrency: string,
): number | null {
  if (order.currency === brandCurrency) return line.paidMinor
  const { settlement } = order
  if (settlement?.currency !== brandCurrency) return null
  return convertMinorUnits(line.paidMinor, order.currency, brandCurrency, settlement.exchangeRate)
}

/** What is wrong with one line, or null when the brand sells it at no more than its price. */
function failureOf(
  line: LineToCheck,
  order: OrderCurrencies,
  catalogue: CatalogueOfBrand,
): LineFailure | null {
  if (line.stoppedListing) return attention.listingStopped(line, line.stoppedListing)
  const variant = catalogue.variants.get(line.brandVariantId)
  if (!variant) return attention.variantMissing(line)
  if (!SELLABLE.has(variant.productStatus)) {
    return attention.productNotOnSale(line, variant.productStatus)
  }
  const money = (minor: number, currency: string) =>
    `${formatMinorUnits(minor, currency)} ${currency}`
  const brandPrice = money(variant.priceMinor, catalogue.currency)
  const paid = paidInBrandCurrency(line, order, catalogue.currency)
  // Compared over the whole quantity, so that no rounding of a unit's share lets a line through.
  if (paid !== null && paid >= variant.priceMinor * line.quantity) return null
  const unit = (minor: number) => Math.floor(minor / line.quantity)
  const shortfall = {
    lineItemId: line.lineItemId,
    brandVariantId: line.brandVariantId,
    priceMinor: unit(paid ?? line.paidMinor),
    currency: paid === null ? order.currency : catalogue.currency,
    brandPriceMinor: variant.priceMinor,
    brandCurrency: catalogue.currency,
  }
  const reason =
    paid === null
      ? `it was paid ${money(shortfall.priceMinor, order.currency)} a unit and the brand prices it ${brandPrice}, with no rate of the order's charge to compare them`
      : `the customer paid ${money(shortfall.priceMinor, catalogue.currency)} a unit after discounts, below the brand's price ${brandPrice}`
  return { ...attention.priceBelowBrand(line, reason), shortfall }
}

/**
 * Every line's failure, in line order, leaving out the price shortfalls an administrator accepted
 * for this order exactly as they stand (a price changed since is checked again).
 */
export function catalogueFailures(
  lines: LineToCheck[],
  order: OrderCurrencies,
  catalogues: ReadonlyMap<string, CatalogueOfBrand>,
  accepted: readonly PriceShortfall[],
): LineFailure[] {
  return lines.flatMap((line) => {
    const catalogue = catalogues.get(line.brandStoreShop)
    if (!catalogue) throw new Error(`No catalogue was read for ${line.brandStoreShop}`)
    const failure = failureOf(line, order, catalogue)
    if (!failure) return []
    if (
      failure.kind === 'priceBelowBrand' &&
      accepted.some((ok) => sameShortfall(ok, failure.shortfall))
    ) {
      return []
    }
    return [failure]
  })
}
