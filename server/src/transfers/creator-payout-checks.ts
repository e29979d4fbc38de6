import { storeName } from '@shared/contract'
import type { Charge } from '../adapters/payments/payments-port'
import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import { formatMinorUnits } from '../domain/money'
import type { Remote } from '../lib/remote-call'
import { recordPayoutWaiting, type CreatorPayoutRow } from '../repositories/creator-payouts'
import { findPayoutAccountId } from '../repositories/payout-accounts'
import { chargeHolds, findOrderTransfers, inSettlement } from './order-payment'
import { keptDestination } from './payout-checks'

// What a creator's commission payout (creator-payout.ts) asks of Stripe and Tandem's records
// before its transfer: whether an earlier run already made it, where it goes, the charge it comes
// from and whether that charge still holds it, and the amount in the currency the charge settled in.

type Deps = Pick<RouteDeps, 'db' | 'payments'>

/** A reason the commission cannot be paid yet that a person fixes: recorded, not retried. */
export class PayoutWaits extends Error {}

/**
 * After an earlier run's call whose outcome is unknown: the transfer it may have made, looked for
 * at the account it was sent to; null for none. Several are for a person to sort out in Stripe.
 */
export async function transferMade(deps: Deps, payout: CreatorPayoutRow, remote: Remote) {
  const id = payout.creator_order_id
  const destination = payout.transfer_destination
  if (payout.pending_since === null || destination === null) return null
  const listed = await remote((signal) =>
    findOrderTransfers(deps.payments, id, { signal }, destination),
  )
  const made = listed.filter(
    (transfer) => transfer.metadata.creator_shop === payout.creator_store_shop,
  )
  if (made.length > 1) {
    const reason = `Stripe holds ${made.length} commission transfers of creator order ${id} to ${destination} (${made.map((transfer) => transfer.id).join(', ')}): review them in Stripe`
    await recordPayoutWaiting(deps.db, id, reason)
    throw new Error(reason)
  }
  return made[0]?.id ?? null
}

/**
 * Where the transfer goes: the account an unanswered call went to, until Stripe declines it there
 * (keptDestination: Stripe checks it then), else the creator's account now, which must be one
 * Stripe can pay.
 */
export async function destinationOf(deps: Deps, payout: CreatorPayoutRow, remote: Remote) {
  const shop = payout.creator_store_shop
  const kept = keptDestination(
    payout.pending_since !== null && payout.transfer_destination !== null
      ? {
          destinationAccountId: payout.transfer_destination,
          declined: payout.transfer_declined_at !== null,
        }
      : null,
  )
  if (kept) return kept
  const accountId = await findPayoutAccountId(deps.db, shop)
  if (!accountId) {
    throw new PayoutWaits(
      `No payout account: set ${storeName(shop)}'s Stripe account on its store page to pay its commission`,
    )
  }
  const account = await remote((signal) => deps.payments.connectedAccount(accountId, { signal }))
  if (!account) {
    throw new PayoutWaits(`Stripe has no account ${accountId} connected to the platform`)
  }
  if (!account.email) throw new PayoutWaits(`Stripe account ${accountId} has no email`)
  if (!account.transfersActive) {
    throw new PayoutWaits(`Stripe account ${accountId} cannot receive transfers yet`)
  }
  return accountId
}

/**
 * The charge must still hold the commission: captured less refunded, less what the order's
 * transfers took from it and did not give back. A commission waiting weeks for an account is not
 * paid out of a charge refunded since (Stripe would decline it at every try). Answers where the
 * transfer comes from: the charge while what it brought in, less refunds and every transfer made
 * from it, covers the commission; else the platform's balance, which the order's reversals refilled
 * (Stripe does not count a reversed amount back into what a charge may fund).
 */
export async function checkChargeHolds(
  deps: Deps,
  {
    id,
    charge,
    amountSettlementMinor,
  }: { id: string; charge: Charge; amountSettlementMinor: number },
  remote: Remote,
): Promise<{ sourceTransaction: string | null }> {
  const { heldMinor, fromCharge } = await chargeHolds(
    { payments: deps.payments, remote },
    id,
    charge,
  )
  const { currency } = charge.settlement
  if (heldMinor < amountSettlementMinor) {
    const money = (minor: number) => `${formatMinorUnits(Math.max(minor, 0), currency)} ${currency}`
    throw new PayoutWaits(
      `Charge ${charge.id} holds ${money(heldMinor)} after refunds and transfers, less than the commission of ${money(amountSettlementMinor)}: review its refunds in Stripe`,
    )
  }
  const reversed = fromCharge.reduce((sum, transfer) => sum + transfer.amountReversedMinor, 0)
  return { sourceTransaction: heldMinor - reversed >= amountSettlementMinor ? charge.id : null }
}

/**
 * The charge of the order's PaymentIntent, as Tandem held it when the order's transfer froze:
 * never one the creator's store names now.
 */
export async function orderCharge(deps: Deps, creatorOrderId: string, remote: Remote) {
  // The first held: the one whose transaction froze the transfer.
  const held = await deps.db
    .selectFrom('payment_intent_orders')
    .select('payment_intent_id')
    .where('creator_order_id', '=', creatorOrderId)
    .orderBy('held_at')
    .executeTakeFirst()
  if (!held) throw new PayoutWaits(`Creator order ${creatorOrderId} has no payment Tandem holds`)
  const intent = await remote((signal) =>
    deps.payments.paymentIntent(held.payment_intent_id, { signal }),
  )
  const chargeId = intent?.latestChargeId
  const charge = chargeId
    ? await remote((signal) => deps.payments.charge(chargeId, { signal }))
    : null
  if (!charge) {
    throw new PayoutWaits(`Stripe has no charge for ${held.payment_intent_id}`)
  }
  return charge
}

/** The commission in the settlement currency: each brand's as frozen, or converted at the charge's rate. */
export async function settledCommission(
  db: Db,
  creatorOrderId: string,
  currency: string,
  settlement: { currency: string; exchangeRate: string },
): Promise<number> {
  const brands = await db
    .selectFrom('order_transfer_brands')
    .select(['creator_commission_minor', 'creator_commission_settlement_minor'])
    .where('creator_order_id', '=', creatorOrderId)
    .execute()
  return brands.reduce(
    (sum, brand) =>
      sum +
      (brand.creator_commission_settlement_minor ??
        inSettlement(brand.creator_commission_minor, currency, settlement)),
    0,
  )
}
