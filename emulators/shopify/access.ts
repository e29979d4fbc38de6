import { GraphQLError } from 'graphql'
import type { WebhookTopic } from './webhooks'

// Access scopes as Shopify enforces them: a root field the token's scopes do not cover resolves
// to an ACCESS_DENIED error at its path (so a non-null field nulls the data), while the other
// fields of the request still answer. A write scope grants its read scope too.

/** The scope each root field needs; fields not listed (shop, node, webhooks…) need none here. */
const FIELD_SCOPES: Record<string, string> = {
  products: 'read_products',
  productsCount: 'read_products',
  product: 'read_products',
  productVariants: 'read_products',
  productOperation: 'read_products',
  locations: 'read_locations',
  order: 'read_orders',
  orders: 'read_orders',
  productSet: 'write_products',
  inventorySetQuantities: 'write_inventory',
  orderCreate: 'write_orders',
  orderMarkAsPaid: 'write_orders',
  refundCreate: 'write_orders',
  orderCancel: 'write_orders',
}

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
}

export const grants = (scopes: string[], needed: string) =>
  scopes.includes(needed) || scopes.includes(needed.replace(/^read_/, 'write_'))

/** The root value with each field the scopes do not cover answering Shopify's ACCESS_DENIED. */
export function guarded<Root extends object>(root: Root, scopes: string[]): Root {
  const entries = Object.entries(root).map(([field, resolve]) => {
    const needed = FIELD_SCOPES[field]
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
  return Object.fromEntries(entries) as Root
}

/** The scope a subscription to the topic needs and the scopes lack, or null. */
export function missingTopicScope(scopes: string[], topic: WebhookTopic): string | null {
  const needed = TOPIC_SCOPES[topic]
  return needed && !grants(scopes, needed) ? needed : null
}
