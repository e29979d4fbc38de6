import { TRANSFER_ERRORS } from '@shared/contract'
import type { RouteDeps } from '../deps'
import { NeedsAttention, NothingToTransfer } from '../domain/attention'
import type { PriceShortfall } from '../domain/catalogue-check'
import { Refusal } from '../domain/errors'
import {
  frozenUnitsStillSold,
  planTransfer,
  resumeRefusal,
  type BrandPlan,
  type StillSold,
} from '../domain/transfer-plan'
import { findAcceptedShortfalls } from '../repositories/price-exceptions'
import { checkLinesAgainstCatalogues } from './catalogue-checks'
import { fraudReasons } from './fraud-check'
import { linkOrder, type LinkedOrder } from './linked-order'
import { orderNumber } from '../adapters/commerce/shopify/order-gid'
import { readOrderCharge } from './order-payment'
import { loadPlanInput } from './plan-input'
import { readMoneyTrail } from './money-trail'
import { refundsSinceTransfer } from './refund-splits'
import { upstreamRefusal, type Remote } from '../lib/remote-call'
import {
  frozenLines,
  type createTransferRepository,
  type TransferBrandRow,
} from './transfer-repository'
import { settledFiguresOf, type TransferView } from './transfer-view'

// What a creator order's transfer would be, or is: the order as Shopify has it with Tandem's
// links, its plan checked against the brands' stores (refused whole when a line fails), and, once
// frozen, the figures that processing keeps to. Preview, receipt, processing and price exceptions
// all read an order through this, and no transfer starts or goes on while Shopify finds a risk of
// fraud on it that no administrator released (fraud-check.ts).

/** How much of a frozen brand's units the order still sells. */
export type StillSoldOf = (brand: TransferBrandRow) => StillSold

