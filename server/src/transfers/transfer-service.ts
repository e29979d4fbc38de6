import { randomUUID } from 'node:crypto'
import { ORDER_TAG, TRANSFER_ERRORS, type CallAnswer } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { toHundredths } from '../domain/money'
import type { BrandPlan } from '../domain/transfer-plan'
import { renderReceiptPdf } from '../receipt/receipt-pdf'
import type { LinkedOrder } from './linked-order'
import { orderGid } from '../adapters/commerce/shopify/order-gid'
import {
  findBrandTransfer,
  payoutChecks,
  transferGroupOf,
  transferMetadata,
  type BrandToPay,
  type Payout,
} from './payout-checks'
import {
  holdPaymentIntent,
  inSettlement,
  settlementColumns,
  type OrderPayment,
} from './order-payment'
import { acceptPriceException } from './price-exception'
import { RemoteTimeoutError, settleWithLimit, upstreamRefusal, withDeadline } from '../lib/remote-call'
import {
  createTransferRepository,
  frozenLines,
  isOwedNothing,
  LeaseLostError,
  owedNothing,
  type StoredTransfer,
  type TransferBrandRow,
  type TransferStep,
} from './transfer-repository'
import { createTransferPlanning, type StillSoldOf } from './transfer-planning'
import { transferTiming } from './transfer-timing'
import { creatorOrderOf, previewOf, receiptDataOf } from './transfer-view'

// Processing a creator order into brand orders and payments, exactly once whatever fails
// (docs/integrations.md "Exactly-once transfers"). Each remote step records its intent before the
// call and its result after, under a lease that every write names; a step whose intent is still
// recorded on the next attempt had an unknown outcome, and is reconciled (brand order found by its
// tag, paid status read, transfer found by its group) before it is acted on again.

/**
 * Not one of the specification's messages (docs/product-rules.md "Order transfers"): the answer
 * to a request that lost the race for the lease.
 */
const TRANSFER_IN_PROGRESS = 'Order transfer is already being processed'
const TRANSFER_TAKEN_OVER =
  'Order transfer was taken over by another request while this one was held up: the preview shows where it stands'

/** What each step is called when it fails, and who failed it. */
const STEP_FAILURES: Record<TransferStep, { failure: string; system: string }> = {
  createOrder: { failure: 'Brand order create failed', system: 'commerce platform' },
  markOrderAsPaid: { failure: TRANSFER_ERRORS.markAsPaidFailed, system: 'commerce platform' },
  createTransfer: { failure: TRANSFER_ERRORS.transferCreateFailed, system: 'payment provider' },
}

/** The tag that finds a brand order again after its creation's answer was lost. */
const transferTag = (creatorOrderId: string) => `${ORDER_TAG}-transfer-${creatorOrderId}`

type ProcessAnswer = CallAnswer<'adminCreateOrderTransfer'>

/** Who processes, and where what happened under their lease is recorded (the audit log). */
export interface TransferActor {
  adminEmail: string | null
  /** Must not throw: the outcome stands whether or not its record could be written. */
  audit: (creatorOrderId: string, details: Record<string, unknown>) => Promise<void>
}

/** Whether another request holds the transfer's lease at `now`. */
const leaseHeld = (transfer: StoredTransfer, now: string) =>
  transfer.claimed_by !== null &&
  transfer.lease_expires_at !== null &&
  transfer.lease_expires_at > now

/** The provider refuses a transfer of nothing: a brand whose lines were all free is owed none. */
const owesTransfer = (brand: TransferBrandRow) =>
  brand.payment_transfer_id === null &&
  // What is moved is the settled amount, which a small one at a low rate can round to nothing.
  (brand.brand_amount_settlement_minor ?? brand.brand_amount_minor) > 0

/** A brand still owed its transfer, as the payout checks take it. */
const toPay = (brand: TransferBrandRow): BrandToPay => ({
  shop: brand.brand_store_shop,
  amountMinor: brand.brand_amount_minor,
  settlementMinor: brand.brand_amount_settlement_minor,
  unknownOutcomeAt: brand.pending_step === 'createTransfer' ? brand.transfer_destination : null,
})

/** A frozen brand's figures in the order's currency, as settlement converts them. */
const frozenFigures = (brand: TransferBrandRow) => ({
  brandAmountMinor: brand.brand_amount_minor,
  creatorCommissionMinor: brand.creator_commission_minor,
  tandemCommissionMinor: brand.tandem_commission_minor,
})

