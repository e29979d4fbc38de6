import {
  fitsRule,
  refundUnitsRule,
  ruleSentence,
  TRANSFER_ERRORS,
  type RefundSplitPreview,
} from '@shared/contract'
import type { Db } from '../db/connect'
import { Refusal } from '../domain/errors'
import { fromHundredths } from '../domain/money'
import { refundSplit, type BrandRefundSplit, type FrozenBrandPart } from '../domain/refund-split'
import type { CommerceOrder, CreatorRefund, RefundedLine } from '../adapters/commerce/commerce-port'
import type { RouteDeps } from '../deps'
import { linkOrder, type LinkedLine, type LinkedOrder } from './linked-order'
import { loadPlanInput } from './plan-input'
import { amountsOf } from './transfer-view'
import {
  frozenLines,
  type FrozenLine,
  type StoredTransfer,
  type TransferBrandRow,
} from './transfer-repository'

// What the refunds of a creator order since its transfer take back from each brand's part, split
// as the refund job splits it (order-refunds.ts, domain/refund-split.ts), by one rule (asRefunded):
// from the units Shopify's refunds gave back, or would with more units refunded, and the parts
// frozen when the transfer ran.

type Deps = Pick<RouteDeps, 'db' | 'commerce'>

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
 * The splits of the brands whose units the order's refunds gave back, once the transfer is
 * complete (before, processing transfers only what is still sold); none when nothing was refunded.
 */
export async function refundsSinceTransfer(
  deps: Deps,
  order: LinkedOrder,
  transfer: StoredTransfer,
): Promise<BrandRefundSplit[]> {
  if (transfer.status !== 'COMPLETED') return []
  const refunded = refundedLinesOf(await deps.commerce.orderRefunds(order.storeShop, order.id))
  const splits = await splitsOf(
    deps.db,
    await asRefunded(deps.db, order, transfer, refunded),
    transfer,
  )
  return (splits ?? []).filter((split) => split.refundedUnits.length > 0)
}

/** The lines of every refund of the order. */
export const refundedLinesOf = (refunds: readonly CreatorRefund[]): RefundedLine[] =>
  refunds.flatMap((refund) => refund.lines)

/** Each frozen brand's split of the order as `order` has it; null for an order of no creator store. */
async function splitsOf(db: Db, order: LinkedOrder, transfer: StoredTransfer) {
  const input = await loadPlanInput(db, order)
  return input && refundSplit(input, transfer.brands.map(frozenPartOf))
}

/**
 * The order as far as its refunds go. A unit counts as no longer sold only when Shopify's refunds
 * gave it back (a creator's edit that refunds nobody takes nothing from the brands), or when the
 * order was cancelled. Each line belongs to the brand variant it froze as, whatever the links say
 * now; transfers frozen before lines were kept go by today's links.
 */
export async function asRefunded(
  db: Db,
  order: CommerceOrder,
  transfer: StoredTransfer,
  refunded: readonly Pick<RefundedLine, 'lineItemId' | 'quantity'>[],
): Promise<LinkedOrder> {
  const linked = await linkOrder(db, order)
  // What was transferred goes back whatever became of its listing since.
  const frozenSources = new Map<string, NonNullable<LinkedLine['source']>>()
  for (const brand of transfer.brands) {
    for (const line of JSON.parse(brand.lines) as FrozenLine[]) {
      if (line.lineItemId) {
        frozenSources.set(line.lineItemId, {
          brandStoreShop: brand.brand_store_shop,
          brandVariantId: line.brandVariantId,
          stoppedListing: null,
        })
      }
    }
  }
  return {
    ...linked,
    lines: linked.lines.map((line) => {
      const refundedUnits = refunded
        .filter((refund) => refund.lineItemId === line.id)
        .reduce((sum, refund) => sum + refund.quantity, 0)
      const removed = Math.min(line.quantity - line.currentQuantity, refundedUnits)
      return {
        ...line,
        currentQuantity: line.quantity - removed,
        source: frozenSources.size > 0 ? (frozenSources.get(line.id) ?? null) : line.source,
      }
    }),
  }
}

/** Units of one of the order's lines to refund. */
export interface RefundLine {
  lineItemId: string
  quantity: number
}

/**
 * What refunding `lines` too would take back from each party of a completed transfer, and what
 * each would keep, in the order's currency; with no lines, what the refunds already made take.
 */
export async function previewRefundSplit(
  deps: Deps,
  { order, transfer }: { order: LinkedOrder; transfer: StoredTransfer | null },
  lines: readonly RefundLine[],
): Promise<RefundSplitPreview> {
  if (transfer?.status !== 'COMPLETED') {
    throw new Refusal(
      'business_rule',
      `The transfer of creator order ${order.name} is not complete: a refund before it lowers what it transfers, and nothing goes back`,
    )
  }
  const refunded = refundedLinesOf(await deps.commerce.orderRefunds(order.storeShop, order.id))
  // The lines chosen count as a refund of theirs would: taken off the order, and refunded.
  const splits = await splitsOf(
    deps.db,
    await asRefunded(deps.db, withRefunded(order, lines), transfer, [...refunded, ...lines]),
    transfer,
  )
  if (!splits) throw new Refusal('not_found', TRANSFER_ERRORS.creatorOrderNotFound)
  const back = amountsOf(
    splits.map((split) => split.back),
    order.currency,
  )
  const kept = amountsOf(
    splits.map((split) => split.kept),
    order.currency,
  )
  return {
    currency: order.currency,
    brands: splits.map((split, index) => ({
      brandStoreShop: split.brandStoreShop,
      refundedUnits: split.refundedUnits.reduce((sum, units) => sum + units.quantity, 0),
      back: back.each[index]!,
      kept: kept.each[index]!,
    })),
    totals: {
      back: partsOfTotals(back.totals),
      kept: partsOfTotals(kept.totals),
    },
  }
}

/** The order with `lines`' units no longer sold; refused for a line it lacks or units it does not sell. */
function withRefunded(order: LinkedOrder, lines: readonly RefundLine[]): LinkedOrder {
  const left = new Map(order.lines.map((line) => [line.id, line.currentQuantity]))
  for (const { lineItemId, quantity } of lines) {
    const line = order.lines.find((each) => each.id === lineItemId)
    if (!line) {
      throw new Refusal('invalid_input', `Creator order ${order.name} has no line ${lineItemId}`)
    }
    const still = left.get(lineItemId)!
    // The console's field for these units refuses in the same words (refundUnitsRule).
    const rule = refundUnitsRule(still)
    if (!fitsRule(rule, quantity)) {
      throw new Refusal(
        'invalid_input',
        `Units to refund of ${line.title} of creator order ${order.name} ${ruleSentence(rule)}`,
      )
    }
    left.set(lineItemId, still - quantity)
  }
  return {
    ...order,
    lines: order.lines.map((line) => ({ ...line, currentQuantity: left.get(line.id)! })),
  }
}

const partsOfTotals = (totals: ReturnType<typeof amountsOf>['totals']) => ({
  brandAmount: totals.totalBrandAmount,
  creatorCommissionAmount: totals.totalCreatorCommissionAmount,
  tandemCommissionAmount: totals.totalTandemCommissionAmount,
})
