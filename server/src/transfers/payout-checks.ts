import { storeName, TRANSFER_ERRORS } from '@shared/contract'
import type { CommerceOrder } from '../adapters/commerce/commerce-port'
import type { CallOptions, MadeTransfer, PaymentsPort } from '../adapters/payments/payments-port'
import type { Db } from '../db/connect'
import { attention, NeedsAttention, type AttentionReason } from '../domain/attention'
import { Refusal } from '../domain/errors'
import { findPayoutAccountId } from '../repositories/payout-accounts'
import {
  checkCovered,
  findOrderTransfers,
  inSettlement,
  readOrderPayment,
  type OrderPayment,
  type Settlement,
} from './order-payment'
import { upstreamRefusal, type Remote } from '../lib/remote-call'

// Whether each brand can be paid, asked of Stripe before anything is ordered or paid
// (docs/integrations.md "Stripe"), and how a brand's transfer is found again in Stripe. Refusals
// name the brand: 422 for what an admin must fix, 502 when Stripe failed.

/** What a transfer carries in its metadata, so that it is found again as this brand's. */
export const transferMetadata = (creatorOrderId: string, shop: string) => ({
  creator_order_id: creatorOrderId,
  brand_shop: shop,
})

/** Whether a transfer Stripe lists is this brand's for this order, by its metadata. */
const isBrandTransfer = (creatorOrderId: string, shop: string) => {
  const expected = transferMetadata(creatorOrderId, shop)
  return (made: MadeTransfer) =>
    made.metadata.creator_order_id === expected.creator_order_id &&
    made.metadata.brand_shop === expected.brand_shop
}

/** What an admin must fix before the brand can be paid. */
const needs = (reason: AttentionReason) => new NeedsAttention([reason])

/** A brand owed a transfer. */
export interface BrandToPay {
  shop: string
  /** Minor units of the order's currency. */
  amountMinor: number
  /** Frozen in the settlement currency; null on a first attempt (or a transfer frozen before it). */
  settlementMinor: number | null
  /** An attempt whose outcome is unknown: where it sent its transfer, looked for there first. */
  unknownOutcome: UnansweredTransfer | null
}

/** A transfer whose call was sent and not answered, or declined, as its intent recorded it. */
export interface UnansweredTransfer {
  destinationAccountId: string
  /** Whether Stripe declined it under its current key (and so made nothing). */
  declined: boolean
}

/**
 * The account an unanswered transfer must still go to, or null when it may go to the one set now.
 * Not found where it went, it may yet exist there (the call still landing, or Stripe's list not
 * showing it yet), and only its key, sent to the same account, makes Stripe answer it rather than
 * pay again: sent to an account set since (to which Stripe refuses the key, saying nothing of what
 * it made), it would pay twice once Stripe forgets the key. Only Stripe's decline proves that
 * nothing was made there, and frees the transfer to go to the account set now. Stripe itself then
 * checks the account it goes to: an account it cannot pay any more is declined, never a deadlock
 * that setting another account cannot end.
 */
export const keptDestination = (unanswered: UnansweredTransfer | null): string | null =>
  unanswered && !unanswered.declined ? unanswered.destinationAccountId : null

/** Where a brand's transfer goes, the charge it is made from and its currency; or the transfer already made. */
export type Payout =
  | { made: null; destinationAccountId: string; sourceTransaction: string; settlement: Settlement }
  | { made: string }

/**
 * The brand's transfer for this order at `destinationAccountId`, by group and metadata (an account
 * may be shared by brands, or paid by hand); null when Stripe lists none. Several are refused:
 * money already moved twice is for a person to sort out in Stripe, not for Tandem to pick from.
 */
export async function findBrandTransfer(
  payments: PaymentsPort,
  transfer: { creatorOrderId: string; shop: string; destinationAccountId: string },
  options: CallOptions,
): Promise<string | null> {
  const listed = await findOrderTransfers(
    payments,
    transfer.creatorOrderId,
    options,
    transfer.destinationAccountId,
  )
  const brands = listed.filter(isBrandTransfer(transfer.creatorOrderId, transfer.shop))
  if (brands.length > 1) {
    throw new Refusal(
      'business_rule',
      `${TRANSFER_ERRORS.transferCreateFailed} for ${storeName(transfer.shop)}: Stripe holds ` +
        `${brands.length} transfers of this order to ${transfer.destinationAccountId} ` +
        `(${brands.map((made) => made.id).join(', ')}); review them in Stripe`,
    )
  }
  return brands[0]?.id ?? null
}

/**
 * The checks of one processing attempt: each brand's account (known to Stripe, with an email,
 * transfers active) and the order's payment (its own PaymentIntent, succeeded, in the order's
 * currency), whose charge the transfers are made from. A brand whose transfer's outcome is unknown
 * is looked for in Stripe first: found, nothing else about it matters. Each brand is checked once
 * per attempt, however often it is asked; `covers` then checks that the charge still holds what
 * the brands left to pay are owed.
 */
