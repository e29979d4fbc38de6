import {
  consolePaths,
  FRAUD_RELEASE_HINT,
  PRICE_EXCEPTION_HINT,
  storeName,
  TRANSFER_ERRORS,
  type AttentionParty as Party,
  type AttentionRemedy as Remedy,
} from '@shared/contract'
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
  | 'noPayment'
  | 'totalAboveReceived'

/** One reason a person must act on before a brand's part of a transfer can go ahead. */
export interface AttentionReason<Kind extends AttentionKind = AttentionKind> {
  kind: Kind
  /** The store whose fix it waits on: a brand's, or the creator's for what its order itself shows. */
  brandStoreShop: string
  sentence: string
}

/** The order a reason is about, for the fixes that are made on it or on its creator's store. */
export interface ReasonOrder {
  id: string
  storeShop: string
}

/**
 * Who can fix a reason, the fix in a few words, and the console page where it is made (or where
 * what must be fixed elsewhere, in Stripe or a Shopify admin, is shown). Told from the reason's kind
 * and store alone, so that what Tandem recorded of a reason answers it again, word for word.
 */
export function remedyOf(kind: AttentionKind, shop: string, order: ReasonOrder): Remedy {
  const name = storeName(shop)
  const brand: Party = { role: 'BRAND', shop }
  const creator: Party = { role: 'CREATOR', shop: order.storeShop }
  const administrator: Party = { role: 'ADMINISTRATOR', shop: null }
  const storePage = { label: `${name}'s store page`, to: consolePaths.store(shop, 'BRAND') }
  const creatorPage = {
    label: `${storeName(order.storeShop)}'s store page`,
    to: consolePaths.store(order.storeShop, 'CREATOR'),
  }
  const configs = { label: 'the Configs page', to: consolePaths.configs }
  const orderPage = { label: "the order's transfer page", to: consolePaths.order(order.id) }
  switch (kind) {
    case 'noDefaultCommission':
    case 'noPayoutAccount':
      return { party: administrator, fix: 'set it on its store page', link: storePage }
    case 'payoutAccountUnknown':
      return {
        party: administrator,
        fix: 'set its payout account on its store page',
        link: storePage,
      }
    case 'brandStoreUnknown':
      return {
        party: administrator,
        fix: "install Tandem's brand app in it, with its app config on the Configs page",
        link: configs,
      }
    case 'brandStoreNotConnected':
      return {
        party: administrator,
        fix: "check its app config on the Configs page and reinstall Tandem's brand app in it",
        link: configs,
      }
    case 'payoutAccountWithoutEmail':
      return { party: brand, fix: 'add one to the account in Stripe', link: storePage }
    case 'payoutAccountTransfersInactive':
      return {
        party: brand,
        fix: 'finish its onboarding in Stripe, or set another account on its store page',
        link: storePage,
      }
    case 'variantMissing':
      return {
        party: administrator,
        fix: `link the creator's product to one ${name} sells`,
        link: creatorPage,
      }
    case 'productNotOnSale':
      return {
        party: brand,
        fix: `put it on sale in the Shopify admin of ${name}, or link the creator's product to one it sells`,
        link: storePage,
      }
    case 'listingStopped':
      return {
        party: administrator,
        fix: "resume the listing, or list the product again, on the creator's store page",
        link: creatorPage,
      }
    case 'priceBelowBrand':
      return { party: administrator, fix: PRICE_EXCEPTION_HINT, link: orderPage }
    case 'fraudRisk':
      return { party: administrator, fix: FRAUD_RELEASE_HINT, link: orderPage }
    case 'totalAboveReceived':
      return {
        party: creator,
        fix: "remove or refund, in the creator's Shopify admin, what the customer did not pay through Tandem",
        link: creatorPage,
      }
    case 'noPayment':
      return {
        party: creator,
        fix: "have the customer pay through Tandem's checkout, or refund or cancel the order in the creator's Shopify admin",
        link: creatorPage,
      }
  }
}

/** A catalogue check's line, as its sentences name it: by its product's title, never its id. */
interface NamedLine {
  lineItemId: string
  title: string
  brandStoreShop: string
  brandVariantId: string
}

