import { TRANSFER_ERRORS, type CallAnswer } from '@shared/contract'
import type { RouteDeps } from '../deps'
import { NothingToTransfer } from '../domain/attention'
import { Refusal } from '../domain/errors'
import { toHundredths } from '../domain/money'
import type { BrandPlan } from '../domain/transfer-plan'
import type { LinkedOrder } from './linked-order'
import { orderGid } from '../adapters/commerce/shopify/order-gid'
import { brandProcessing, owesTransfer, toPay, type StepDeps } from './brand-steps'
import { payoutChecks, type BrandToPay } from './payout-checks'
import {
  holdPaymentIntent,
  readOrderCharge,
  settledFigures,
  settlementColumns,
  type OrderPayment,
} from './order-payment'
import { acceptPriceException } from './price-exception'
import { releaseFraudCheck } from './fraud-check'
import { settleWithLimit, withDeadline, type Remote } from '../lib/remote-call'
import { overtakenAnswer, transferClaims } from './transfer-claim'
import {
  createTransferRepository,
  isOwedNothing,
  LeaseLostError,
  type StoredTransfer,
} from './transfer-repository'
import { createTransferPlanning, type StillSoldOf } from './transfer-planning'
import { transferTiming } from './transfer-timing'
import { creatorOrderOf, previewOf, receiptDataOf, type TransferView } from './transfer-view'
import { owePayoutOnCompletion } from './creator-payout'
import { collectDebtsOf } from './store-debt'
import { refundWaitingOf, settleNoticedRefunds } from './order-refunds'
import { previewRefundSplit, type RefundLine } from './refund-splits'

// Processing a creator order into brand orders and payments, exactly once whatever fails
// (docs/integrations.md "Exactly-once transfers"). Each remote step records its intent before the
// call and its result after, under a lease that every write names; a step whose intent is still
// recorded on the next attempt had an unknown outcome, and is reconciled (brand order found by its
// tag, paid status read, transfer found by its group) before it is acted on again.
//
// This is the entry point: it checks and freezes what a first attempt will pay, then runs every
// brand under the claim. The claim and its lease are transfer-claim.ts's, one brand's steps
// brand-steps.ts's, and finding out what an earlier attempt did step-reconciliation.ts's.

type ProcessAnswer = CallAnswer<'adminCreateOrderTransfer'>

/** Who processes, and where what happened under their lease is recorded (the audit log). */
export interface TransferActor {
  adminEmail: string | null
  /** Must not throw: the outcome stands whether or not its record could be written. */
  audit: (creatorOrderId: string, details: Record<string, unknown>) => Promise<void>
  /**
   * Refuses (throws) before anything is asked of Stripe or made, given the brands the attempt
   * would still order from or pay: automatic processing stops at a paused brand; an
   * administrator's click has no such check.
   */
  checkBrands?: (brandStoreShops: readonly string[]) => Promise<void>
}

/**
 * The brands owed a transfer, from the frozen transfer (those whose units are all still sold)
 * or, on a first attempt, from the plan.
 */
function brandsToPay(
  transfer: StoredTransfer | null,
  planned: BrandPlan[] | null,
  stillSold: StillSoldOf,
): BrandToPay[] {
  if (transfer) {
    return transfer.brands
      .filter((brand) => owesTransfer(brand) && stillSold(brand) === 'all')
      .map(toPay)
  }
  return (planned ?? [])
    .filter((brand) => brand.brandAmountMinor > 0)
    .map((brand) => ({
      shop: brand.brandStoreShop,
      amountMinor: brand.brandAmountMinor,
      settlementMinor: null,
      unknownOutcome: null,
    }))
}

/**
 * The brands the attempt would still order from, mark paid or pay, whatever they are owed (a
 * brand whose lines are all free is ordered all the same): a pause covers each.
 */
function brandsToReach(
  transfer: StoredTransfer | null,
  planned: BrandPlan[] | null,
  stillSold: StillSoldOf,
): string[] {
  if (!transfer) return (planned ?? []).map((brand) => brand.brandStoreShop)
  return transfer.brands
    .filter(
      (brand) =>
        !isOwedNothing(brand) &&
        stillSold(brand) === 'all' &&
        (brand.brand_order_id === null || brand.paid_at === null || owesTransfer(brand)),
    )
    .map((brand) => brand.brand_store_shop)
}