export function payoutChecks(
  deps: { db: Db; payments: PaymentsPort; remote: Remote },
  order: CommerceOrder,
) {
  const { payments, remote } = deps
  const creatorOrderId = String(order.id)
  let payment: Promise<OrderPayment | { refusal: string } | { error: unknown }> | undefined

  /** Read once, on the first brand that needs it. */
  function readPayment(intentId: string) {
    payment ??= readOrderPayment(deps, order, intentId).catch((error: unknown) => ({ error }))
    return payment
  }

  /** The payment, or why it cannot pay `party` (a brand, or the creator's commission). */
  async function readPaymentFor(intentId: string, party: string): Promise<OrderPayment> {
    const read = await readPayment(intentId)
    if ('error' in read) {
      // Refused for the whole order: the intent is not this order's.
      if (read.error instanceof Refusal) throw read.error
      throw upstreamRefusal(
        `Payment intent lookup failed for ${party}`,
        'payment provider',
        read.error,
      )
    }
    if ('refusal' in read) throw new Refusal('business_rule', `${read.refusal} for ${party}`)
    return read
  }

  /** Known to Stripe, with an email, able to receive transfers; else what an admin must fix. */
  async function checkAccount(shop: string, accountId: string) {
    const account = await remote((signal) =>
      payments.connectedAccount(accountId, { signal }),
    ).catch((error: unknown) => {
      throw upstreamRefusal(
        `Payout account lookup failed for ${storeName(shop)}`,
        'payment provider',
        error,
      )
    })
    if (!account) throw needs(attention.payoutAccountUnknown(shop, accountId))
    if (!account.email) throw needs(attention.payoutAccountWithoutEmail(shop, accountId))
    if (!account.transfersActive) {
      throw needs(attention.payoutAccountTransfersInactive(shop, accountId))
    }
  }

  async function check(brand: BrandToPay): Promise<Payout> {
    const { shop } = brand
    // The order's payment is read beside the brand's own reads, not after them: every brand
    // needs it, and its charge is a second read after the intent's.
    if (order.paymentIntentId) void readPayment(order.paymentIntentId)
    const failed = (what: string) => (error: unknown) => {
      throw upstreamRefusal(`${what} for ${storeName(shop)}`, 'payment provider', error)
    }
    if (brand.unknownOutcome) {
      const { destinationAccountId } = brand.unknownOutcome
      const made = await remote((signal) =>
        findBrandTransfer(payments, { creatorOrderId, shop, destinationAccountId }, { signal }),
      ).catch(failed('Transfer lookup failed'))
      if (made) return { made }
    }

    const kept = keptDestination(brand.unknownOutcome)
    const accountId = kept ?? (await findPayoutAccountId(deps.db, shop))
    if (!accountId) throw needs(attention.noPayoutAccount(shop))
    // A kept account is Stripe's to check, as it answers the key (keptDestination).
    if (!kept) await checkAccount(shop, accountId)

    if (!order.paymentIntentId) throw needs(attention.noPayment(order.storeShop, order.name))
    const read = await readPaymentFor(order.paymentIntentId, storeName(shop))
    return {
      made: null,
      destinationAccountId: accountId,
      sourceTransaction: read.chargeId,
      settlement: read.settlement,
    }
  }

  const checks = new Map<string, Promise<Payout>>()
  const checkOnce = (brand: BrandToPay): Promise<Payout> => {
    let checked = checks.get(brand.shop)
    if (!checked) {
      checked = check(brand)
      checked.catch(() => {})
      checks.set(brand.shop, checked)
    }
    return checked
  }

  /**
   * After every brand passed its checks: the charge must hold what the brands still to be paid
   * are owed, in the settlement currency. A brand whose transfer Stripe already lists (made since
   * this request read the transfer, by a concurrent one) is paid, not owed. Answers the order's
   * payment (null when nobody is owed).
   */
  async function covers(owed: BrandToPay[], creatorOwed: boolean): Promise<OrderPayment | null> {
    // No brand is paid, yet the creator is owed its commission: the payment is read all the
    // same, so that freezing holds it for the creator's transfer (transfers/creator-payout.ts).
    if (!payment && creatorOwed) {
      if (!order.paymentIntentId) throw needs(attention.noPayment(order.storeShop, order.name))
      await readPaymentFor(order.paymentIntentId, `the commission of ${storeName(order.storeShop)}`)
    }
    const read = payment && (await payment)
    if (!read || !('chargeId' in read)) return null
    const paid = (shop: string) => read.fromCharge.some(isBrandTransfer(creatorOrderId, shop))
    let owedMinor = 0
    for (const brand of owed) {
      if ((await checkOnce(brand)).made !== null || paid(brand.shop)) continue
      owedMinor +=
        brand.settlementMinor ?? inSettlement(brand.amountMinor, order.currency, read.settlement)
    }
    checkCovered(read, owedMinor)
    return read
  }

  return Object.assign(checkOnce, { covers })
}