export function createTransferPlanning(
  deps: Pick<RouteDeps, 'db' | 'commerce' | 'payments'>,
  transfers: ReturnType<typeof createTransferRepository>,
  remote: Remote,
) {
  /** The order and its transfer, if processing ever started; 404 for an unknown order. */
  async function loadOrder(creatorOrderId: string) {
    const id = orderNumber(creatorOrderId)
    const [order, transfer] =
      id === null
        ? [null, null]
        : await Promise.all([
            remote((signal) => deps.commerce.findCreatorOrder(id, { signal })).catch(
              (error: unknown) => {
                throw upstreamRefusal('Creator order lookup failed', 'commerce platform', error)
              },
            ),
            transfers.find(String(id)),
          ])
    if (!order) throw new Refusal('not_found', TRANSFER_ERRORS.creatorOrderNotFound)
    return { order: await linkOrder(deps.db, order), transfer }
  }

  /**
   * The per-brand figures of an order that was never processed, from Tandem's own records alone
   * (nothing asked of Shopify or Stripe); 404 or 422 when there are none.
   */
  async function draft(order: LinkedOrder): Promise<BrandPlan[]> {
    const input = await loadPlanInput(deps.db, order)
    if (!input) throw new Refusal('not_found', TRANSFER_ERRORS.creatorOrderNotFound)
    const result = planTransfer(input)
    if (!result.ok) {
      throw result.error === 'nothingToTransfer'
        ? new NothingToTransfer(result.message)
        : new NeedsAttention([result.reason])
    }
    return result.brands
  }

  /**
   * The per-brand figures (`draft`'s), and what is wrong with the order's lines as the brands'
   * stores sell them, less `accepted`.
   */
  async function planAndCheck(
    order: LinkedOrder,
    accepted: readonly PriceShortfall[],
    drafted: BrandPlan[] | null = null,
  ) {
    const brands = drafted ?? (await draft(order))
    const failures = await checkLinesAgainstCatalogues(
      { commerce: deps.commerce, remote },
      order,
      brands,
      accepted,
      () => chargeSettlement(order),
    )
    return { brands, failures }
  }

  /**
   * How the order's charge settled (Stripe's rate into the platform's currency), for comparing
   * its prices with a brand's in that currency; null when the order has no payment to read.
   */
  async function chargeSettlement(order: LinkedOrder) {
    if (!order.paymentIntentId) return null
    // Its charge only: what the charge still holds is processing's to read.
    const charge = await readOrderCharge(
      { db: deps.db, payments: deps.payments, remote },
      order,
      order.paymentIntentId,
    ).catch((error: unknown) => {
      throw upstreamRefusal('Payment intent lookup failed', 'payment provider', error)
    })
    return 'settlement' in charge ? charge.settlement : null
  }

  /**
   * The plan (`drafted` when given), refused whole when Shopify found a risk of fraud on the order
   * or a line fails the catalogue checks: no brand is ordered or paid.
   */
  async function plan(
    order: LinkedOrder,
    drafted: BrandPlan[] | null = null,
  ): Promise<BrandPlan[]> {
    // The fraud read beside the catalogue checks' reads, rather than one more round of Shopify's
    // latency before them; its refusal still comes first when both refuse.
    const [fraudRead, checked] = await Promise.allSettled([
      fraudReasons(deps, remote, order),
      findAcceptedShortfalls(deps.db, String(order.id)).then((accepted) =>
        planAndCheck(order, accepted, drafted),
      ),
    ])
    if (fraudRead.status === 'rejected') throw fraudRead.reason
    if (checked.status === 'rejected') throw checked.reason
    const fraud = fraudRead.value
    const { brands, failures } = checked.value
    if (fraud.length + failures.length > 0) throw new NeedsAttention([...fraud, ...failures])
    return brands
  }

  /** A transfer frozen earlier goes on only while Shopify finds no risk of fraud not released. */
  async function refuseFraud(order: LinkedOrder): Promise<void> {
    const fraud = await fraudReasons(deps, remote, order)
    if (fraud.length > 0) throw new NeedsAttention(fraud)
  }

  /**
   * Before a transfer frozen earlier goes on: the order still paid (422 otherwise, and nothing
   * more is done), and how much of each brand's frozen units it still sells. A cancelled or
   * refunded order goes on brand by brand, so that no brand is left without an answer.
   */
  async function stillSoldOf(order: LinkedOrder): Promise<StillSoldOf> {
    const refusal = resumeRefusal(order)
    if (refusal !== null) throw new Refusal('business_rule', refusal)
    const input = await loadPlanInput(deps.db, order)
    if (!input) throw new Refusal('not_found', TRANSFER_ERRORS.creatorOrderNotFound)
    return (brand) => frozenUnitsStillSold(input, brand.brand_store_shop, frozenLines(brand))
  }

  /** Frozen figures once processing started (later rate changes never show); else the plan. */
  async function view(creatorOrderId: string): Promise<TransferView> {
    const { order, transfer } = await loadOrder(creatorOrderId)
    if (transfer) {
      const [moneyTrail, refunds] = await Promise.all([
        readMoneyTrail(deps.db, transfer),
        refundsSinceTransfer(deps, order, transfer),
      ])
      return {
        order,
        status: transfer.status,
        processedAt: transfer.processed_at,
        brands: transfer.brands.map((brand) => ({
          brandStoreShop: brand.brand_store_shop,
          brandOrderId: brand.brand_order_id,
          brandAmountMinor: brand.brand_amount_minor,
          creatorCommissionMinor: brand.creator_commission_minor,
          tandemCommissionMinor: brand.tandem_commission_minor,
          settlement: settledFiguresOf(brand),
        })),
        moneyTrail,
        refunds,
      }
    }
    const brands = await plan(order)
    return {
      order,
      status: 'NOT_STARTED',
      processedAt: null,
      brands: brands.map((brand) => ({ ...brand, brandOrderId: null })),
      moneyTrail: [],
      refunds: [],
    }
  }

  return { loadOrder, draft, planAndCheck, plan, refuseFraud, stillSoldOf, view }
}

export type TransferPlanning = ReturnType<typeof createTransferPlanning>