const lineCannot = (line: NamedLine) =>
  `Line "${line.title}" cannot be transferred to ${storeName(line.brandStoreShop)}`

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
      `${TRANSFER_ERRORS.commissionNotFound}: ${storeName(shop)} has no default commission: set it on its store page`,
    ),

  /** Stores come from the sandbox's seed and from connecting a shop with an app config. */
  brandStoreUnknown: (shop: string) =>
    reason(
      'brandStoreUnknown',
      shop,
      `${TRANSFER_ERRORS.storeNotFound}: ${storeName(shop)} is not a brand store of the marketplace: install Tandem's brand app in it, with its app config on the Configs page`,
    ),

  /** `cause`: what Shopify said, or why Tandem holds no token for the store. */
  brandStoreNotConnected: (shop: string, cause: string) =>
    reason(
      'brandStoreNotConnected',
      shop,
      `${storeName(shop)} is not connected to Tandem (${cause}): check its app config on the Configs page and reinstall Tandem's brand app in it`,
    ),

  noPayoutAccount: (shop: string) =>
    reason(
      'noPayoutAccount',
      shop,
      `${TRANSFER_ERRORS.connectedAccountIdNotFound}: ${storeName(shop)} has no payout account: set it on its store page`,
    ),

  payoutAccountUnknown: (shop: string, accountId: string) =>
    reason(
      'payoutAccountUnknown',
      shop,
      `${TRANSFER_ERRORS.connectedAccountIdNotFound}: Stripe has no account ${accountId} connected to the platform for ${storeName(shop)}: set its payout account on its store page`,
    ),

  payoutAccountWithoutEmail: (shop: string, accountId: string) =>
    reason(
      'payoutAccountWithoutEmail',
      shop,
      `${TRANSFER_ERRORS.connectedAccountEmailNotFound}: ${storeName(shop)}'s payout account ${accountId} has no email: add one to the account in Stripe`,
    ),

  payoutAccountTransfersInactive: (shop: string, accountId: string) =>
    reason(
      'payoutAccountTransfersInactive',
      shop,
      `${TRANSFER_ERRORS.connectedAccountTransfersInactive}: ${storeName(shop)}'s payout account ${accountId} has transfers inactive: finish its onboarding in Stripe, or set another account on its store page`,
    ),

  variantMissing: (line: NamedLine) =>
    reason(
      'variantMissing',
      line.brandStoreShop,
      `${lineCannot(line)}: its store no longer has the variant it was linked to: link the creator's product to one ${storeName(line.brandStoreShop)} sells`,
    ),

  productNotOnSale: (line: NamedLine, status: string) =>
    reason(
      'productNotOnSale',
      line.brandStoreShop,
      `${lineCannot(line)}: its product is ${status}, not on sale: put it on sale in the Shopify admin of ${storeName(line.brandStoreShop)}, or link the creator's product to one it sells`,
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
      `Creator order ${orderName} may be fraudulent: ${findings}. Review it in ${storeName(creatorShop)}'s Shopify admin and cancel it there if it is fraud; ${FRAUD_RELEASE_HINT}`,
    ),

  /**
   * The creator's order carries no Stripe payment: the customer paid outside Tandem's checkout (by
   * hand, another gateway) or not at all, and brands and creator are paid only from a charge
   * Tandem's platform received. No brand can mend that; the creator can.
   */
  noPayment: (creatorShop: string, orderName: string) =>
    reason(
      'noPayment',
      creatorShop,
      `${TRANSFER_ERRORS.paymentIntentIdNotFound}: creator order ${orderName} of ${storeName(creatorShop)} has no Stripe payment on record, so Tandem has nothing to pay its brands and creator from: ${storeName(creatorShop)}, the creator, has the customer pay through Tandem's checkout, or refunds or cancels the order in its Shopify admin`,
    ),

  /**
   * The creator controls its store: a line added (or a price raised) after checkout, paid by hand
   * or not at all, is not what the customer paid Tandem for. What the order itself shows, so it
   * waits on the creator's store.
   */
  totalAboveReceived: (
    order: { storeShop: string; name: string; currency: string; totalMinor: number },
    intentId: string,
    receivedMinor: number,
  ) => {
    const money = (minor: number) => `${formatMinorUnits(minor, order.currency)} ${order.currency}`
    return reason(
      'totalAboveReceived',
      order.storeShop,
      `Creator order ${order.name} totals ${money(order.totalMinor)}, more than the ${money(receivedMinor)} its payment ${intentId} received: lines were added or prices raised after checkout, or paid outside Tandem. Check the order's edits and payments in the creator's Shopify admin, and have the creator remove or refund what the customer did not pay through Tandem. Nothing was ordered or paid`,
    )
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
