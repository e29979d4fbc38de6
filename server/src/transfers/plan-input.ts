import type { Db } from '../db/connect'
import type { PlanInput } from '../domain/transfer-plan'
import { findRatesOfBrands } from '../repositories/commissions'
import type { LinkedOrder } from './linked-order'

/**
 * What the domain needs to plan a creator order: its lines, the brands the marketplace knows and
 * their rates for this creator. Three queries whatever the number of brands. Null when the order's
 * store is not a known creator store: such an order (a brand order, say) is no creator order.
 */
export async function loadPlanInput(db: Db, order: LinkedOrder): Promise<PlanInput | null> {
  const brandShops = [
    ...new Set(order.lines.flatMap((line) => (line.source ? [line.source.brandStoreShop] : []))),
  ]
  const [stores, rates] = await Promise.all([
    db
      .selectFrom('stores')
      .select(['shop', 'shop_type'])
      .where('shop', 'in', [order.storeShop, ...brandShops])
      .execute(),
    findRatesOfBrands(db, order.storeShop, brandShops),
  ])
  const isCreator = stores.some(
    (store) => store.shop === order.storeShop && store.shop_type === 'CREATOR',
  )
  if (!isCreator) return null

  return {
    order,
    currency: order.currency,
    creatorStoreShop: order.storeShop,
    lines: order.lines.map((line) => ({
      lineItemId: line.id,
      brandStoreShop: line.source?.brandStoreShop ?? null,
      brandVariantId: line.source?.brandVariantId ?? null,
      quantity: line.quantity,
      currentQuantity: line.currentQuantity,
      unitPriceMinor: line.unitPriceMinor,
      discountMinor: line.discountMinor,
    })),
    knownStores: new Set(
      stores.filter((store) => store.shop_type === 'BRAND').map((store) => store.shop),
    ),
    ...rates,
  }
}
