import type { Db } from '../db/connect'
import { fromHundredths } from '../domain/money'
import { refundSplit, type BrandRefundSplit, type FrozenBrandPart } from '../domain/refund-split'
import type { LinkedOrder } from './linked-order'
import { loadPlanInput } from './plan-input'
import { frozenLines, type StoredTransfer, type TransferBrandRow } from './transfer-repository'

// What the refunds of a creator order since its transfer take back from each brand's part, split
// as the refund job splits it (order-refunds.ts, domain/refund-split.ts): from the order as Shopify
// has it now and the parts frozen when the transfer ran.

/** A brand's part of the transfer as it froze. */
export function frozenPartOf(brand: TransferBrandRow): FrozenBrandPart {
  return {
    brandStoreShop: brand.brand_store_shop,
    lines: frozenLines(brand),
    rates: {
      tandemRate: fromHundredths(brand.tandem_rate_hundredths),
      creatorRate: fromHundredths(brand.creator_rate_hundredths),
    },
    baseMinor: brand.base_minor,
    brandAmountMinor: brand.brand_amount_minor,
    creatorCommissionMinor: brand.creator_commission_minor,
    tandemCommissionMinor: brand.tandem_commission_minor,
  }
}

/**
 * The splits of the brands whose units the order no longer sells, once the transfer is complete
 * (before, processing transfers only what is still sold); none when nothing was refunded.
 */
export async function refundsSinceTransfer(
  db: Db,
  order: LinkedOrder,
  transfer: StoredTransfer,
): Promise<BrandRefundSplit[]> {
  if (transfer.status !== 'COMPLETED') return []
  const input = await loadPlanInput(db, order)
  if (!input) return []
  return refundSplit(input, transfer.brands.map(frozenPartOf)).filter(
    (split) => split.refundedUnits.length > 0,
  )
}
