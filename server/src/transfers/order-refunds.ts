import type { Db } from '../db/connect'
import { underLeaseInTurn } from '../db/lease'
import type { RouteDeps } from '../deps'
import type { CreatorRefund, RefundedLine } from '../adapters/commerce/commerce-port'
import type { Charge } from '../adapters/payments/payments-port'
import { formatMinorUnits } from '../domain/money'
import {
  brandUnitsRefundedMinor,
  refundedBeyondUnitsMinor,
  shopifyRefundedMinor,
} from '../domain/refund-money'
import { refundSplit, type BrandRefundSplit } from '../domain/refund-split'
import type { JobExecutor, JobQueue, RegisterOptions } from '../jobs/job-queue'
import { orderJobSender, type OrderJob } from '../jobs/order-job'
import { withDeadline, type Remote } from '../lib/remote-call'
import { findCreatorPayout, reduceUnpaidCommission } from '../repositories/creator-payouts'
import { reversalsOf, type OrderReversalRow } from '../repositories/order-reversals'
import {
  recordMoreRefundNews,
  recordRefundNews,
  recordRefundsSettled,
  refundNewsOf,
} from '../repositories/refund-notices'
import { refundBrandOrder } from './brand-order-refund'
import { orderCharge, PayoutWaits } from './creator-payout-checks'
import { sendPayoutJob } from './creator-payout'
import type { PlanInput } from '../domain/transfer-plan'
import { inSettlement, type Settlement } from './order-payment'
import { reverseParty, settleUnknown } from './party-reversal'
import { beyondUnitsReason, recordRefundBeyondUnits } from './refund-beyond-units'
import { asRefunded, frozenPartOf, refundedLinesOf } from './refund-splits'
import { loadPlanInput } from './plan-input'
import { createTransferRepository, frozenLines, type StoredTransfer } from './transfer-repository'
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
// The platform's commission goes back with the customer's refund, which it received. What the
// customer got back in Stripe beyond what the refunds gave back for units, tax and shipping (a
// goodwill amount, a refund as money alone) is the creator's: it comes off her commission, and
// what that cannot carry she owes (domain/refund-money.ts).

export const ORDER_REFUND_JOB = 'order-refund'
export const ORDER_REFUND_RETRIES: RegisterOptions = { retryLimit: 8, retryDelaySeconds: 30 }

export type OrderRefundJob = OrderJob

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'payments' | 'commerce' | 'now' | 'transferTiming'>

const sendOrderRefundJob = orderJobSender(ORDER_REFUND_JOB)

/**
 * Why the order's refunds have not gone back yet, as its job's last run said (funds Stripe still
 * holds pending, the customer not yet refunded in Stripe, ...), and when it runs again (or, dead,
 * when it stopped); null when no refund of the order waits. The order's screen says it, not only
 * the Jobs page.
 */
export async function refundWaitingOf(jobs: Pick<JobQueue, 'troubled'>, creatorOrderId: string) {
  const job = (await jobs.troubled()).find(
    (troubled) =>
      troubled.name === ORDER_REFUND_JOB &&
      (troubled.payload as OrderRefundJob).creatorOrderId === creatorOrderId,
  )
  if (!job) return null
  const state = job.state === 'dead' ? ('DEAD' as const) : ('RETRYING' as const)
  return { reason: job.errorMessage, state, at: job.at.toISOString() }
}

/**
 * Within a delivery's transaction, or the catch-up's, or an order's completion: the order's
 * refunds settled by a job. Each job sent is news of them, counted (repositories/refund-notices.ts),
 * so that an order whose jobs all gave up is looked at again until one settles it.
 */
export async function sendRefundJob(
  deps: Pick<Deps, 'jobs' | 'now'>,
  trx: JobExecutor & Db,
  creatorOrderId: string,
): Promise<void> {
  await recordMoreRefundNews(trx, creatorOrderId, deps.now().toISOString())
  await sendOrderRefundJob(deps, trx, creatorOrderId)
}

/**
 * Within a refunds/create or orders/cancelled delivery's job: the order noticed, and settled now
 * if Tandem froze its transfer; one whose transfer completes later is settled then
 * (`settleNoticedRefunds`), which covers a refund that came while it was being processed.
 */
export async function noticeRefund(
  deps: Pick<Deps, 'db' | 'jobs' | 'now'>,
  creatorOrderId: string,
  storeShop: string,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await recordRefundNews(trx, { creatorOrderId, storeShop, at: deps.now().toISOString() })
    const frozen = await trx
      .selectFrom('order_transfers')
      .select('creator_order_id')
      .where('creator_order_id', '=', creatorOrderId)
      .executeTakeFirst()
    if (frozen) await sendRefundJob(deps, trx, creatorOrderId)
  })
}

