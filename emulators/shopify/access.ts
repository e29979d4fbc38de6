import { GraphQLError } from 'graphql'
import type { WebhookTopic } from './webhooks'

// Access scopes as Shopify enforces them: a field the token's scopes do not cover resolves to an
// ACCESS_DENIED error at its path (so a non-null field nulls its parent), while the other fields
// of the request still answer. A write scope grants its read scope too.
//
// Fulfillment orders are governed by the kind of location they are assigned to (Admin GraphQL
// 2026-10, FulfillmentOrder, "Retrieving fulfillment orders"): a merchant-managed location's need
// the merchant_managed scopes, a third-party fulfillment service's the third_party ones, those
// assigned to the app's own fulfillment service the assigned ones (the emulator's apps have none).
// Order.fulfillmentOrders is not refused for lacking one kind's scope: "An API client will only
// receive a subset of the fulfillment orders which belong to an order if they don't have the
// necessary access scopes to view all of the fulfillment orders", an empty list when none
// (FulfillmentOrderConnection); the fulfillmentOrders query is "filtered according to the
// fulfillment order access scopes granted to the app". Shopify does not say what the other
// fulfillment fields do with a fulfillment order out of reach; the emulator takes the stricter
// reading: the fulfillment order, and the fulfillments made from it, are not there for that app.

const FULFILLMENT_ORDER_READS = [
  'read_assigned_fulfillment_orders',
  'read_merchant_managed_fulfillment_orders',
  'read_third_party_fulfillment_orders',
  'read_marketplace_fulfillment_orders',
]

/**
 * fulfillmentCreate and fulfillmentTrackingInfoUpdate (Admin GraphQL 2026-10): "Requires
 * write_assigned_fulfillment_orders access scope, write_merchant_managed_fulfillment_orders access
 * scope or write_third_party_fulfillment_orders access scope".
 */
const FULFILLMENT_WRITES = [
  'write_assigned_fulfillment_orders',
  'write_merchant_managed_fulfillment_orders',
  'write_third_party_fulfillment_orders',
]

/** fulfillmentOrderHold and fulfillmentOrderReleaseHold (Admin GraphQL 2026-10). */
const HOLD_WRITES = [
  'write_merchant_managed_fulfillment_orders',
  'write_third_party_fulfillment_orders',
  'write_marketplace_fulfillment_orders',
]

/**
 * The scope each field needs, by the type it belongs to: the roots, and the fields of an object
 * that carry another resource (an order's shipping); a list when any one of them will do. Fields
 * not listed need none here.
 */
const FIELD_SCOPES = {
  Query: {
    products: 'read_products',
    productsCount: 'read_products',
    product: 'read_products',
    productVariants: 'read_products',
    productOperation: 'read_products',
    locations: 'read_locations',
    order: 'read_orders',
    orders: 'read_orders',
    fulfillment: 'read_fulfillments',
    fulfillmentOrder: FULFILLMENT_ORDER_READS,
  },
  Mutation: {
    productSet: 'write_products',
    inventorySetQuantities: 'write_inventory',
    orderCreate: 'write_orders',
    orderMarkAsPaid: 'write_orders',
    refundCreate: 'write_orders',
    orderCancel: 'write_orders',
    orderEditBegin: 'write_order_edits',
    orderEditAddVariant: 'write_order_edits',
    orderEditCommit: 'write_order_edits',
    fulfillmentCreate: FULFILLMENT_WRITES,
    fulfillmentTrackingInfoUpdate: FULFILLMENT_WRITES,
    fulfillmentOrderHold: HOLD_WRITES,
    fulfillmentOrderReleaseHold: HOLD_WRITES,
  },
  Order: {
    fulfillmentOrders: FULFILLMENT_ORDER_READS,
    fulfillments: 'read_fulfillments',
  },
} satisfies Record<string, Record<string, string | string[]>>

/** The kinds of location a fulfillment order can be assigned to, in the emulator. */
export type FulfillmentOrderKind = 'MERCHANT_MANAGED' | 'THIRD_PARTY'

