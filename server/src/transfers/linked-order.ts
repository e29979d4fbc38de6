import type { CommerceOrder, CommerceOrderLine } from '../adapters/commerce/commerce-port'
import type { Db } from '../db/connect'
import { stoppedListingsOf } from '../catalog/listings-repository'
import { findVariantLinks } from '../repositories/variant-links'

// A creator order with each line's brand variant as Tandem linked it. Preview, receipt and
// processing all see an order through this, so what a brand is asked to ship is never what the
// creator's store says its variant stands for.

export interface LinkedLine extends CommerceOrderLine {
  /**
   * The brand variant Tandem linked the line's variant to, and its listing when an administrator
   * paused or removed it; null for the creator's own products.
   */
  source: {
    brandStoreShop: string
    brandVariantId: string
    stoppedListing: 'PAUSED' | 'REMOVED' | null
  } | null
}

export interface LinkedOrder extends Omit<CommerceOrder, 'lines'> {
  lines: LinkedLine[]
}

export async function linkOrder(db: Db, order: CommerceOrder): Promise<LinkedOrder> {
  const variantIds = order.lines.flatMap((line) => (line.variantId ? [line.variantId] : []))
  const ids = [...new Set(variantIds)]
  const links = await findVariantLinks(db, order.storeShop, ids)
  const stopped = await stoppedListingsOf(db, ids)
  return {
    ...order,
    lines: order.lines.map((line) => {
      const link = line.variantId ? links.get(line.variantId) : undefined
      return {
        ...line,
        source: link
          ? {
              brandStoreShop: link.brandStoreShop,
              brandVariantId: link.brandVariantId,
              stoppedListing: stopped.get(link.creatorVariantId)?.status ?? null,
            }
          : null,
      }
    }),
  }
}
