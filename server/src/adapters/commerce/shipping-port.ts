import type { MutationOptions } from './commerce-port'

// The commerce platform's shipping as Tandem mirrors it (shipping/), shaped after Shopify's Admin
// GraphQL API: an order's fulfillment orders (what is left to ship, and holds on it) and its
// fulfillments (what shipped, with tracking); a fulfillment made on fulfillment-order lines, and
// its tracking changed.

export interface Tracking {
  company: string | null
  number: string | null
  url: string | null
}

export interface FulfillmentOrderReading {
  /** gid://shopify/FulfillmentOrder/… */
  id: string
  /** Shopify's FulfillmentOrderStatus. */
  status: string
  holds: { reason: string; notes: string | null }[]
  lines: {
    /** gid://shopify/FulfillmentOrderLineItem/…: what fulfillmentCreate names. */
    id: string
    /** The order's LineItem GID. */
    lineItemId: string
    variantId: string | null
    totalQuantity: number
    remainingQuantity: number
  }[]
}

export interface FulfillmentReading {
  /** gid://shopify/Fulfillment/… */
  id: string
  /** Shopify's FulfillmentStatus. */
  status: string
  createdAt: string
  tracking: Tracking[]
  lines: { lineItemId: string; variantId: string | null; quantity: number }[]
}

/** An order's shipping as its shop has it now, as far as Tandem's access lets it see. */
export interface OrderShipping {
  id: string
  cancelledAt: string | null
  cancelReason: string | null
  /**
   * Units of the order at fulfillment orders Tandem's access scopes do not cover (Shopify leaves
   * them out, with the fulfillments made from them), and the shop's fulfillment services'
   * locations, where they can be; null when it sees every unit. Absent from readings kept before.
   */
  unseen?: { units: number; locations: string[] } | null
  fulfillmentOrders: FulfillmentOrderReading[]
  fulfillments: FulfillmentReading[]
}

export interface FulfillmentInput {
  lines: { fulfillmentOrderId: string; fulfillmentOrderLineItemId: string; quantity: number }[]
  /** Null when the brand shipped without tracking. */
  tracking: Tracking | null
  /** Shopify's shipping email to the customer. */
  notifyCustomer: boolean
}

/**
 * Shopify refused the fulfillment or its tracking for what it is (userErrors: a fulfillment order
 * on hold or closed, units no longer left): the same call would be refused again.
 */
export class FulfillmentRefused extends Error {
  override name = 'FulfillmentRefused'
}

export interface ShippingPort {
  /** The order's fulfillment orders and fulfillments, or null when the shop has no such order. */
  readOrderShipping(shop: string, orderId: string): Promise<OrderShipping | null>
  /** The order a fulfillment order belongs to (its GID), or null when the shop has none such. */
  fulfillmentOrderOrder(shop: string, fulfillmentOrderId: string): Promise<string | null>
  /** fulfillmentCreate: answers the new fulfillment's GID; throws FulfillmentRefused. */
  createFulfillment(
    shop: string,
    input: FulfillmentInput,
    options?: MutationOptions,
  ): Promise<string>
  /** fulfillmentTrackingInfoUpdate, not emailing the customer; throws FulfillmentRefused. */
  updateTracking(
    shop: string,
    fulfillmentId: string,
    tracking: Tracking,
    options?: MutationOptions,
  ): Promise<void>
}
