import { underLease } from '../db/lease'
import type { RouteDeps } from '../deps'
import type { Charge } from '../adapters/payments/payments-port'
import { formatMinorUnits, fromHundredths } from '../domain/money'
import { refundSplit, type BrandRefundSplit, type FrozenBrandPart } from '../domain/refund-split'
import type { JobExecutor, RegisterOptions } from '../jobs/job-queue'
import { withDeadline, type Remote } from '../lib/remote-call'
import { findCreatorPayout, reduceUnpaidCommission } from '../repositories/creator-payouts'
import { reversalsOf, type OrderReversalRow } from '../repositories/order-reversals'
import { refundBrandOrder } from './brand-order-refund'
import { orderCharge } from './creator-payout-checks'
import { linkOrder, type LinkedOrder } from './linked-order'
import { inSettlement, type Settlement } from './order-payment'
import { reverseParty } from './party-reversal'
import { loadPlanInput } from './plan-input'
import {
  createTransferRepository,
  type FrozenLine,
  type StoredTransfer,
  type TransferBrandRow,
} from './transfer-repository'
import { transferTiming } from './transfer-timing'

// After the sale (docs/integrations.md "After the sale"): a creator order refunded or cancelled
// after its transfer gives back, per brand, what its transfer paid for the units no longer sold, at
// the rates frozen then and with the same rounding (domain/refund-split.ts). The job is sent by a
// refunds/create or orders/cancelled delivery, whose word is only a reason to look: it reads the
// order from the creator's Shopify, and what it does is what the order as it stands says is owed
// back less what went back already. So it bears running any number of times, in any order:
// - each brand's transfer and the creator's paid commission are reversed (party-reversal.ts);
// - a commission not yet paid is lowered, under the payout's own fence;
// - each brand's order refunds the same units, or is cancelled (brand-order-refund.ts).
// The platform's commission goes back with the customer's refund, which it received.

export const ORDER_REFUND_JOB = 'order-refund'
export const ORDER_REFUND_RETRIES: RegisterOptions = { retryLimit: 8, retryDelaySeconds: 30 }

export interface OrderRefundJob {
  creatorOrderId: string
}

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'payments' | 'commerce' | 'now' | 'transferTiming'>

/** Within a delivery's transaction, or the catch-up's: the order's refunds settled by a job. */
export const sendRefundJob = (
  deps: Pick<Deps, 'jobs'>,
  within: JobExecutor,
  creatorOrderId: string,
) => deps.jobs.send(ORDER_REFUND_JOB, { creatorOrderId } satisfies OrderRefundJob, { within })

/** The job: everything the order's refunds and cancellation owe back, done once. */
export async function settleOrderRefunds(
  deps: Deps,
  { creatorOrderId }: OrderRefundJob,
): Promise<void> {
  const transfer = await createTransferRepository(deps.db).find(creatorOrderId)
  // Before its transfer, processing transfers only what the order still sells.
  if (!transfer) return
  if (transfer.status !== 'COMPLETED') {
    throw new Error(
      `The transfer of creator order ${creatorOrderId} is not complete: its refunds are settled once it is`,
    )
  }
  const timing = transferTiming(deps.transferTiming)
  const taken = await underLease(
    deps.db,
    `order-refund:${creatorOrderId}`,
    { ttlMs: timing.leaseMs, now: deps.now },
    () => settleUnderLease(deps, transfer, timing),
  )
  if (!taken) {
    throw new Error(
      `The refunds of creator order ${creatorOrderId} are being settled by another run`,
    )
  }
}

async function settleUnderLease(
  deps: Deps,
  transfer: StoredTransfer,
  timing: ReturnType<typeof transferTiming>,
) {
  const id = transfer.creator_order_id
  const remote: Remote = (call) => withDeadline(timing.remoteTimeoutMs, call)
  const order = await remote(() => deps.commerce.findCreatorOrder(Number(id)))
  if (!order || order.storeShop !== transfer.creator_store_shop) {
    throw new Error(`${transfer.creator_store_shop} no longer has creator order ${id}`)
  }
  const linked = await linkOrder(deps.db, order)
  const input = await loadPlanInput(deps.db, linked)
  if (!input) throw new Error(`${order.storeShop} is no longer a creator store`)
  const splits = refundSplit(input, transfer.brands.map(frozenPart))
  if (splits.every((split) => split.refundedUnits.length === 0)) return

  const charge = await orderCharge(deps, id, remote)
  checkCustomerRefunded(transfer, charge, splits)
  const frozen = transfer.brands.find((brand) => brand.settlement_currency && brand.exchange_rate)
  const settlement: Settlement = frozen
    ? { currency: frozen.settlement_currency!, exchangeRate: frozen.exchange_rate! }
    : charge.settlement
  const toSettlement = (minor: number) => inSettlement(minor, transfer.currency, settlement)
  const reversals = await reversalsOf(deps.db, id)
  for (const [i, brand] of transfer.brands.entries()) {
    if (brand.payment_transfer_id === null) continue
    const paid = brand.brand_amount_settlement_minor ?? toSettlement(brand.brand_amount_minor)
    await reverseParty(
      deps,
      {
        creatorOrderId: id,
        party: 'BRAND',
        storeShop: brand.brand_store_shop,
        transferId: brand.payment_transfer_id,
        currency: settlement.currency,
        owedBackMinor: paid - toSettlement(splits[i]!.kept.brandAmountMinor),
      },
      reversals,
      remote,
      timing.failpoint,
    )
  }
  await settleCommission(deps, transfer, splits, settlement, reversals, remote, timing.failpoint)

  const restocked = await restockedVariants(deps, linked, remote)
  for (const [i, brand] of transfer.brands.entries()) {
    const split = splits[i]!
    await refundBrandOrder(
      deps,
      { creatorOrderId: id, brand, split, restocked },
      remote,
      timing.failpoint,
    )
  }
}

