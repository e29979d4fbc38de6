import { ORDER_TAG, storeName, TRANSFER_ERRORS } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { PaymentsError } from '../adapters/payments/payments-port'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { RemoteTimeoutError, upstreamRefusal, type Remote } from '../lib/remote-call'
import type { LinkedOrder } from './linked-order'
import { inSettlement, settlementColumns, transferGroupOf } from './order-payment'
import { keptDestination, transferMetadata, type BrandToPay, type Payout } from './payout-checks'
import {
  brandOrderMade,
  markedPaid,
  transferMade,
  transferTag,
  unknownOutcomeSince,
} from './step-reconciliation'
import type { Claim, Lease } from './transfer-claim'
import type { StillSoldOf } from './transfer-planning'
import {
  frozenLines,
  isOwedNothing,
  LeaseLostError,
  owedNothing,
  type StoredTransfer,
  type TransferBrandRow,
  type TransferStep,
} from './transfer-repository'
import type { TransferTiming } from './transfer-timing'

// One brand's steps of a claimed transfer: its brand order created, then marked as paid, then its
// payout transferred, each skipped once done. Each remote step records its intent before the call
// and its result after, under the claim's lease, with a failpoint at each boundary (where the
// crash harness kills the server). A step whose outcome an earlier attempt left unknown is
// reconciled first (step-reconciliation.ts). The transfer's idempotency key stays the same across
// retries and attempts, so that Stripe answers a transfer it made rather than make another; it
// moves on only after Stripe declined the transfer under it, once reconciling finds none.

/** What each step is called when it fails, and who failed it. */
const STEP_FAILURES: Record<TransferStep, { failure: string; system: string }> = {
  createOrder: { failure: 'Brand order create failed', system: 'commerce platform' },
  markOrderAsPaid: { failure: TRANSFER_ERRORS.markAsPaidFailed, system: 'commerce platform' },
  createTransfer: { failure: TRANSFER_ERRORS.transferCreateFailed, system: 'payment provider' },
}

/** The provider refuses a transfer of nothing: a brand whose lines were all free is owed none. */
export const owesTransfer = (brand: TransferBrandRow) =>
  brand.payment_transfer_id === null &&
  // What is moved is the settled amount, which a small one at a low rate can round to nothing.
  (brand.brand_amount_settlement_minor ?? brand.brand_amount_minor) > 0

/**
 * The transfer's idempotency key of `attempt`. It names the currency: a transfer tried in the
 * order's currency before settlement currencies (refused by Stripe, and kept under its key) must
 * not block the one in the charge's. The first attempt's has no suffix, as before attempts were
 * counted, so that a transfer already sent under it is replayed, never made again.
 */
const transferKey = (creatorOrderId: string, shop: string, currency: string, attempt: number) =>
  `transfer:${creatorOrderId}:${shop}:${currency.toLowerCase()}${attempt ? `:${attempt}` : ''}`

/** A brand still owed its transfer, as the payout checks take it. */
export const toPay = (brand: TransferBrandRow): BrandToPay => ({
  shop: brand.brand_store_shop,
  amountMinor: brand.brand_amount_minor,
  settlementMinor: brand.brand_amount_settlement_minor,
  unknownOutcome:
    brand.pending_step === 'createTransfer' && brand.transfer_destination !== null
      ? {
          destinationAccountId: brand.transfer_destination,
          declined: brand.transfer_declined_at !== null,
        }
      : null,
})

/** A frozen brand's figures in the order's currency, as settlement converts them. */
const frozenFigures = (brand: TransferBrandRow) => ({
  brandAmountMinor: brand.brand_amount_minor,
  creatorCommissionMinor: brand.creator_commission_minor,
  tandemCommissionMinor: brand.tandem_commission_minor,
})

/** What the steps call and how they are bounded: the platform, the provider, time. */
export interface StepDeps extends Pick<RouteDeps, 'commerce' | 'payments'> {
  timing: TransferTiming
  remote: Remote
  timestamp: () => string
}