/**
 * Within the transaction that completes an order: its refunds settled, if one was noticed.
 * Answers whether one was.
 */
export async function settleNoticedRefunds(
  deps: Pick<Deps, 'jobs' | 'now'>,
  trx: JobExecutor & Db,
  creatorOrderId: string,
): Promise<boolean> {
  const noticed = await trx
    .selectFrom('order_refund_notices')
    .select('creator_order_id')
    .where('creator_order_id', '=', creatorOrderId)
    .executeTakeFirst()
  if (noticed) await sendRefundJob(deps, trx, creatorOrderId)
  return noticed !== undefined
}

/** The job: everything the order's refunds and cancellation owe back, done once. */
export async function settleOrderRefunds(
  deps: Deps,
  { creatorOrderId }: OrderRefundJob,
): Promise<void> {
  // Before its transfer froze, processing transfers only what the order still sells.
  if (!(await createTransferRepository(deps.db).find(creatorOrderId))) return
  const timing = transferTiming(deps.transferTiming)
  // A cancellation sends refunds/create and orders/cancelled at once: the second job waits its turn.
  await underLeaseInTurn(
    deps.db,
    `order-refund:${creatorOrderId}`,
    { ttlMs: timing.leaseMs, now: deps.now, pollMs: 250 },
    async () => {
      const news = await refundNewsOf(deps.db, creatorOrderId)
      await settleUnderLease(deps, creatorOrderId, timing)
      // Reached only with nothing left to retry: the news this run began with is settled.
      if (news !== null) await recordRefundsSettled(deps.db, creatorOrderId, news)
    },
  )
}

async function settleUnderLease(deps: Deps, id: string, timing: ReturnType<typeof transferTiming>) {
  // Read under the lease: what the brands' steps and an earlier run recorded.
  const transfer = (await createTransferRepository(deps.db).find(id))!
  const remote: Remote = (call) => withDeadline(timing.remoteTimeoutMs, call)
  // Each party apart: one Stripe or Shopify refuses is retried without holding up the others.
  const failures: unknown[] = []
  const attempt = (work: () => Promise<void>) =>
    work().catch((error: unknown) => void failures.push(error))
  // Reversals an earlier run decided and could not settle need nothing from Shopify: settled
  // first, so that a creator's store gone since (uninstalled, erased) does not keep them unsent.
  // One that waits for pending funds, or that Stripe keeps failing, holds up neither the brands'
  // orders nor the other parties (a brand kept shipping a refunded face oil meanwhile): its
  // party's step below meets it again, and the run fails with it at the end.
  const decided = (await reversalsOf(deps.db, id)).filter((row) => row.party !== 'DEBT')
  await attempt(() => settleUnknown(deps, decided, remote, timing.failpoint))
  // Stripe before Shopify: a creator's payment app refunds the charge after Shopify recorded the
  // refund, so each refund the charge shows now is among the refunds read next. Read the other way
  // round, a refund made between the two reads (its Shopify refund, then its charge's) counted as
  // money refunded beyond the units, and the creator paid it all (a face oil's 34.50 off her 6.90).
  const charged = await chargeNow(deps, id, remote)
  const order = await remote((signal) => deps.commerce.findCreatorOrder(Number(id), { signal }))
  if (!order || order.storeShop !== transfer.creator_store_shop) {
    throw new Error(`${transfer.creator_store_shop} no longer has creator order ${id}`)
  }
  const refunds = await remote(() => deps.commerce.orderRefunds(order.storeShop, order.id))
  const refunded = refundedLinesOf(refunds)
  const input = await loadPlanInput(deps.db, await asRefunded(deps.db, order, transfer, refunded))
  if (!input) throw new Error(`${order.storeShop} is no longer a creator store`)
  const splits = refundSplit(input, transfer.brands.map(frozenPartOf))
  const beyondUnits = (charge: Charge) =>
    refundedBeyondUnitsMinor(charge.refundedMinor, refunds, order)
  if (
    splits.every((split) => split.refundedUnits.length === 0) &&
    (charged.unpaid || beyondUnits(charged.charge()) === 0)
  ) {
    // Nothing goes back: a commission whose payout waited for this look (a refund noticed before
    // the order completed) is paid now. A commission paid already is left as it is.
    if (transfer.status === 'COMPLETED') await sendPayoutJob(deps, deps.db, id)
    if (failures.length > 0) throw failures[0]
    return
  }

  // First the brands' orders: what is no longer sold must not ship while the money waits.
  const restocked = restockedVariants(input, refunded)
  for (const [i, brand] of transfer.brands.entries()) {
    const split = splits[i]!
    await attempt(() =>
      refundBrandOrder(
        deps,
        { creatorOrderId: id, brand, split, restocked },
        remote,
        timing.failpoint,
      ),
    )
  }

  const charge = charged.charge()
  checkCustomerRefunded(
    transfer,
    charge,
    { brandUnitsMinor: brandMoneyBack(transfer, input, splits, refunds), refunds },
    await refundedBeforeFreeze(deps.db, transfer),
  )
  const frozen = transfer.brands.find((brand) => brand.settlement_currency && brand.exchange_rate)
  const settlement: Settlement = frozen
    ? { currency: frozen.settlement_currency!, exchangeRate: frozen.exchange_rate! }
    : charge.settlement
  const toSettlement = (minor: number) => inSettlement(minor, transfer.currency, settlement)
  const reversals = await reversalsOf(deps.db, id)
  for (const [i, brand] of transfer.brands.entries()) {
    // A brand not paid yet is paid only what is still sold (its steps check), or refused.
    if (brand.payment_transfer_id === null) continue
    const paid = brand.brand_amount_settlement_minor ?? toSettlement(brand.brand_amount_minor)
    await attempt(() =>
      reverseParty(
        deps,
        {
          creatorOrderId: id,
          party: 'BRAND',
          storeShop: brand.brand_store_shop,
          transferId: brand.payment_transfer_id!,
          currency: settlement.currency,
          transferredMinor: paid,
          owedBackMinor: paid - toSettlement(splits[i]!.kept.brandAmountMinor),
        },
        reversals,
        remote,
        timing.failpoint,
      ),
    )
  }
  // The commission is owed from the order's completion: until then the job comes back for it.
  if (transfer.status === 'COMPLETED') {
    await attempt(() =>
      settleCommission(
        deps,
        { transfer, splits, beyondUnitsMinor: beyondUnits(charge) },
        settlement,
        reversals,
        remote,
        timing.failpoint,
      ),
    )
  } else {
    failures.push(
      new Error(
        `The transfer of creator order ${id} is not complete: its creator's commission is settled once it is`,
      ),
    )
  }
  if (failures.length > 0) throw failures[0]
}