/** A brand's part of the transfer as it froze. */
function frozenPart(brand: TransferBrandRow): FrozenBrandPart {
  return {
    brandStoreShop: brand.brand_store_shop,
    lines: JSON.parse(brand.lines) as FrozenLine[],
    rates: {
      tandemRate: fromHundredths(Number(brand.tandem_rate_hundredths)),
      creatorRate: fromHundredths(Number(brand.creator_rate_hundredths)),
    },
    baseMinor: brand.base_minor,
    brandAmountMinor: brand.brand_amount_minor,
    creatorCommissionMinor: brand.creator_commission_minor,
    tandemCommissionMinor: brand.tandem_commission_minor,
  }
}

/**
 * A creator controls its store, and can refund or edit an order there without the customer
 * getting a cent back: the parties give back only once Stripe (the platform's own account) shows
 * the charge refunded by at least what the units no longer sold cost. Until then the job is
 * retried, and when it stops retrying the Jobs page names the order.
 */
function checkCustomerRefunded(
  transfer: StoredTransfer,
  charge: Charge,
  splits: BrandRefundSplit[],
) {
  const backMinor = splits.reduce((sum, split) => sum + split.back.baseMinor, 0)
  const { currency } = transfer
  if (charge.currency !== currency) {
    throw new Error(
      `Charge ${charge.id} is in ${charge.currency}, creator order ${transfer.creator_order_id} in ${currency}: review the order's payment in Stripe`,
    )
  }
  if (charge.refundedMinor < backMinor) {
    throw new Error(
      `Stripe shows ${formatMinorUnits(charge.refundedMinor, currency)} ${currency} refunded of charge ${charge.id}, less than the ${formatMinorUnits(backMinor, currency)} ${currency} the refunded units of creator order ${transfer.creator_order_id} cost: nothing goes back until the customer is refunded`,
    )
  }
}

/**
 * The creator's commission: reversed once paid; lowered while unpaid and no transfer of it is
 * under way (the payout then pays what is left); waited for while one is.
 */
async function settleCommission(
  deps: Deps,
  transfer: StoredTransfer,
  splits: BrandRefundSplit[],
  settlement: Settlement,
  reversals: readonly OrderReversalRow[],
  remote: Remote,
  failpoint: (name: string) => Promise<void>,
) {
  const id = transfer.creator_order_id
  const payout = await findCreatorPayout(deps.db, id)
  if (!payout) return
  const keptMinor = splits.reduce((sum, split) => sum + split.kept.creatorCommissionMinor, 0)
  // Converted brand by brand, as the commission it was paid was (settledCommission).
  const keptSettlementMinor = splits.reduce(
    (sum, split) =>
      sum + inSettlement(split.kept.creatorCommissionMinor, transfer.currency, settlement),
    0,
  )
  if (payout.paid_at === null) {
    const lowered = await reduceUnpaidCommission(deps.db, id, {
      amountMinor: keptMinor,
      settlementCurrency: settlement.currency,
      amountSettlementMinor: keptSettlementMinor,
      now: deps.now().toISOString(),
    })
    if (!lowered) {
      throw new Error(
        `The commission of creator order ${id} is being paid: its refund is settled once Stripe answered`,
      )
    }
    return
  }
  if (payout.payment_transfer_id === null || payout.amount_settlement_minor === null) return
  await reverseParty(
    deps,
    {
      creatorOrderId: id,
      party: 'CREATOR',
      storeShop: payout.creator_store_shop,
      transferId: payout.payment_transfer_id,
      currency: payout.settlement_currency!,
      owedBackMinor: payout.amount_settlement_minor - keptSettlementMinor,
    },
    reversals,
    remote,
    failpoint,
  )
}

/** The brand variants of which the creator's refunds put units back in stock. */
async function restockedVariants(
  deps: Deps,
  order: LinkedOrder,
  remote: Remote,
): Promise<Set<string>> {
  const lines = await remote(() => deps.commerce.refundedLines(order.storeShop, order.id))
  const restocked = new Set<string>()
  for (const refunded of lines) {
    if (!refunded.restocked) continue
    const source = order.lines.find((line) => line.id === refunded.lineItemId)?.source
    if (source) restocked.add(source.brandVariantId)
  }
  return restocked
}