/** How much of a brand's frozen units the order still sells (all of them on a first attempt). */

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
      unknownOutcomeAt: null,
    }))
}

export function createTransferService(
  deps: Pick<RouteDeps, 'db' | 'commerce' | 'payments' | 'now' | 'transferTiming'>,
) {
  const transfers = createTransferRepository(deps.db)
  const timing = transferTiming(deps.transferTiming)
  const timestamp = () => deps.now().toISOString()
  const leaseEnd = () => new Date(deps.now().getTime() + timing.leaseMs).toISOString()
  const remote = <T>(call: (signal: AbortSignal) => Promise<T>) =>
    withDeadline(timing.remoteTimeoutMs, call)

  const planning = createTransferPlanning(deps, transfers, remote)
  const { loadOrder, plan, stillSoldOf, view } = planning

  /**
   * Freezes the figures on the first attempt, in the order's currency and in the one its charge
   * settled in, and holds the order's PaymentIntent for it; a concurrent first attempt's figures
   * stand.
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
        lines: brand.lines.map(({ brandVariantId, quantity }) => ({ brandVariantId, quantity })),
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

  type Lease = ReturnType<typeof transfers.underLease>

  /**
   * One brand's steps under `lease`; finished steps are skipped. `unsettled` is set when a call
   * ran past its deadline: it may still land, so the lease must not be given up early.
   */
  function brandProcessing(
    transfer: StoredTransfer,
    order: LinkedOrder,
    stillSold: StillSoldOf,
    payout: (brand: BrandToPay) => Promise<Payout>,
    lease: Lease,
    unsettled: { call: boolean },
  ) {
    const creatorOrderId = transfer.creator_order_id

    /**
     * One remote step: intent recorded (renewing the lease), then (unless reconciling finds it
     * done) the lease checked once more and the call made, then its result recorded. A failure is
     * recorded on the brand's row with the intent left in place, and answered: 502 when the
     * platform or provider failed or did not answer, 422 when the step cannot be done as things
     * stand.
     */
    async function runStep<T>(
      brand: TransferBrandRow,
      step: TransferStep,
      actions: {
        /** After an unknown outcome: what the remote side already did, or null for nothing. */
        reconcile: (pendingSince: string, signal: AbortSignal) => Promise<T | null>
        /** The call; once `signal` aborts (its deadline passed) it must send nothing more. */
        act: (signal: AbortSignal) => Promise<T>
        record: (result: T) => Parameters<Lease['recordStep']>[1]
        /** What the intent records beside the step, for the next attempt to keep to. */
        intent?: Parameters<Lease['recordIntent']>[3]
      },
    ): Promise<T> {
      const shop = brand.brand_store_shop
      await timing.failpoint(`${step}:before-intent`)
      const unknownSince = brand.pending_step === step ? brand.pending_since : null
      await lease.recordIntent(shop, step, unknownSince ?? timestamp(), actions.intent)
      try {
        let result = unknownSince
          ? await remote((signal) => actions.reconcile(unknownSince, signal))
          : null
        if (result === null) {
          await timing.failpoint(`${step}:before-call`)
          await lease.renewBeforeCall(timestamp())
          result = await remote(actions.act)
          await timing.failpoint(`${step}:after-call`)
        }
        await lease.recordStep(shop, actions.record(result))
        await timing.failpoint(`${step}:after-record`)
        return result
      } catch (error) {
        if (error instanceof LeaseLostError) throw error
        if (error instanceof RemoteTimeoutError) unsettled.call = true
        const { failure, system } = STEP_FAILURES[step]
        const refusal =
          error instanceof Refusal
            ? error
            : upstreamRefusal(`${failure} for ${shop}`, system, error)
        // Under a lease lost meanwhile this changes nothing: the new holder records its own.
        await lease.recordFailure(shop, step, refusal.message).catch((recordError: unknown) => {
          if (!(recordError instanceof LeaseLostError)) throw recordError
        })
        throw refusal
      }
    }

    return async (brand: TransferBrandRow) => {
      const shop = brand.brand_store_shop
      if (isOwedNothing(brand)) return { brandStoreShop: shop, brandOrderId: null }
      // Units refunded, removed or cancelled since the figures froze: a step left is refused (or,
      // before the brand's order, the brand is owed nothing), after reconciling an unknown outcome.
      const sold = stillSold(brand)
      const refuse = (message: string) => () =>
        Promise.reject(new Refusal('business_rule', message))
      // Paying back what a brand was paid or told it was paid is issue #33's: refused, by name.
      const oversold = refuse(
        `Creator order ${order.name} was refunded, edited or cancelled since ${shop}'s order was made: that order holds more than is still sold, so ${shop} is neither marked paid nor paid for it by ${PRODUCT_NAME} (paying part of a brand order is not supported yet): agree what is owed with ${shop}`,
      )
      // Checked before any brand's order was made (the same check, answered again).
      const payoutOf = sold === 'all' && owesTransfer(brand) ? await payout(toPay(brand)) : null

      const createBrandOrder = async (signal: AbortSignal) =>
        (
          await deps.commerce.createOrder(
            shop,
            {
              lines: frozenLines(brand).map((line) => ({
                variantId: line.brandVariantId,
                quantity: line.quantity,
              })),
              currency: transfer.currency,
              email: order.email,
              shippingAddress: order.shippingAddress,
              tags: [ORDER_TAG, transferTag(creatorOrderId)],
              note: `${PRODUCT_NAME} transfer of creator order ${order.name} from ${order.storeShop}`,
              inventoryBehaviour: 'DECREMENT_OBEYING_POLICY',
            },
            { signal },
          )
        ).id

      const brandOrderId =
        brand.brand_order_id ??
        (await runStep(brand, 'createOrder', {
          reconcile: async (pendingSince) =>
            (await deps.commerce.findOrderByTag(shop, transferTag(creatorOrderId), pendingSince))
              ?.id ?? null,
          act: {
            // Nothing of it is sold any more: owed nothing, recorded so (not a failure), and the
            // others go on. Some of it: its frozen figures no longer hold, so it waits, by name.
            none: async () => null,
            some: refuse(
              `Creator order ${order.name} was refunded or edited since its transfer began: it now sells fewer of ${shop}'s units than its frozen figures pay for, so ${shop} is neither ordered nor paid (its figures stay as frozen)`,
            ),
            all: createBrandOrder,
          }[sold],
          record: (id) => (id === null ? owedNothing(brand) : { brand_order_id: id }),
        }))
      if (brandOrderId === null) return { brandStoreShop: shop, brandOrderId: null }

      if (brand.paid_at === null) {
        await runStep(brand, 'markOrderAsPaid', {
          // Shopify refuses to mark a paid order as paid: read its status first.
          reconcile: async () =>
            (await deps.commerce.orderFinancialStatus(shop, brandOrderId)) === 'PAID' ? true : null,
          act:
            sold === 'all'
              ? async (signal) => {
                  await deps.commerce.markOrderAsPaid(shop, brandOrderId, { signal })
                  return true
                }
              : oversold,
          record: () => ({ paid_at: timestamp() }),
        })
      }

      // A brand owed a transfer is paid only while all its units are still sold (payoutOf).
      if (owesTransfer(brand)) {
        await runStep(brand, 'createTransfer', {
          intent:
            payoutOf?.made === null
              ? {
                  transfer_destination: payoutOf.destinationAccountId,
                  // A transfer frozen before settlement was recorded records it now.
                  ...(brand.settlement_currency === null &&
                    settlementColumns(
                      frozenFigures(brand),
                      transfer.currency,
                      payoutOf.settlement,
                    )),
                }
              : {},
          // Stripe lists at once what it made: looking is exact, where the idempotency key would
          // refuse a changed account, or after a day make the transfer again.
          reconcile: async (_, signal) =>
            brand.transfer_destination === null
              ? null
              : findBrandTransfer(
                  deps.payments,
                  { creatorOrderId, shop, destinationAccountId: brand.transfer_destination },
                  { signal },
                ),
          act:
            payoutOf === null
              ? oversold
              : async (signal) => {
                  if (payoutOf.made !== null) return payoutOf.made
                  // In the currency the charge settled in, as Stripe requires of a source_transaction.
                  const { settlement } = payoutOf
                  const currency = brand.settlement_currency ?? settlement.currency
                  const created = await deps.payments.createTransfer(
                    {
                      amountMinor:
                        brand.brand_amount_settlement_minor ??
                        inSettlement(brand.brand_amount_minor, transfer.currency, settlement),
                      currency,
                      destinationAccountId: payoutOf.destinationAccountId,
                      sourceTransaction: payoutOf.sourceTransaction,
                      // The same key on every attempt: a retry after a lost answer never pays
                      // twice. It names the currency: a transfer tried in the order's currency
                      // before settlement currencies (refused by Stripe, and kept under its key)
                      // must not block the one in the charge's.
                      idempotencyKey: `transfer:${creatorOrderId}:${shop}:${currency.toLowerCase()}`,
                      transferGroup: transferGroupOf(creatorOrderId),
                      description: `${PRODUCT_NAME} transfer of creator order ${order.name} to ${shop}`,
                      metadata: transferMetadata(creatorOrderId, shop),
                    },
                    { signal },
                  )
                  return created.id
                },
          record: (id) => ({ payment_transfer_id: id }),
        })
      }
      return { brandStoreShop: shop, brandOrderId }
    }
  }

  return {
    async preview(creatorOrderId: string) {
      const transfer = await view(creatorOrderId)
      return { creatorOrder: creatorOrderOf(transfer.order), preview: previewOf(transfer) }
    },

    async receipt(creatorOrderId: string): Promise<Uint8Array> {
      return renderReceiptPdf(receiptDataOf(await view(creatorOrderId), timestamp()))
    },

    acceptPriceException: (creatorOrderId: string, reason: string, adminEmail: string | null) =>
      acceptPriceException({ ...deps, planning }, { creatorOrderId, reason, adminEmail }),

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
        throw new Refusal('conflict', TRANSFER_ERRORS.alreadyProcessed)
      }
      // A request another one is processing gets its answer before anything is asked of Stripe.
      if (existing && leaseHeld(existing, timestamp())) {
        throw new Refusal('conflict', TRANSFER_IN_PROGRESS)
      }
      const stillSold: StillSoldOf = existing ? await stillSoldOf(order) : () => 'all'
      const planned = existing ? null : await plan(order)
      // Whether every brand still owed can be paid, before anything is frozen or ordered.
      const owed = brandsToPay(existing, planned, stillSold)
      const payout = payoutChecks({ db: deps.db, payments: deps.payments, remote }, order)
      const refused = (await settleWithLimit(owed, timing.brandConcurrency, payout)).find(
        (outcome) => outcome.status === 'rejected',
      )
      if (refused) throw refused.reason
      const payment = await payout.covers(owed)
      if (planned) await freeze(order, planned, payment)

      const token = randomUUID()
      if (
        !(await transfers.claim(id, { token, adminEmail }, timestamp(), leaseEnd(), timing.leaseMs))
      ) {
        // Either another request holds it, or it completed since the first read.
        const current = await transfers.find(id)
        throw new Refusal(
          'conflict',
          current?.status === 'COMPLETED' ? TRANSFER_ERRORS.alreadyProcessed : TRANSFER_IN_PROGRESS,
        )
      }
      const lease = transfers.underLease(id, token, leaseEnd)
      const unsettled = { call: false }
      try {
        // Read under the lease: the steps another request finished before are skipped.
        const claimed = await transfers.find(id)
        if (!claimed) throw new Error(`Order transfer ${id} vanished while claimed`)
        const outcomes = await settleWithLimit(
          claimed.brands,
          timing.brandConcurrency,
          brandProcessing(claimed, order, stillSold, payout, lease, unsettled),
        )
        const failures = outcomes.flatMap((outcome) =>
          outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
        )
        if (failures.some((failure) => failure instanceof LeaseLostError)) {
          throw new LeaseLostError(id)
        }
        if (failures.length > 0) throw failures[0]
        const processedAt = timestamp()
        await lease.complete(processedAt)
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
        const answer =
          error instanceof LeaseLostError ? new Refusal('conflict', TRANSFER_TAKEN_OVER) : error
        // Under the lease, steps may have been taken (an order made, money moved): recorded.
        await actor.audit(id, {
          status: 'FAILED',
          message: answer instanceof Error ? answer.message : String(answer),
        })
        throw answer
      } finally {
        // A call past its deadline may still land: the lease runs out rather than being given up,
        // so that the next attempt reconciles only once the call can no longer arrive.
        if (!unsettled.call) await lease.release()
      }
    },
  }
}
