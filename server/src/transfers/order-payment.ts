import { ORDER_TAG, TRANSFER_ERRORS } from '@shared/contract'
import type { CommerceOrder } from '../adapters/commerce/commerce-port'
import {
  PAYMENT_INTENT_METADATA,
  type CallOptions,
  type Charge,
  type MadeTransfer,
  type PaymentIntent,
  type PaymentsPort,
} from '../adapters/payments/payments-port'
import type { Db } from '../db/connect'
import { attention, NeedsAttention } from '../domain/attention'
import { Refusal } from '../domain/errors'
import { convertMinorUnits, formatMinorUnits } from '../domain/money'
import type { Remote } from '../lib/remote-call'
import type { SettledFigures, ThreeParts } from './transfer-view'

// The creator order's payment as Stripe reports it: the PaymentIntent must be this order's (its
// platform-written metadata names the shop and order, and Tandem holds it for no other order),
// and its charge says how much is left to transfer and in which currency it settled.

/** The platform's settlement currency (the charge's balance transaction's) and Stripe's rate into it. */
export interface Settlement {
  currency: string
  /** A decimal string: the order's amount times it is the settlement amount. */
  exchangeRate: string
}

/** The charge a creator order's transfers are made from. */
export interface OrderPayment {
  chargeId: string
  settlement: Settlement
  /**
   * What transfers from the charge may still move, in minor units of the settlement currency:
   * captured − refunded (at the charge's rate) − what the order's transfers took from it.
   */
  heldMinor: number
  /** The transfers of the order's group that Stripe lists from the charge, oldest first. */
  fromCharge: MadeTransfer[]
}

/** Stripe's transfer_group of a creator order's transfers. */
export const transferGroupOf = (creatorOrderId: string) => `${ORDER_TAG}-order-${creatorOrderId}`

/**
 * The creator order's transfers (`transfers.list` by its group; to one account when given), oldest
 * first: the order's own, however many other transfers the platform makes, so a burst of orders
 * costs each a page, not a read of everything paid since.
 */
export const findOrderTransfers = (
  payments: PaymentsPort,
  creatorOrderId: string,
  options: CallOptions,
  destinationAccountId?: string,
): Promise<MadeTransfer[]> =>
  payments.findTransfers(
    {
      transferGroup: transferGroupOf(creatorOrderId),
      ...(destinationAccountId !== undefined && { destinationAccountId }),
    },
    options,
  )

/** An amount of the order's currency in the settlement currency, at the charge's own rate. */
export const inSettlement = (minor: number, orderCurrency: string, settlement: Settlement) =>
  convertMinorUnits(minor, orderCurrency, settlement.currency, settlement.exchangeRate)

const orderLabel = (orderId: string, shop: string) => `creator order ${orderId} of ${shop}`

type PaymentDeps = { db: Db; payments: PaymentsPort; remote: Remote }

/** The order's transfers (findOrderTransfers), within the caller's deadline. */
const listOrderTransfers = (
  { payments, remote }: Pick<PaymentDeps, 'payments' | 'remote'>,
  creatorOrderId: string,
) => remote((signal) => findOrderTransfers(payments, creatorOrderId, { signal }))

/**
 * The order's charge, or why it cannot pay (a sentence that the caller completes with the brand
 * it checks). An intent that is not this order's is refused for the whole order (a Refusal);
 * Stripe failing throws its error.
 */
export async function readOrderCharge(
  deps: PaymentDeps,
  order: CommerceOrder,
  intentId: string,
): Promise<Charge | { refusal: string }> {
  const read = await readIntentAndCharge(deps, order, intentId)
  return 'refusal' in read ? read : read.charge
}

