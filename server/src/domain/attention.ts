import { FRAUD_RELEASE_HINT, PRICE_EXCEPTION_HINT, TRANSFER_ERRORS } from '@shared/contract'
import { Refusal, type RefusalKind } from './errors'
import { formatMinorUnits } from './money'

// The reasons a transfer cannot go ahead until a person fixes something (issue 32, "needs
// attention"): each names its brand by its store name and says where the fix is, so that whoever
// reads it, on the transfer screen or later in the orders inbox, knows what to do. Every such
// sentence is written here; a refusal keeps the specification's words first where it has them
// (docs/product-rules.md "Order transfers").

export type AttentionKind =
  | 'noDefaultCommission'
  | 'brandStoreUnknown'
  | 'brandStoreNotConnected'
  | 'noPayoutAccount'
  | 'payoutAccountUnknown'
  | 'payoutAccountWithoutEmail'
  | 'payoutAccountTransfersInactive'
  | 'variantMissing'
  | 'productNotOnSale'
  | 'listingStopped'
  | 'priceBelowBrand'
  | 'fraudRisk'

/** One reason a person must act on before a brand's part of a transfer can go ahead. */
export interface AttentionReason<Kind extends AttentionKind = AttentionKind> {
  kind: Kind
  /** The store whose fix it waits on: a brand's, or the creator's for what its order itself shows. */
  brandStoreShop: string
  sentence: string
}

/** A brand as the sentences name it: its store's name, the first label of its host. */
const nameOf = (shop: string) => shop.replace(/\..*$/s, '')

/** A catalogue check's line, as its sentences name it. */
interface NamedLine {
  lineItemId: string
  title: string
  brandStoreShop: string
  brandVariantId: string
}

const lineCannot = (line: NamedLine) =>
  `Line "${line.title}" (${line.lineItemId}) cannot be transferred to ${nameOf(line.brandStoreShop)}`

const reason = <Kind extends AttentionKind>(
  kind: Kind,
  brandStoreShop: string,
  sentence: string,
): AttentionReason<Kind> => ({ kind, brandStoreShop, sentence })

