import type { z } from 'zod'
import type { INVENTORY_BEHAVIOURS, ShippingAddress } from '@shared/contract'
import type { CatalogPort } from './catalog-port'
import type { ShippingPort } from './shipping-port'

// The commerce platform as the server needs it, shaped after Shopify's Admin GraphQL API
// (productsCount, products, order, orderCreate, orderMarkAsPaid).
// Money is in minor units of the order's presentment currency.

/** The contract's address, as the platform gives and takes it. */
export type CommerceAddress = z.infer<typeof ShippingAddress>

export interface CommerceOrderLine {
  /** gid://shopify/LineItem/… */
  id: string
  title: string
  /** As ordered. */
  quantity: number
  /** What is still sold: the quantity less what order edits and refunds removed. */
  currentQuantity: number
  unitPriceMinor: number
  /** quantity × unit price, before discounts */
  originalTotalMinor: number
  /**
   * Every discount allocated to the line (its own and its share of order-level codes), for the
   * ordered quantity.
   */
  discountMinor: number
  imageUrl: string | null
  /** The creator's variant (gid://shopify/ProductVariant/…); null once deleted from its store. */
  variantId: string | null
}

export interface CommerceOrder {
  /** The numeric id; the GID is gid://shopify/Order/{id}. */
  id: number
  name: string
  email: string | null
  createdAt: string
  storeShop: string
  /** Shopify's displayFinancialStatus (PAID, PENDING, REFUNDED…); null when it gave none. */
  financialStatus: string | null
  /** When the merchant cancelled the order; null while it stands. */
  cancelledAt: string | null
  /** The presentment currency: what the customer paid in, and the currency of every amount. */
  currency: string
  subtotalMinor: number
  taxMinor: number
  shippingMinor: number
  totalMinor: number
  /**
   * What the order's refunds gave back, as the same read showed its lines (Shopify's
   * Order.totalRefundedSet): money of refunds whose units no longer count as sold.
   */
  refundedMinor: number
  shippingAddress: CommerceAddress | null
  /** The Stripe PaymentIntent the customer paid with (metafield `tandem.payment_intent`). */
  paymentIntentId: string | null
  lines: CommerceOrderLine[]
}

/** A creator order as the platform lists it: enough to find and list it, not its lines. */
export interface CreatorOrderHeader {
  id: number
  storeShop: string
  name: string
  createdAt: string
  currency: string
  totalMinor: number
}

/** A brand's variants as its store has them now, and the store's currency. */
export interface BrandCatalogue {
  currency: string
  /** By variant GID; a variant the store no longer has is absent. */
  variants: Map<string, { priceMinor: number; productStatus: string }>
}

export interface BrandOrderInput {
  lines: { variantId: string; quantity: number }[]
  currency: string
  email: string | null
  shippingAddress: CommerceAddress | null
  tags: string[]
  note: string
  inventoryBehaviour: (typeof INVENTORY_BEHAVIOURS)[number]
}

/** A product as a sync stores it. */
export interface CommerceProduct {
  /** gid://shopify/Product/… */
  id: string
  title: string
  /** Shopify's ProductStatus, any it has or adds later (UNLISTED since API 2025-10). */
  status: string
  variantCount: number
  /** The lowest price of its variants, in minor units of `currency` (the shop's). */
  minPriceMinor: number
  currency: string
  /** Its featured image; null when it has none. */
  imageUrl: string | null
  /** When Shopify last changed it: which of two versions read at different times is newer. */
  updatedAt: string
}

export interface ProductReading {
  /** How many products the shop said it has (productsCount): a large shop is read in bulk. */
  total: number
  /** Called with how many products have been read so far, as the reading goes. */
  onProgress(fetched: number): Promise<void>
  /** Takes each batch of products as it arrives; the next batch waits for it. */
  take(products: CommerceProduct[]): Promise<void>
}

/** A brand order as its shop has it now: each line's variant and the units still sold. */
export interface BrandOrderState {
  cancelledAt: string | null
  /** Each line: what it still sells, and how much of that never shipped (unfulfilledQuantity). */
  lines: {
    id: string
    variantId: string | null
    currentQuantity: number
    unfulfilledQuantity: number
  }[]
  /** Units its successful fulfillments shipped, by line and the location they shipped from. */
  shipped: { lineItemId: string; locationId: string | null; quantity: number }[]
}

/**
 * What Shopify found of fraud on an order: its Order.risk (recommendation and assessments) and the
 * holds on its fulfillment orders. Enum values are Shopify's, kept as strings: a value Shopify adds
 * later reaches the checks as it is.
 */
export interface OrderFraudReading {
  /** OrderRiskRecommendationResult: ACCEPT, CANCEL, INVESTIGATE or NONE. */
  recommendation: string
  assessments: {
    /** RiskAssessmentResult: HIGH, MEDIUM, LOW, NONE or PENDING. */
    riskLevel: string
    /** The app that assessed it; null for Shopify's own analysis. */
    provider: string | null
    /** The facts that raise the risk (sentiment NEGATIVE), in Shopify's words. */
    negativeFacts: string[]
  }[]
  /** FulfillmentHoldReason of each hold (HIGH_RISK_OF_FRAUD, …), with its notes. */
  holds: { reason: string; notes: string | null }[]
}

/** Units of the creator order's lines its refunds gave back, and whether each was restocked. */
export interface RefundedLine {
  lineItemId: string
  quantity: number
  restocked: boolean
  /** What the refund gave back for these units, after their discounts (RefundLineItem.subtotalSet). */
  subtotalMinor: number
  /** The tax it gave back with them (RefundLineItem.totalTaxSet). */
  taxMinor: number
}

