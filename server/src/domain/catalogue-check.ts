import { PRICE_EXCEPTION_HINT } from '@shared/contract'
import { formatMinorUnits } from './money'

// Whether each line a brand is asked to ship is one the brand sells, at no less than its price.
// The brand's store decides (its variants and prices as it has them now), never the creator's.

/** A brand line of a creator order, as the check needs it. */
export interface LineToCheck {
  lineItemId: string
  title: string
  brandStoreShop: string
  brandVariantId: string
  /** What the customer was charged per unit before discounts, in the order's currency. */
  unitPriceMinor: number
  /** The creator's price of its variant now, in the creator store's currency; null if deleted. */
  variantPriceMinor: number | null
}

export interface OrderCurrencies {
  /** The order's (presentment) currency, that of `unitPriceMinor`. */
  currency: string
  /** The creator store's currency, that of `variantPriceMinor`. */
  shopCurrency: string
}

/** A brand store's variants as it sells them now, by GID, and the currency of their prices. */
export interface CatalogueOfBrand {
  currency: string
  variants: ReadonlyMap<string, { priceMinor: number; productStatus: string }>
}

/** A price below the brand's: the one failure an administrator may accept for an order. */
export interface PriceShortfall {
  lineItemId: string
  priceMinor: number
  currency: string
  brandPriceMinor: number
  brandCurrency: string
}

export type LineFailure =
  | { kind: 'missing' | 'inactive'; brandStoreShop: string; message: string }
  | { kind: 'price'; brandStoreShop: string; message: string; shortfall: PriceShortfall }

/** A product a brand sells: ACTIVE, or UNLISTED (active, only hidden from its store's search). */
const SELLABLE: ReadonlySet<string> = new Set(['ACTIVE', 'UNLISTED'])

const sameShortfall = (a: PriceShortfall, b: PriceShortfall) =>
  a.lineItemId === b.lineItemId &&
  a.priceMinor === b.priceMinor &&
  a.currency === b.currency &&
  a.brandPriceMinor === b.brandPriceMinor &&
  a.brandCurrency === b.brandCurrency

/**
 * The creator's price of a line, in the brand's currency: what the customer was charged when the
 * order is in the brand's currency; else (an order in another market's currency) the creator's
 * own price of the variant when its store prices in the brand's currency; else none, since no
 * price of the line can be compared without a rate that Tandem does not hold.
 */
function comparablePrice(
  line: LineToCheck,
  order: OrderCurrencies,
  brandCurrency: string,
): { priceMinor: number; currency: string } | null {
  if (order.currency === brandCurrency) {
    return { priceMinor: line.unitPriceMinor, currency: order.currency }
  }
  if (order.shopCurrency === brandCurrency && line.variantPriceMinor !== null) {
    return { priceMinor: line.variantPriceMinor, currency: order.shopCurrency }
  }
  return null
}

/** What is wrong with one line, or null when the brand sells it at no more than its price. */
function failureOf(
  line: LineToCheck,
  order: OrderCurrencies,
  catalogue: CatalogueOfBrand,
): LineFailure | null {
  const brand = line.brandStoreShop
  const about = `Line "${line.title}" (${line.lineItemId}) cannot be transferred to ${brand}`
  const variant = catalogue.variants.get(line.brandVariantId)
  if (!variant) {
    return {
      kind: 'missing',
      brandStoreShop: brand,
      message: `${about}: the brand's store has no variant ${line.brandVariantId} any more; link the creator's product to one it sells`,
    }
  }
  if (!SELLABLE.has(variant.productStatus)) {
    return {
      kind: 'inactive',
      brandStoreShop: brand,
      message: `${about}: the brand's product of variant ${line.brandVariantId} is ${variant.productStatus}, not on sale`,
    }
  }
  const brandPrice = `${formatMinorUnits(variant.priceMinor, catalogue.currency)} ${catalogue.currency}`
  const price = comparablePrice(line, order, catalogue.currency)
  if (price === null) {
    return {
      kind: 'price',
      brandStoreShop: brand,
      message: `${about}: it is priced in ${order.currency}, the brand in ${catalogue.currency} (${brandPrice}), so the prices cannot be compared; ${PRICE_EXCEPTION_HINT}`,
      shortfall: {
        lineItemId: line.lineItemId,
        priceMinor: line.unitPriceMinor,
        currency: order.currency,
        brandPriceMinor: variant.priceMinor,
        brandCurrency: catalogue.currency,
      },
    }
  }
  if (price.priceMinor >= variant.priceMinor) return null
  return {
    kind: 'price',
    brandStoreShop: brand,
    message: `${about}: its price ${formatMinorUnits(price.priceMinor, price.currency)} ${price.currency} is below the brand's price ${brandPrice}; ${PRICE_EXCEPTION_HINT}`,
    shortfall: {
      lineItemId: line.lineItemId,
      priceMinor: price.priceMinor,
      currency: price.currency,
      brandPriceMinor: variant.priceMinor,
      brandCurrency: catalogue.currency,
    },
  }
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
    if (failure.kind === 'price' && accepted.some((ok) => sameShortfall(ok, failure.shortfall))) {
      return []
    }
    return [failure]
  })
}