export const attention = {
  noDefaultCommission: (shop: string) =>
    reason(
      'noDefaultCommission',
      shop,
      `${TRANSFER_ERRORS.commissionNotFound}: ${nameOf(shop)} has no default commission: set it on its store page`,
    ),

  /** Stores come from the sandbox's seed and from connecting a shop with an app config. */
  brandStoreUnknown: (shop: string) =>
    reason(
      'brandStoreUnknown',
      shop,
      `${TRANSFER_ERRORS.storeNotFound}: ${nameOf(shop)} is not a brand store of the marketplace: install Tandem's brand app in it, with its app config on the Configs page`,
    ),

  /** `cause`: what Shopify said, or why Tandem holds no token for the store. */
  brandStoreNotConnected: (shop: string, cause: string) =>
    reason(
      'brandStoreNotConnected',
      shop,
      `${nameOf(shop)} is not connected to Tandem (${cause}): check its app config on the Configs page and reinstall Tandem's brand app in it`,
    ),

  noPayoutAccount: (shop: string) =>
    reason(
      'noPayoutAccount',
      shop,
      `${TRANSFER_ERRORS.connectedAccountIdNotFound}: ${nameOf(shop)} has no payout account: set it on its store page`,
    ),

  payoutAccountUnknown: (shop: string, accountId: string) =>
    reason(
      'payoutAccountUnknown',
      shop,
      `${TRANSFER_ERRORS.connectedAccountIdNotFound}: Stripe has no account ${accountId} connected to the platform for ${nameOf(shop)}: set its payout account on its store page`,
    ),

  payoutAccountWithoutEmail: (shop: string, accountId: string) =>
    reason(
      'payoutAccountWithoutEmail',
      shop,
      `${TRANSFER_ERRORS.connectedAccountEmailNotFound}: ${nameOf(shop)}'s payout account ${accountId} has no email: add one to the account in Stripe`,
    ),

  payoutAccountTransfersInactive: (shop: string, accountId: string) =>
    reason(
      'payoutAccountTransfersInactive',
      shop,
      `${TRANSFER_ERRORS.connectedAccountTransfersInactive}: ${nameOf(shop)}'s payout account ${accountId} has transfers inactive: finish its onboarding in Stripe, or set another account on its store page`,
    ),

  variantMissing: (line: NamedLine) =>
    reason(
      'variantMissing',
      line.brandStoreShop,
      `${lineCannot(line)}: its store has no variant ${line.brandVariantId} any more: link the creator's product to one ${nameOf(line.brandStoreShop)} sells`,
    ),

  productNotOnSale: (line: NamedLine, status: string) =>
    reason(
      'productNotOnSale',
      line.brandStoreShop,
      `${lineCannot(line)}: its product of variant ${line.brandVariantId} is ${status}, not on sale: put it on sale in the Shopify admin of ${nameOf(line.brandStoreShop)}, or link the creator's product to one it sells`,
    ),

  /** The line's creator variant belongs to a listing an administrator paused or removed. */
  listingStopped: (line: NamedLine, status: 'PAUSED' | 'REMOVED') =>
    reason(
      'listingStopped',
      line.brandStoreShop,
      status === 'PAUSED'
        ? `${lineCannot(line)}: its listing on the creator's store is paused: resume it on the creator's store page`
        : `${lineCannot(line)}: its listing on the creator's store was removed: list the product again on the creator's store page`,
    ),

  /** `why`: what was paid against the brand's price; the hint offers the one override. */
  priceBelowBrand: (line: NamedLine, why: string) =>
    reason(
      'priceBelowBrand',
      line.brandStoreShop,
      `${lineCannot(line)}: ${why}; ${PRICE_EXCEPTION_HINT}`,
    ),

  /**
   * Shopify found a risk of fraud on the creator's order (`findings`, transfers/fraud-check.ts):
   * nothing is ordered or paid until an administrator releases it.
   */
  fraudRisk: (creatorShop: string, orderName: string, findings: string) =>
    reason(
      'fraudRisk',
      creatorShop,
      `Creator order ${orderName} may be fraudulent: ${findings}. Review it in ${nameOf(creatorShop)}'s Shopify admin and cancel it there if it is fraud; ${FRAUD_RELEASE_HINT}`,
    ),
}

/**
 * What a person must check of the order itself before any brand of it is ordered or paid: no brand
 * to name, so each is the whole order's refusal.
 */
export const orderAttention = {
  /**
   * The creator controls its store: a line added (or a price raised) after checkout, paid by hand
   * or not at all, is not what the customer paid Tandem for.
   */
  totalAboveReceived: (
    order: { name: string; currency: string; totalMinor: number },
    intentId: string,
    receivedMinor: number,
  ) => {
    const money = (minor: number) => `${formatMinorUnits(minor, order.currency)} ${order.currency}`
    return `Creator order ${order.name} totals ${money(order.totalMinor)}, more than the ${money(receivedMinor)} its payment ${intentId} received: lines were added or prices raised after checkout, or paid outside Tandem. Check the order's edits and payments in the creator's Shopify admin, and have the creator remove or refund what the customer did not pay through Tandem. Nothing was ordered or paid`
  },
}

/**
 * A refusal that a person must act on, carrying its reasons for whoever decides what happens next
 * (the automatic processing does not retry it). A 422 unless said otherwise: a brand store that is
 * not connected stays the 502 of Shopify's refusal.
 */
export class NeedsAttention extends Refusal {
  override name = 'NeedsAttention'

  constructor(
    readonly reasons: readonly AttentionReason[],
    kind: RefusalKind = 'business_rule',
  ) {
    super(kind, reasons.map((each) => each.sentence).join('; '))
  }
}

/**
 * A refusal because the order has nothing to transfer: no brand lines or none left, no money to
 * share (cancelled, refunded, not paid), or transferred already (a 409).
 */
export class NothingToTransfer extends Refusal {
  override name = 'NothingToTransfer'

  constructor(message: string, kind: RefusalKind = 'business_rule') {
    super(kind, message)
  }
}