/**
 * The order's charge as Stripe shows it now. What kept it from being read is thrown where the
 * charge is needed (`charge()`), after the brands' orders are refunded: they must not wait on
 * Stripe. `unpaid`: Tandem holds no payment of the order, so no refund through Stripe to see.
 */
async function chargeNow(deps: Deps, id: string, remote: Remote) {
  const read = await orderCharge(deps, id, remote).then(
    (charge) => ({ charge }),
    (error: unknown) => ({ error }),
  )
  return {
    unpaid: 'error' in read && read.error instanceof PayoutWaits,
    charge(): Charge {
      if ('error' in read) throw read.error
      return read.charge
    },
  }
}

/**
 * What the customer had been refunded of the charge when the transfer froze, which its figures
 * already left out: what the freeze recorded. A transfer frozen before that was recorded
 * (migration 021) reads 0 when Tandem noticed no refund of the order before it froze (a Stripe
 * refund comes with the Shopify refund that sends refunds/create), and unknown (null) otherwise.
 */
async function refundedBeforeFreeze(db: Db, transfer: StoredTransfer): Promise<number | null> {
  if (transfer.refunded_at_freeze_minor !== null) return transfer.refunded_at_freeze_minor
  const notice = await db
    .selectFrom('order_refund_notices')
    .select('noticed_at')
    .where('creator_order_id', '=', transfer.creator_order_id)
    .executeTakeFirst()
  return notice && notice.noticed_at < transfer.created_at ? null : 0
}

/**
 * What Shopify's refunds gave back for the brand units no longer sold since the freeze, each at
 * what its line's refunds gave it (domain/refund-money.ts). A cancellation takes units off that
 * no refund may have given back: they count at Tandem's base, as do lines frozen before their
 * line items were kept.
 */
function brandMoneyBack(
  transfer: StoredTransfer,
  input: PlanInput,
  splits: readonly BrandRefundSplit[],
  refunds: readonly CreatorRefund[],
): number {
  if (input.order.cancelledAt !== null) {
    return splits.reduce((sum, split) => sum + split.back.baseMinor, 0)
  }
  const soldNow = new Map(input.lines.map((line) => [line.lineItemId, line.currentQuantity]))
  return brandUnitsRefundedMinor(
    transfer.brands.map((brand, i) => ({
      lines: frozenLines(brand),
      fallbackMinor: splits[i]!.back.baseMinor,
    })),
    soldNow,
    refunds,
  )
}

