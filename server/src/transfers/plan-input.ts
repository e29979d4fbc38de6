import type { CommerceOrder } from '../adapters/commerce/commerce-port'
import type { Db } from '../db/connect'
import type { DefaultRates } from '../domain/commission'
import type { PlanInput } from '../domain/transfer-plan'

// Rates are stored in whole hundredths of a percent; the domain works in percent.
const percentOf = (hundredths: number): number => hundredths / 100
export const hundredthsOf = (percent: number): number => Math.round(percent * 100)

/**
 * What the domain needs to plan a creator order: its lines, the brands the marketplace knows and
 * their rates for this creator. Three queries whatever the number of brands. Null when the order's
 * store is not a known creator store: such an order (a brand order, say) is no creator order.
 */
export async function loadPlanInput(db: Db, order: CommerceOrder): Promise<PlanInput | null> {
  const brandShops = [
    ...new Set(order.lines.flatMap((line) => (line.source ? [line.source.brandStoreShop] : []))),
  ]
  const [stores, defaults, uniques] = await Promise.all([
    db
      .selectFrom('stores')
      .select(['shop', 'shop_type'])
      .where('shop', 'in', [order.storeShop, ...brandShops])
      .execute(),
    brandShops.length === 0
      ? []
      : db
          .selectFrom('default_commissions')
          .select(['brand_store_shop', 'tandem_rate_hundredths', 'creator_rate_hundredths'])
          .where('brand_store_shop', 'in', brandShops)
          .execute(),
    brandShops.length === 0
      ? []
      : db
          .selectFrom('unique_commission_rates')
          .select(['brand_store_shop', 'rate_hundredths'])
          .where('creator_store_shop', '=', order.storeShop)
          .where('brand_store_shop', 'in', brandShops)
          .execute(),
  ])
  const isCreator = stores.some(
    (store) => store.shop === order.storeShop && store.shop_type === 'CREATOR',
  )
  if (!isCreator) return null

  return {
    currency: order.currency,
    creatorStoreShop: order.storeShop,
    lines: order.lines.map((line) => ({
      lineItemId: line.id,
      brandStoreShop: line.source?.brandStoreShop ?? null,
      brandVariantId: line.source?.brandVariantId ?? null,
      quantity: line.quantity,
      discountedTotalMinor: line.discountedTotalMinor,
    })),
    knownStores: new Set(
      stores.filter((store) => store.shop_type === 'BRAND').map((store) => store.shop),
    ),
    defaultRates: new Map(
      defaults.map((row): [string, DefaultRates] => [
        row.brand_store_shop,
        {
          tandemCommissionRate: percentOf(row.tandem_rate_hundredths),
          creatorCommissionRate: percentOf(row.creator_rate_hundredths),
        },
      ]),
    ),
    uniqueRates: new Map(
      uniques.map((row) => [row.brand_store_shop, percentOf(row.rate_hundredths)]),
    ),
  }
}
