import type { ShopType } from '@shared/contract'
import type { ShopifyApi } from './shopify-api'
import { COMPLIANCE_TOPICS } from './shopify-webhook-payloads'

// The webhooks each connected shop sends Tandem (docs/integrations.md "Shopify"): creator shops
// their paid orders (the creator-order index), refunds and cancellations (what goes back after the
// transfer) and product changes (a listed product's price or status put back), every shop its
// uninstall, brand shops their product and stock changes (what listings follow) and their
// shipments, holds and cancellations (what the creators' orders follow); and every shop Shopify's
// mandatory compliance topics (docs/privacy.md). A shop connected before a topic was added here
// sends it once its connection is tested again, which registers every topic.

const TOPICS = {
  CREATOR: [
    'ORDERS_PAID',
    'APP_UNINSTALLED',
    'REFUNDS_CREATE',
    'ORDERS_CANCELLED',
    'PRODUCTS_UPDATE',
  ],
  BRAND: [
    'APP_UNINSTALLED',
    'PRODUCTS_UPDATE',
    'PRODUCTS_DELETE',
    'INVENTORY_LEVELS_UPDATE',
    'FULFILLMENTS_CREATE',
    'FULFILLMENTS_UPDATE',
    'FULFILLMENT_ORDERS_PLACED_ON_HOLD',
    'FULFILLMENT_ORDERS_HOLD_RELEASED',
    'ORDERS_CANCELLED',
  ],
} as const

/** The topics a shop of the type is subscribed to when it connects. */
export const webhookTopicsOf = (type: ShopType): readonly string[] => TOPICS[type]

const SUBSCRIBE = /* GraphQL */ `
  mutation WebhookSubscribe($topic: WebhookSubscriptionTopic!, $uri: String!) {
    webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri, format: JSON }) {
      webhookSubscription {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`

/**
 * Whether shops of this type are subscribed to the topic as X-Shopify-Topic names it
 * (ORDERS_PAID is orders/paid): a signed body of another topic is none Shopify would send. The
 * compliance topics are named in the app's configuration, not subscribed to through the Admin API
 * (registerWebhooks leaves them out), and Shopify sends them for every shop.
 */
export const subscribedTo = (shopType: ShopType, headerTopic: string): boolean =>
  COMPLIANCE_TOPICS.includes(headerTopic) ||
  TOPICS[shopType].some((topic) => headerOf(topic) === headerTopic)

/** Resources whose names hold an underscore: the slash comes after them, not at the last one. */
const RESOURCES = ['inventory_levels', 'fulfillment_orders']

/**
 * The topic as X-Shopify-Topic writes it: the resource, a slash, the event (ORDERS_PAID is
 * orders/paid, FULFILLMENT_ORDERS_PLACED_ON_HOLD is fulfillment_orders/placed_on_hold).
 */
function headerOf(topic: string): string {
  const lower = topic.toLowerCase()
  const resource =
    RESOURCES.find((name) => lower.startsWith(`${name}_`)) ?? lower.slice(0, lower.indexOf('_'))
  return `${resource}/${lower.slice(resource.length + 1)}`
}

/** Shopify's answer when the shop already sends this topic to this address. */
const ALREADY_SUBSCRIBED = /already been taken/

/** The path Shopify posts every webhook to. */
export const WEBHOOK_PATH = '/webhooks/shopify'

/** Subscribes the shop to its type's topics; a topic it already sends here counts as done. */
export async function registerWebhooks(
  deps: { api: ShopifyApi; publicUrl: string },
  shop: string,
  shopType: ShopType,
): Promise<void> {
  for (const topic of TOPICS[shopType]) {
    const answer: {
      webhookSubscriptionCreate: { userErrors: { message: string }[] }
    } = await deps.api.request(shop, SUBSCRIBE, { topic, uri: deps.publicUrl + WEBHOOK_PATH })
    const refusals = answer.webhookSubscriptionCreate.userErrors.filter(
      (error) => !ALREADY_SUBSCRIBED.test(error.message),
    )
    if (refusals.length > 0) {
      throw new Error(
        `Shopify refused the ${topic} webhook of ${shop}: ${refusals.map((r) => r.message).join('; ')}`,
      )
    }
  }
}
