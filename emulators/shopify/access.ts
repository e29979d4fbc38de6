import { GraphQLError } from 'graphql'
import type { WebhookTopic } from './webhooks'

// Access scopes as Shopify enforces them: a field the token's scopes do not cover resolves to an
// ACCESS_DENIED error at its path (so a non-null field nulls its parent), while the other fields
// of the request still answer. A write scope grants its read scope too.

/**
 * The scope each field needs, by the type it belongs to: the roots, and the fields of an object
 * that carry another resource (an order's shipping). Fields not listed need none here.
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
    fulfillmentOrder: 'read_merchant_managed_fulfillment_orders',
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
    fulfillmentCreate: 'write_fulfillments',
    fulfillmentTrackingInfoUpdate: 'write_fulfillments',
    fulfillmentOrderHold: 'write_merchant_managed_fulfillment_orders',
    fulfillmentOrderReleaseHold: 'write_merchant_managed_fulfillment_orders',
  },
  Order: {
    fulfillmentOrders: 'read_merchant_managed_fulfillment_orders',
    fulfillments: 'read_fulfillments',
  },
} satisfies Record<string, Record<string, string>>

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

/** The object, of that type, with each field the scopes do not cover answering ACCESS_DENIED. */
export function guarded<Value extends object>(
  type: keyof typeof FIELD_SCOPES,
  value: Value,
  scopes: string[],
): Value {
  const needs: Record<string, string> = FIELD_SCOPES[type]
  const entries = Object.entries(value).map(([field, resolve]) => {
    const needed = needs[field]
    if (!needed || grants(scopes, needed)) return [field, resolve]
    const requiredAccess = `\`${needed}\` access scope.`
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
