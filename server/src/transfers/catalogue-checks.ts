import type { CommercePort } from '../adapters/commerce/commerce-port'
import { ShopConnectionError } from '../adapters/commerce/shopify/shop-connections'
import { attention, NeedsAttention } from '../domain/attention'
import {
  catalogueFailures,
  type CatalogueOfBrand,
  type LineFailure,
  type LineToCheck,
  type OrderCurrencies,
  type PriceShortfall,
} from '../domain/catalogue-check'
import type { BrandPlan } from '../domain/transfer-plan'
import type { LinkedOrder } from './linked-order'
import { settleWithLimit, upstreamRefusal, type Remote } from '../lib/remote-call'

// The catalogue checks of a planned transfer (docs/integrations.md "Shopify", which brand variant,
// at what price): each brand's store is read for the variants its lines name, as it sells them now,
// and each line is checked against it. Brands are read at once, at most 20 together, as
// processing's steps run (transfer-timing.ts): each is a store of its own, with its own bucket.

export const BRANDS_READ_AT_ONCE = 20

/** The brand lines of the plan in the order's line order, with what the order says of each. */
function linesToCheck(order: LinkedOrder, brands: BrandPlan[]): LineToCheck[] {
  const planned = new Map(
    brands.flatMap((brand) =>
      brand.lines.map((line) => [line.lineItemId, { brand: brand.brandStoreShop, line }] as const),
    ),
  )
  return order.lines.flatMap((line) => {
    const brandLine = planned.get(line.id)
    if (!brandLine) return []
    return [
      {
        lineItemId: line.id,
        title: line.title,
        brandStoreShop: brandLine.brand,
        brandVariantId: brandLine.line.brandVariantId,
        quantity: line.quantity,
        paidMinor: line.unitPriceMinor * line.quantity - line.discountMinor,
        stoppedListing: line.source?.stoppedListing ?? null,
      },
    ]
  })
}

/**
 * Each planned line's failure against its brand's store, less the shortfalls `accepted`.
 * `settlement` is asked only when a brand prices in another currency than the order's.
 */
export async function checkLinesAgainstCatalogues(
  deps: { commerce: CommercePort; remote: Remote },
  order: LinkedOrder,
  brands: BrandPlan[],
  accepted: readonly PriceShortfall[],
  settlement: () => Promise<OrderCurrencies['settlement']>,
): Promise<LineFailure[]> {
  const lines = linesToCheck(order, brands)
  const read = await settleWithLimit(brands, BRANDS_READ_AT_ONCE, async (brand) => {
    const ids = [...new Set(brand.lines.map((line) => line.brandVariantId))]
    try {
      const catalogue = await deps.remote((signal) =>
        deps.commerce.readBrandVariants(brand.brandStoreShop, ids, { signal }),
      )
      return [brand.brandStoreShop, catalogue] as const
    } catch (error) {
      // Retrying cannot connect a store: a person must (still the 502 of Shopify's refusal).
      if (error instanceof ShopConnectionError) {
        const reason = attention.brandStoreNotConnected(brand.brandStoreShop, error.message)
        throw new NeedsAttention([reason], 'upstream_failed')
      }
      throw upstreamRefusal(
        `Brand catalogue read failed for ${brand.brandStoreShop}`,
        'commerce platform',
        error,
      )
    }
  })
  const catalogues = new Map<string, CatalogueOfBrand>()
  for (const outcome of read) {
    if (outcome.status === 'rejected') throw outcome.reason
    catalogues.set(...outcome.value)
  }
  const foreign = [...catalogues.values()].some((brand) => brand.currency !== order.currency)
  const currencies = { currency: order.currency, settlement: foreign ? await settlement() : null }
  return catalogueFailures(lines, currencies, catalogues, accepted)
}