const KIND_SCOPES: Record<FulfillmentOrderKind, { read: string; write: string }> = {
  MERCHANT_MANAGED: {
    read: 'read_merchant_managed_fulfillment_orders',
    write: 'write_merchant_managed_fulfillment_orders',
  },
  THIRD_PARTY: {
    read: 'read_third_party_fulfillment_orders',
    write: 'write_third_party_fulfillment_orders',
  },
}

/**
 * The kind of location a fulfillment order (or a fulfillment made from it) is assigned to: the
 * shop's own, or a fulfillment service's (ShopRecord.serviceLocations).
 */
export const kindOf = (record: { locationId?: string }): FulfillmentOrderKind =>
  record.locationId ? 'THIRD_PARTY' : 'MERCHANT_MANAGED'

/** Which fulfillment orders, by kind, a request may see or change; the admin reaches them all. */
export type Reach = (kind: FulfillmentOrderKind) => boolean

export const EVERY_KIND: Reach = () => true

export const reachOf =
  (scopes: string[], access: 'read' | 'write'): Reach =>
  (kind) =>
    grants(scopes, KIND_SCOPES[kind][access])

/** What a subscription to each topic needs: its deliveries carry that resource. */
const TOPIC_SCOPES: Record<WebhookTopic, string | null> = {
  APP_UNINSTALLED: null,
  ORDERS_PAID: 'read_orders',
  ORDERS_CANCELLED: 'read_orders',
  REFUNDS_CREATE: 'read_orders',
  PRODUCTS_CREATE: 'read_products',
  PRODUCTS_UPDATE: 'read_products',
  PRODUCTS_DELETE: 'read_products',
  INVENTORY_LEVELS_UPDATE: 'read_inventory',
  FULFILLMENTS_CREATE: 'read_fulfillments',
  FULFILLMENTS_UPDATE: 'read_fulfillments',
  FULFILLMENT_ORDERS_PLACED_ON_HOLD: 'read_merchant_managed_fulfillment_orders',
  FULFILLMENT_ORDERS_HOLD_RELEASED: 'read_merchant_managed_fulfillment_orders',
}

export const grants = (scopes: string[], needed: string) =>
  scopes.includes(needed) || scopes.includes(needed.replace(/^read_/, 'write_'))

/** Whether the scopes grant the one scope needed, or any one of a list. */
const grantsAny = (scopes: string[], needed: string | string[]) =>
  (Array.isArray(needed) ? needed : [needed]).some((scope) => grants(scopes, scope))

/** Shopify's words for what is needed: "`a` access scope, `b` access scope or `c` access scope." */
function requiredAccessOf(needed: string | string[]): string {
  const each = (Array.isArray(needed) ? needed : [needed]).map(
    (scope) => `\`${scope}\` access scope`,
  )
  const last = each.pop()!
  return `${each.length > 0 ? `${each.join(', ')} or ` : ''}${last}.`
}

/** The object, of that type, with each field the scopes do not cover answering ACCESS_DENIED. */
export function guarded<Value extends object>(
  type: keyof typeof FIELD_SCOPES,
  value: Value,
  scopes: string[],
): Value {
  const needs: Record<string, string | string[]> = FIELD_SCOPES[type]
  const entries = Object.entries(value).map(([field, resolve]) => {
    const needed = needs[field]
    if (!needed || grantsAny(scopes, needed)) return [field, resolve]
    const requiredAccess = requiredAccessOf(needed)
    const denied = new GraphQLError(
      `Access denied for ${field} field. Required access: ${requiredAccess}`,
      {
        extensions: {
          code: 'ACCESS_DENIED',
          documentation: 'https://shopify.dev/api/usage/access-scopes',
          requiredAccess,
        },
      },
    )
    return [
      field,
      () => {
        throw denied
      },
    ]
  })
  return Object.fromEntries(entries) as Value
}

/** The scope a subscription to the topic needs and the scopes lack, or null. */
export function missingTopicScope(scopes: string[], topic: WebhookTopic): string | null {
  const needed = TOPIC_SCOPES[topic]
  return needed && !grants(scopes, needed) ? needed : null
}