/** The transfer whose brands are processed, and what was checked of it before it was claimed. */
export interface BrandRun {
  /** As read under the claim: the steps another request finished before are skipped. */
  transfer: StoredTransfer
  order: LinkedOrder
  stillSold: StillSoldOf
  /** Where a brand's transfer goes and from which charge (the payout checks, answered again). */
  payout: (brand: BrandToPay) => Promise<Payout>
  claim: Claim
}

/** What came of one brand: its order, or null when it was owed nothing. */
export interface BrandOutcome {
  brandStoreShop: string
  brandOrderId: string | null
}

/**
 * One remote step: intent recorded (renewing the lease), then (unless reconciling finds it done,
 * and once what a retry needs is recorded) the lease checked once more and the call made, then
 * its result recorded. A failure is recorded on the brand's row with the intent left in place
 * (with the decline, when the provider answered the call that it made nothing), and answered: 502
 * when the platform or provider failed or did not answer, 422 when the step cannot be done as
 * things stand.
 */
async function runStep<T>(
  deps: StepDeps,
  { lease, unsettled }: Claim,
  brand: TransferBrandRow,
  step: TransferStep,
  actions: {
    /** After an unknown outcome: what the remote side already did, or null for nothing. */
    reconcile: (pendingSince: string, signal: AbortSignal) => Promise<T | null>
    /** The call; once `signal` aborts (its deadline passed) it must send nothing more. */
    act: (signal: AbortSignal) => Promise<T>
    /**
     * Reconciling found that the earlier attempt did nothing: what the call made again needs
     * recorded (under the lease) before it is sent.
     */
    retry?: () => Promise<void>
    /** Whether the call's failure is the provider's definite answer that it did nothing. */
    declined?: (error: unknown) => boolean
    record: (result: T) => Parameters<Lease['recordStep']>[1]
    /** What the intent records beside the step, for the next attempt to keep to. */
    intent?: Parameters<Lease['recordIntent']>[3]
  },
): Promise<T> {
  const { timing, remote, timestamp } = deps
  const shop = brand.brand_store_shop
  await timing.failpoint(`${step}:before-intent`)
  const unknownSince = unknownOutcomeSince(brand, step)
  await lease.recordIntent(shop, step, unknownSince ?? timestamp(), actions.intent)
  // Only what the call itself answered can be a decline, not a failure of reconciling before it.
  let calling = false
  try {
    let result = unknownSince
      ? await remote((signal) => actions.reconcile(unknownSince, signal))
      : null
    if (result === null) {
      if (unknownSince) await actions.retry?.()
      await timing.failpoint(`${step}:before-call`)
      // Held through the call, whose deadline is one remote timeout, and as long again.
      await lease.renewBeforeCall(timestamp(), 2 * timing.remoteTimeoutMs)
      calling = true
      result = await remote(actions.act)
      calling = false
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
        : upstreamRefusal(`${failure} for ${storeName(shop)}`, system, error)
    const declinedAt = calling && actions.declined?.(error) ? timestamp() : undefined
    // Under a lease lost meanwhile this changes nothing: the new holder records its own (a decline
    // lost so is met again on the next attempt, replayed under the same key, and recorded then).
    await lease
      .recordFailure(shop, step, refusal.message, declinedAt)
      .catch((recordError: unknown) => {
        if (!(recordError instanceof LeaseLostError)) throw recordError
      })
    throw refusal
  }
}

/** One brand's steps under the run's claim; finished steps are skipped. */
export function brandProcessing(deps: StepDeps, run: BrandRun) {
  const { transfer, order, stillSold, payout, claim } = run
  const { timestamp } = deps
  const creatorOrderId = transfer.creator_order_id

  return async (brand: TransferBrandRow): Promise<BrandOutcome> => {
    const shop = brand.brand_store_shop
    if (isOwedNothing(brand)) return { brandStoreShop: shop, brandOrderId: null }
    // Units refunded, removed or cancelled since the figures froze: a step left is refused (or,
    // before the brand's order, the brand is owed nothing), after reconciling an unknown outcome.
    const sold = stillSold(brand)
    const refuse = (message: string) => () => Promise.reject(new Refusal('business_rule', message))
    // Paying back what a brand was paid or told it was paid is issue #33's: refused, by name.
    const oversold = refuse(
      `Creator order ${order.name} was refunded, edited or cancelled since ${storeName(shop)}'s order was made: that order holds more than is still sold, so ${storeName(shop)} is neither marked paid nor paid for it by ${PRODUCT_NAME} (paying part of a brand order is not supported yet): agree what is owed with ${storeName(shop)}`,
    )
    // Checked before any brand's order was made (the same check, answered again).
    const payoutOf = sold === 'all' && owesTransfer(brand) ? await payout(toPay(brand)) : null
    // Where the transfer goes, by the row as read under the claim: the checks ran before the
    // claim, and a transfer another request sent meanwhile, unanswered, keeps its account.
    const destinationOf = (checked: Extract<Payout, { made: null }>) =>
      keptDestination(toPay(brand).unknownOutcome) ?? checked.destinationAccountId

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
      (await runStep(deps, claim, brand, 'createOrder', {
        reconcile: (pendingSince) => brandOrderMade(deps, creatorOrderId, shop, pendingSince),
        act: {
          // Nothing of it is sold any more: owed nothing, recorded so (not a failure), and the
          // others go on. Some of it: its frozen figures no longer hold, so it waits, by name.
          none: async () => null,
          some: refuse(
            `Creator order ${order.name} was refunded or edited since its transfer began: it now sells fewer of ${storeName(shop)}'s units than its frozen figures pay for, so ${storeName(shop)} is neither ordered nor paid (its figures stay as frozen)`,
          ),
          all: createBrandOrder,
        }[sold],
        record: (id) => (id === null ? owedNothing(brand) : { brand_order_id: id }),
      }))
    if (brandOrderId === null) return { brandStoreShop: shop, brandOrderId: null }

    if (brand.paid_at === null) {
      await runStep(deps, claim, brand, 'markOrderAsPaid', {
        reconcile: () => markedPaid(deps, shop, brandOrderId),
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
      // Stripe replays a key's first answer for a day, a decline too: a retry once the admin
      // fixed its cause needs a new key. Only a decline recorded under the key moves it on (and
      // only once reconciling found no transfer): after any unknown outcome (no answer, a
      // timeout, a 5xx) the transfer may exist where Stripe's list does not show it yet, and the
      // same key makes Stripe answer it rather than make a second. A 5xx Stripe saved under the
      // key so fails the brand for a day, until Stripe forgets the key: the lesser harm.
      let keyAttempt = brand.transfer_key_attempt
      await runStep(deps, claim, brand, 'createTransfer', {
        intent:
          payoutOf?.made === null
            ? {
                transfer_destination: destinationOf(payoutOf),
                // A transfer frozen before settlement was recorded records it now.
                ...(brand.settlement_currency === null &&
                  settlementColumns(frozenFigures(brand), transfer.currency, payoutOf.settlement)),
              }
            : {},
        reconcile: (_, signal) => transferMade(deps, creatorOrderId, brand, signal),
        retry: async () => {
          if (brand.transfer_declined_at !== null)
            await claim.lease.advanceTransferKey(shop, ++keyAttempt)
        },
        declined: (error) => error instanceof PaymentsError && error.declined,
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
                    destinationAccountId: destinationOf(payoutOf),
                    sourceTransaction: payoutOf.sourceTransaction,
                    // Within an attempt, a try after a lost answer is replayed, never paid twice.
                    idempotencyKey: transferKey(creatorOrderId, shop, currency, keyAttempt),
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