/** The order's PaymentIntent and its charge, as readOrderCharge checks them. */
async function readIntentAndCharge(
  deps: PaymentDeps,
  order: CommerceOrder,
  intentId: string,
): Promise<{ intent: PaymentIntent; charge: Charge } | { refusal: string }> {
  const { db, payments, remote } = deps
  const intent = await remote((signal) => payments.paymentIntent(intentId, { signal }))
  if (!intent) return { refusal: TRANSFER_ERRORS.paymentIntentNotFound }
  if (intent.status !== 'succeeded' || !intent.latestChargeId) {
    return { refusal: TRANSFER_ERRORS.paymentIntentNotSucceeded }
  }
  const orderId = String(order.id)
  const named = {
    shop: intent.metadata[PAYMENT_INTENT_METADATA.creatorShop],
    orderId: intent.metadata[PAYMENT_INTENT_METADATA.creatorOrderId],
  }
  // The creator's store chooses which intent its order names; only the platform wrote this.
  if (named.shop !== order.storeShop || named.orderId !== orderId) {
    const paysFor =
      named.shop && named.orderId ? orderLabel(named.orderId, named.shop) : 'no creator order'
    throw new Refusal(
      'business_rule',
      `${TRANSFER_ERRORS.paymentIntentMismatch}: ${intentId} pays for ${paysFor}, not ` +
        `${orderLabel(orderId, order.storeShop)}; name this order's own PaymentIntent in its ` +
        `metafield. Nothing was ordered or paid`,
    )
  }
  const holder = await paymentIntentHolder(db, intentId)
  if (holder && holder.creator_order_id !== orderId) {
    throw new Refusal('business_rule', alreadyHeld(intentId, holder))
  }
  if (intent.currency !== order.currency) {
    return {
      refusal: `${TRANSFER_ERRORS.paymentIntentMismatch}: it is in ${intent.currency}, the order in ${order.currency}`,
    }
  }

  const chargeId = intent.latestChargeId
  const charge = await remote((signal) => payments.charge(chargeId, { signal }))
  if (!charge) {
    return { refusal: `${TRANSFER_ERRORS.paymentIntentNotFound}: Stripe has no charge ${chargeId}` }
  }
  return { intent, charge }
}

/**
 * The order's payment: its charge (as readOrderCharge) and what the charge still holds. The
 * order must be what the customer paid for through it: its total (every line, as its creator
 * may have edited it since checkout) no more than the intent received, or it needs attention.
 */
export async function readOrderPayment(
  deps: PaymentDeps,
  order: CommerceOrder,
  intentId: string,
): Promise<OrderPayment | { refusal: string }> {
  const creatorOrderId = String(order.id)
  // The order's transfers are listed by its group, which needs nothing of the intent: read beside
  // it and its charge rather than after them, and used only once they passed their checks.
  const listed = listOrderTransfers(deps, creatorOrderId)
  listed.catch(() => {})
  const read = await readIntentAndCharge(deps, order, intentId)
  if ('refusal' in read) return read
  const { intent, charge } = read
  if (order.totalMinor > intent.amountReceivedMinor) {
    throw new NeedsAttention([
      attention.totalAboveReceived(order, intent.id, intent.amountReceivedMinor),
    ])
  }
  return {
    chargeId: charge.id,
    settlement: charge.settlement,
    ...(await chargeHolds(deps, creatorOrderId, charge, listed)),
  }
}

/**
 * What the order's charge still holds for its transfers, in the settlement currency: captured less
 * refunded, less what the order's transfers took from it; and those transfers.
 */
export async function chargeHolds(
  deps: Pick<PaymentDeps, 'payments' | 'remote'>,
  creatorOrderId: string,
  charge: Charge,
  /** The order's transfers, when the caller began listing them already. */
  listed: Promise<MadeTransfer[]> = listOrderTransfers(deps, creatorOrderId),
): Promise<Pick<OrderPayment, 'heldMinor' | 'fromCharge'>> {
  const { settlement } = charge
  // Stripe lists no transfers by their charge, and reading every transfer made since it was
  // charged costs a page per 100 paid since (a burst's backlog, for each order behind it). Every
  // transfer Tandem makes out of this charge is in this order's group: it transfers only from the
  // charge of an intent whose metadata names the order (readOrderCharge), held for it alone.
  // One made outside Tandem in another group is not counted here; Stripe itself refuses a
  // transfer beyond what the charge holds (docs/integrations.md "Stripe").
  const ofOrder = await listed
  const fromCharge = ofOrder.filter((transfer) => transfer.sourceTransaction === charge.id)
  const transferred = fromCharge.reduce(
    (sum, transfer) => sum + transfer.amountMinor - transfer.amountReversedMinor,
    0,
  )
  const kept = convertMinorUnits(
    charge.capturedMinor - charge.refundedMinor,
    charge.currency,
    settlement.currency,
    settlement.exchangeRate,
  )
  return { heldMinor: kept - transferred, fromCharge }
}