/** One refund of a creator order, in the order's currency. */
export interface CreatorRefund {
  /** The money its transactions gave back (Refund.totalRefundedSet): what Shopify says it paid. */
  refundedMinor: number
  /** The shipping it gave back, with its tax (refundShippingLines). */
  shippingMinor: number
  lines: RefundedLine[]
}

/** An order of a shop as it stood at its last change: what the refund catch-up reads. */
export interface ChangedOrder {
  id: number
  /** Shopify's updatedAt: the order's last change of any kind. */
  updatedAt: string
  /** Whether it was cancelled, or refunded in part or whole, at any time. */
  refundedOrCancelled: boolean
}

export interface MutationOptions {
  /**
   * Aborted when the caller stops waiting: a mutation not sent by then is never sent (it would
   * land after the caller reconciled and acted again).
   */
  signal?: AbortSignal
}

export interface ReadOptions {
  /**
   * Aborted when the caller stops waiting (its deadline passed, or the request's caller left): no
   * page or retry is read after it, and a read waiting its turn for the shop gives it up.
   */
  signal?: AbortSignal
}

export interface CommercePort extends CatalogPort, ShippingPort {
  /** How many products the store has now (productsCount). */
  countProducts(shop: string): Promise<number>
  /** Every product of the store, a page (or, for a large store, a bulk file's part) at a time. */
  readProducts(shop: string, reading: ProductReading): Promise<void>
  /** A creator order by its numeric id, or null when no store has it. */
  findCreatorOrder(orderId: number, options?: ReadOptions): Promise<CommerceOrder | null>
  /**
   * The order's header as `shop` has it (not its lines), or null when that shop has no such order:
   * what a signed webhook claims of an order is believed only once its own shop's Shopify says so.
   */
  findOrderInShop(shop: string, orderId: number): Promise<CreatorOrderHeader | null>
  /**
   * The shop's paid orders, newest first, a page at a time: the next page is read only once
   * `take` has answered true. An order whose figures cannot be read as money is left out.
   */
  readPaidOrders(
    shop: string,
    take: (orders: CreatorOrderHeader[]) => Promise<boolean>,
  ): Promise<void>
  /** The brand store's variants of `variantIds` as it sells them now (price, product status). */
  readBrandVariants(
    shop: string,
    variantIds: string[],
    options?: ReadOptions,
  ): Promise<BrandCatalogue>
  /** orderCreate in the brand's store; answers the new order's GID. */
  createOrder(
    shop: string,
    input: BrandOrderInput,
    options?: MutationOptions,
  ): Promise<{ id: string; name: string }>
  /** orderMarkAsPaid; refused for an order that is paid already. */
  markOrderAsPaid(shop: string, orderId: string, options?: MutationOptions): Promise<void>
  /**
   * The order of the shop that carries this tag, created at `since` or later (give or take the
   * clocks' skew), or null. Read from the shop's own list, not its search index, which lags behind
   * new orders.
   */
  findOrderByTag(
    shop: string,
    tag: string,
    since: string,
  ): Promise<{ id: string; name: string } | null>
  /** The order's displayFinancialStatus: PAID once marked as paid. */
  orderFinancialStatus(shop: string, orderId: string): Promise<string>
  /** What Shopify found of fraud on the shop's order, or null when the shop has no such order. */
  readFraudSignals(
    shop: string,
    orderId: number,
    options?: ReadOptions,
  ): Promise<OrderFraudReading | null>
  /** Every refund of a creator order, oldest first, with all its lines (refunds/create confirmed). */
  orderRefunds(shop: string, orderId: number): Promise<CreatorRefund[]>
  /**
   * The shop's orders changed at `since` or after (Shopify's updated_at search), oldest change
   * first, a page at a time: the next page is read only once `take` has answered true.
   */
  readOrdersChangedSince(
    shop: string,
    since: string,
    take: (orders: ChangedOrder[]) => Promise<boolean>,
  ): Promise<void>
  /** A brand order's lines now, or null when its shop has no such order. */
  readBrandOrder(shop: string, orderId: string): Promise<BrandOrderState | null>
  /**
   * refundCreate of units of a brand order, with no money (the brand's was taken back through
   * Stripe), under Shopify's idempotency key: the same key refunds once.
   */
  refundBrandOrder(
    shop: string,
    orderId: string,
    refund: {
      /**
       * Units restocked or not. Restocked units that shipped (`shipped`, absent for units that
       * never did) are returned to the location they shipped from (RETURN); the others are
       * cancelled (CANCEL), as Shopify's restock types require.
       */
      lines: {
        lineItemId: string
        quantity: number
        restock: boolean
        shipped?: { from: string | null }
      }[]
      note: string
      idempotencyKey: string
    },
    options?: MutationOptions,
  ): Promise<void>
  /**
   * orderCancel, restocking its committed units and refunding nothing; refused for an order
   * cancelled already or one that shipped. Resolves once Shopify's job has run: whether it
   * cancelled the order, a read of it tells.
   */
  cancelBrandOrder(
    shop: string,
    orderId: string,
    staffNote: string,
    options?: MutationOptions,
  ): Promise<void>
}

/**
 * A failure of the platform itself, or its refusal (not the caller's input): answered as a 502.
 * Whether the platform did the thing is unknown to the caller after a lost answer, so callers
 * reconcile before they act again.
 */
export class CommerceError extends Error {
  override name = 'CommerceError'
}
