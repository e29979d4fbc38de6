import type { CommerceOrder, CommerceOrderLine } from '../adapters/commerce/commerce-port'
import type { Db } from '../db/connect'
import { findVariantLinks } from '../repositories/variant-links'

// A creator order with each line's brand variant as Tandem linked it. Preview, receipt and
// processing all see an order through this, so what a brand is asked to ship is never what the
// creator's store says its variant stands for.

export interface LinkedLine extends CommerceOrderLine {
  /** The brand variant Tandem linked the line's variant to; null for the creator's own products. */
  source: { brandStoreShop: string; brandVariantId: string } | null
}

export interface LinkedOrder extends Omit<CommerceOrder, 'lines'> {
  lines: LinkedLine[]
}

export async function linkOrder(db: Db, order: CommerceOrder): Promise<LinkedOrder> {
  const variantIds = order.lines.flatMap((line) => (line.variantId ? [line.variantId] : []))
  const links = await findVariantLinks(db, order.storeShop, [...new Set(variantIds)])
  return {
    ...order,
    lines: order.lines.map((line) => {
      const link = line.variantId ? links.get(line.variantId) : undefined
      return {
        ...line,
        source: link
          ? { brandStoreShop: link.brandStoreShop, brandVariantId: link.brandVariantId }
          : null,
      }
    }),
  }
}