export function createTransferService(
  deps: Pick<RouteDeps, 'db' | 'jobs' | 'commerce' | 'payments' | 'now' | 'transferTiming'> &
    Partial<Pick<RouteDeps, 'previewCache'>>,
) {
  const transfers = createTransferRepository(deps.db)
  const timing = transferTiming(deps.transferTiming)
  const timestamp = () => deps.now().toISOString()
  const remote = <T>(call: (signal: AbortSignal) => Promise<T>) =>
    withDeadline(timing.remoteTimeoutMs, call)
  /** A read's remote calls, stopped once its caller stops waiting (`caller` aborts). */
  const readFor =
    (caller: AbortSignal | undefined): Remote =>
    (call) =>
      withDeadline(timing.remoteTimeoutMs, call, caller)
  const claims = transferClaims(deps, transfers, timing.leaseMs)
  const steps: StepDeps = {
    commerce: deps.commerce,
    payments: deps.payments,
    timing,
    remote,
    timestamp,
  }

  // Processing, refunds' splits and price exceptions read Shopify and Stripe fresh; only what an
  // administrator looks at (preview, receipt, the inbox's readiness) reads through the cache.
  const planning = createTransferPlanning(deps, transfers, remote)
  const { loadOrder, plan, stillSoldOf } = planning
  const previewDeps = deps.previewCache
    ? {
        ...deps,
        commerce: deps.previewCache.reads(deps.commerce),
        payments: deps.previewCache.payments(deps.payments),
      }
    : deps
  /** What an administrator looks at, read through `viewDeps` for a caller who may stop waiting. */
  const viewThrough =
    (viewDeps: typeof deps) => (creatorOrderId: string, caller: AbortSignal | undefined) =>
      createTransferPlanning(viewDeps, transfers, readFor(caller)).view(creatorOrderId)
  const view = viewThrough(previewDeps)
  // The inbox's readiness reads what Shopify found of fraud through the cache too (preview-cache.ts).
  const readinessView = viewThrough(
    deps.previewCache
      ? { ...previewDeps, commerce: deps.previewCache.readinessReads(deps.commerce) }
      : deps,
  )

  /**
   * Freezes the figures on the first attempt, in the order's currency and in the one its charge
   * settled in, with what the order's refunds had given back when it was read, and holds the
   * order's PaymentIntent for it; a concurrent first attempt's figures stand.
   */
  async function freeze(
    order: LinkedOrder,
    brands: BrandPlan[],
    payment: OrderPayment | null,
  ): Promise<void> {
    const intentId = payment && order.paymentIntentId
    await transfers.createIfAbsent(
      {
        creator_order_id: String(order.id),
        creator_store_shop: order.storeShop,
        currency: order.currency,
        // The refunds' money as the read the figures come from showed it: their units are left out
        // of the figures, and the customer's refunds since are measured from it. Stripe's
        // refunded amount, read moments later, may already hold a refund whose units were sold.
        refunded_at_freeze_minor: order.refundedMinor,
      },
      brands.map((brand) => ({
        brand_store_shop: brand.brandStoreShop,
        base_minor: brand.baseMinor,
        tandem_rate_hundredths: toHundredths(brand.tandemRate),
        creator_rate_hundredths: toHundredths(brand.creatorRate),
        creator_commission_minor: brand.creatorCommissionMinor,
        tandem_commission_minor: brand.tandemCommissionMinor,
        brand_amount_minor: brand.brandAmountMinor,
        ...settlementColumns(brand, order.currency, payment?.settlement ?? null),
        lines: brand.lines.map(({ brandVariantId, quantity, lineItemId }) => ({
          brandVariantId,
          quantity,
          lineItemId,
        })),
      })),
      timestamp(),
      (trx) =>
        intentId
          ? holdPaymentIntent(
              trx,
              intentId,
              { creatorOrderId: String(order.id), storeShop: order.storeShop },
              timestamp(),
            )
          : Promise.resolve(),
    )
  }

  /**
   * A plan's figures also in the currency its charge settled in, as processing would freeze them
   * (Stripe's charge, read through the preview cache), so that an administrator sees what the transfers will move. An
   * order without a charge Tandem can use has none: processing says why.
   */
  async function withSettlement(
    transfer: TransferView,
    caller: AbortSignal | undefined,
  ): Promise<TransferView> {
    const intentId = transfer.order.paymentIntentId
    if (transfer.status !== 'NOT_STARTED' || !intentId) return transfer
    const charge = await readOrderCharge(
      { db: deps.db, payments: previewDeps.payments, remote: readFor(caller) },
      transfer.order,
      intentId,
    ).catch((error: unknown) => {
      if (error instanceof Refusal) return null
      throw error
    })
    if (!charge || 'refusal' in charge) return transfer
    const { currency } = transfer.order
    return {
      ...transfer,
      brands: transfer.brands.map((brand) => ({
        ...brand,
        settlement: settledFigures(brand, currency, charge.settlement),
      })),
    }
  }

  /**
   * What an attempt checks before it claims the transfer: the order still sold and free of fraud,
   * its plan against the brands' stores, every brand still owed payable; then the figures frozen
   * on a first attempt. Answers what the brands' steps need.
   */
  async function checkAndFreeze(
    order: LinkedOrder,
    existing: StoredTransfer | null,
    actor: TransferActor,
  ) {
    const stillSold: StillSoldOf = existing ? await stillSoldOf(order) : () => 'all'
    if (existing) await planning.refuseFraud(order)
    // A first attempt's figures, from Tandem's records; when there are none, the plan says why
    // (a risk of fraud Shopify found comes first).
    const drafted = existing
      ? null
      : await planning.draft(order).catch(async (error: unknown) => {
          await plan(order)
          throw error
        })
    // Whether every brand still owed can be paid, before anything is frozen or ordered: asked of
    // Stripe (once no brand is paused) while Shopify is asked about the plan, and refused after
    // the plan's refusals.
    const paying = async () => {
      const owed = brandsToPay(existing, drafted, stillSold)
      await actor.checkBrands?.(brandsToReach(existing, drafted, stillSold))
      const payout = payoutChecks({ db: deps.db, payments: deps.payments, remote }, order)
      const refused = (await settleWithLimit(owed, timing.brandConcurrency, payout)).find(
        (outcome) => outcome.status === 'rejected',
      )
      if (refused) throw refused.reason
      const creatorOwed = drafted?.some((brand) => brand.creatorCommissionMinor > 0) ?? false
      return { payout, payment: await payout.covers(owed, creatorOwed) }
    }
    // The payment checks start first: their chain (the intent, then its charge) is the longer.
    const [paid, planned] = await Promise.allSettled([paying(), drafted && plan(order, drafted)])
    if (planned.status === 'rejected') throw planned.reason
    if (paid.status === 'rejected') throw paid.reason
    const { payout, payment } = paid.value
    if (drafted) await freeze(order, drafted, payment)
    return { stillSold, payout }
  }

  return {
    /** `caller`: aborted when the caller stops waiting, and the reads stop with it. */
    async preview(creatorOrderId: string, caller?: AbortSignal) {
      const [transfer, refundWaiting] = await Promise.all([
        view(creatorOrderId, caller).then((transfer) => withSettlement(transfer, caller)),
        refundWaitingOf(deps.jobs, creatorOrderId),
      ])
      return {
        creatorOrder: creatorOrderOf(transfer.order),
        preview: previewOf(transfer, refundWaiting),
      }
    },

    /**
     * What the preview would refuse, thrown as it would: its checks, without reading the charge,
     * what Shopify found of fraud as the cache kept it. `caller`: as the preview's.
     */
    async check(creatorOrderId: string, caller?: AbortSignal): Promise<void> {
      await readinessView(creatorOrderId, caller)
    },

    async refundSplit(creatorOrderId: string, lines: readonly RefundLine[]) {
      return previewRefundSplit(deps, await loadOrder(creatorOrderId), lines)
    },

    async receipt(creatorOrderId: string, caller?: AbortSignal): Promise<Uint8Array> {
      // pdfkit is loaded with the first receipt, not at start: a server that renders none never
      // holds its code and font metrics.
      const [{ renderReceiptPdf }, transfer] = await Promise.all([
        import('../receipt/receipt-pdf'),
        view(creatorOrderId, caller),
      ])
      return renderReceiptPdf(receiptDataOf(transfer, timestamp()))
    },

    acceptPriceException: (creatorOrderId: string, reason: string, adminEmail: string | null) =>
      acceptPriceException({ ...deps, planning }, { creatorOrderId, reason, adminEmail }),

    releaseFraudCheck: (creatorOrderId: string, reason: string, adminEmail: string | null) =>
      releaseFraudCheck({ ...deps, planning, remote }, { creatorOrderId, reason, adminEmail }),

    /**
     * Freezes the plan on the first attempt, then runs every brand's steps (several brands at
     * once) under a lease on the transfer. A request that finds the lease held is answered 409 at
     * once rather than made to wait: the holder reports the outcome, and a preview shows it.
     */
    async process(creatorOrderId: string, actor: TransferActor): Promise<ProcessAnswer> {
      const { adminEmail } = actor
      const { order, transfer: existing } = await loadOrder(creatorOrderId)
      const id = String(order.id)
      if (existing?.status === 'COMPLETED') {
        throw new NothingToTransfer(TRANSFER_ERRORS.alreadyProcessed, 'conflict')
      }
      // A request another one is processing gets its answer before anything is asked of Stripe.
      claims.refuseWhileHeld(existing)
      const { stillSold, payout } = await claims.checkAlone(id, () =>
        checkAndFreeze(order, existing, actor),
      )

      return claims.withClaim(id, adminEmail, async (claim): Promise<ProcessAnswer> => {
        try {
          // Read under the lease: the steps another request finished before are skipped.
          const claimed = await transfers.find(id)
          if (!claimed) throw new Error(`Order transfer ${id} vanished while claimed`)
          const outcomes = await settleWithLimit(
            claimed.brands,
            timing.brandConcurrency,
            brandProcessing(steps, { transfer: claimed, order, stillSold, payout, claim }),
          )
          const failures = outcomes.flatMap((outcome) =>
            outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
          )
          if (failures.some((failure) => failure instanceof LeaseLostError)) {
            throw new LeaseLostError(id)
          }
          if (failures.length > 0) throw failures[0]
          const processedAt = timestamp()
          // The creator's commission is owed from the moment the brands are paid, and a job pays
          // it; what a brand owes from an earlier refund is taken from the transfer just made; a
          // refund noticed while it was processed is settled now.
          await claim.lease.complete(processedAt, async (trx) => {
            const refundsFirst = await settleNoticedRefunds(deps, trx, id)
            await owePayoutOnCompletion(
              deps,
              trx,
              {
                creatorOrderId: id,
                creatorStoreShop: claimed.creator_store_shop,
                currency: claimed.currency,
              },
              processedAt,
              { refundsFirst },
            )
            await collectDebtsOf(
              deps,
              trx,
              claimed.brands.map((brand) => brand.brand_store_shop),
            )
          })
          const settled = outcomes.flatMap((outcome) =>
            outcome.status === 'fulfilled' ? [outcome.value] : [],
          )
          const brandOrders = settled.flatMap(({ brandStoreShop, brandOrderId }) =>
            brandOrderId === null ? [] : [{ brandStoreShop, brandOrderId }],
          )
          // Brands whose units were all taken off before their order: not ordered, not paid.
          const owedNothing = settled
            .filter((brand) => brand.brandOrderId === null)
            .map((brand) => brand.brandStoreShop)
          await actor.audit(id, {
            status: 'COMPLETED',
            brandOrders: brandOrders.length,
            ...(owedNothing.length > 0 && { owedNothing }),
          })
          return { creatorOrderId: orderGid(id), status: 'COMPLETED', processedAt, brandOrders }
        } catch (error) {
          // Never a false COMPLETED: a request overtaken while held up says so.
          const answer = overtakenAnswer(error)
          // Under the lease, steps may have been taken (an order made, money moved): recorded.
          await actor.audit(id, {
            status: 'FAILED',
            message: answer instanceof Error ? answer.message : String(answer),
          })
          throw answer
        }
      })
    },
  }
}