/**
 * A creator controls its store, and can refund or edit an order there without the customer
 * getting a cent back: the parties give back only once Stripe (the platform's own account) shows
 * the charge refunded, since the transfer froze, by at least what Shopify's refunds gave for the
 * units no longer sold since (`owed.brandUnitsMinor`), and in all by at least all that Shopify's refunds
 * of the order say went back (a refund of the creator's own products or of shipping does not
 * stand for a brand unit's). A refund made before the freeze paid for units the transfer never
 * counted, and covers none after it. Until then the job is retried, and when it stops retrying
 * the Jobs page names the order.
 */
function checkCustomerRefunded(
  transfer: StoredTransfer,
  charge: Charge,
  owed: { brandUnitsMinor: number; refunds: readonly CreatorRefund[] },
  refundedAtFreezeMinor: number | null,
) {
  const backMinor = owed.brandUnitsMinor
  const { currency, creator_order_id: id } = transfer
  const money = (minor: number) => `${formatMinorUnits(minor, currency)} ${currency}`
  if (charge.currency !== currency) {
    throw new Error(
      `Charge ${charge.id} is in ${charge.currency}, creator order ${id} in ${currency}: review the order's payment in Stripe`,
    )
  }
  // Units nobody paid for (free lines, a transfer frozen with no payment read) need no refund.
  if (backMinor === 0) return
  if (refundedAtFreezeMinor === null) {
    throw new Error(
      `The transfer of creator order ${id} froze before Tandem recorded what its customer had been refunded, and a refund of it came before: nothing goes back by itself. Check in Stripe that charge ${charge.id} was refunded, since the transfer, at least the ${money(backMinor)} the units refunded since cost, and reverse the brands' and creator's shares by hand`,
    )
  }
  const sinceMinor = charge.refundedMinor - refundedAtFreezeMinor
  if (sinceMinor < backMinor) {
    throw new Error(
      `Stripe shows ${money(Math.max(sinceMinor, 0))} refunded of charge ${charge.id} since the transfer of creator order ${id} (${money(charge.refundedMinor)} in all), less than the ${money(backMinor)} Shopify's refunds gave back for the brands' units refunded since: nothing goes back until the customer is refunded`,
    )
  }
  const shopifyMinor = shopifyRefundedMinor(owed.refunds)
  if (charge.refundedMinor < shopifyMinor) {
    throw new Error(
      `Stripe shows ${money(charge.refundedMinor)} refunded of charge ${charge.id} in all, less than the ${money(shopifyMinor)} the refunds of creator order ${id} gave back in Shopify: nothing goes back from the brands until the customer is refunded all of it`,
    )
  }
}

/**
 * The creator's commission: reversed once paid; lowered while unpaid and no transfer of it is
 * under way (the payout then pays what is left); waited for while one is. What the customer got
 * back beyond the units refunded (`beyondUnitsMinor`) is the creator's to pay, not the
 * platform's: it comes off her commission too, and what her transfer cannot carry is owed by her.
 */
async function settleCommission(
  deps: Deps,
  {
    transfer,
    splits,
    beyondUnitsMinor,
  }: { transfer: StoredTransfer; splits: BrandRefundSplit[]; beyondUnitsMinor: number },
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
  const beyondSettlementMinor = inSettlement(beyondUnitsMinor, transfer.currency, settlement)
  const beyond = `${formatMinorUnits(beyondUnitsMinor, transfer.currency)} ${transfer.currency}`
  if (beyondUnitsMinor > 0) await recordRefundBeyondUnits(deps, id, beyond)
  if (payout.paid_at === null) {
    const lowered = await reduceUnpaidCommission(deps.db, id, {
      amountMinor: Math.max(keptMinor - beyondUnitsMinor, 0),
      settlementCurrency: settlement.currency,
      amountSettlementMinor: Math.max(keptSettlementMinor - beyondSettlementMinor, 0),
      now: deps.now().toISOString(),
    })
    if (!lowered) {
      throw new Error(
        `The commission of creator order ${id} is being paid: its refund is settled once Stripe answered`,
      )
    }
    // What is left is paid now (an order completed after its refund waits for this).
    await sendPayoutJob(deps, deps.db, id)
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
      transferredMinor: payout.amount_settlement_minor,
      owedBackMinor: payout.amount_settlement_minor - keptSettlementMinor + beyondSettlementMinor,
      beyondTransfer: beyondUnitsReason(id, beyond),
    },
    reversals,
    remote,
    failpoint,
  )
}

/** The brand variants of which the creator's refunds put units back in stock. */
function restockedVariants(input: PlanInput, refunded: readonly RefundedLine[]): Set<string> {
  const restocked = new Set<string>()
  for (const refund of refunded) {
    if (!refund.restocked) continue
    const line = input.lines.find((candidate) => candidate.lineItemId === refund.lineItemId)
    if (line?.brandVariantId) restocked.add(line.brandVariantId)
  }
  return restocked
}