/**
 * Refuses, before anything is ordered or paid, a charge that holds less than what the order's
 * brands are still owed (in the settlement currency).
 */
export function checkCovered(payment: OrderPayment, owedMinor: number): void {
  if (owedMinor <= payment.heldMinor) return
  const { currency } = payment.settlement
  const money = (minor: number) => `${formatMinorUnits(minor, currency)} ${currency}`
  throw new Refusal(
    'business_rule',
    `${TRANSFER_ERRORS.paymentIntentMismatch}: its charge ${payment.chargeId} holds ` +
      `${money(Math.max(payment.heldMinor, 0))} after refunds and transfers, less than the ` +
      `${money(owedMinor)} the brands are owed; nothing was ordered or paid (review the ` +
      "charge's refunds and transfers in Stripe)",
  )
}

const paymentIntentHolder = (db: Db, intentId: string) =>
  db
    .selectFrom('payment_intent_orders')
    .selectAll()
    .where('payment_intent_id', '=', intentId)
    .executeTakeFirst()

const alreadyHeld = (
  intentId: string,
  holder: { creator_order_id: string; creator_store_shop: string },
) =>
  `${TRANSFER_ERRORS.paymentIntentMismatch}: ${intentId} already pays for ` +
  `${orderLabel(holder.creator_order_id, holder.creator_store_shop)}, whose transfer Tandem ` +
  'holds; one payment pays for one order. Nothing was ordered or paid'

/**
 * Holds the PaymentIntent for this order (in the transaction that freezes its transfer): a second
 * order naming it is refused, naming the first, even when the two race.
 */
export async function holdPaymentIntent(
  trx: Db,
  intentId: string,
  order: { creatorOrderId: string; storeShop: string },
  now: string,
): Promise<void> {
  await trx
    .insertInto('payment_intent_orders')
    .values({
      payment_intent_id: intentId,
      creator_order_id: order.creatorOrderId,
      creator_store_shop: order.storeShop,
      held_at: now,
    })
    .onConflict((oc) => oc.column('payment_intent_id').doNothing())
    .execute()
  const holder = await paymentIntentHolder(trx, intentId)
  if (holder && holder.creator_order_id !== order.creatorOrderId) {
    throw new Refusal('business_rule', alreadyHeld(intentId, holder))
  }
}

/**
 * A brand's figures in the settlement currency, each converted at the charge's rate (so they may
 * not add up to the converted base by a minor unit): what its row records beside the order's.
 */
export function settlementColumns(
  figures: ThreeParts,
  orderCurrency: string,
  settlement: Settlement | null,
) {
  const settled = settlement && settledFigures(figures, orderCurrency, settlement)
  return {
    settlement_currency: settled?.currency ?? null,
    exchange_rate: settled?.exchangeRate ?? null,
    brand_amount_settlement_minor: settled?.brandAmountMinor ?? null,
    creator_commission_settlement_minor: settled?.creatorCommissionMinor ?? null,
    tandem_commission_settlement_minor: settled?.tandemCommissionMinor ?? null,
  }
}

/** A brand's three figures in the settlement currency, each converted at the charge's rate. */
export const settledFigures = (
  figures: ThreeParts,
  orderCurrency: string,
  settlement: Settlement,
): SettledFigures => ({
  ...settlement,
  brandAmountMinor: inSettlement(figures.brandAmountMinor, orderCurrency, settlement),
  creatorCommissionMinor: inSettlement(figures.creatorCommissionMinor, orderCurrency, settlement),
  tandemCommissionMinor: inSettlement(figures.tandemCommissionMinor, orderCurrency, settlement),
})
