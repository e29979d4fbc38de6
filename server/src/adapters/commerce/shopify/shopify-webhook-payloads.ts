import { z } from 'zod'

// What Shopify posts for each topic Tandem subscribes to (the REST shapes of webhooks). Shopify's
// signature covers the body, not the X-Shopify-Topic header beside it: a signed body of one
// topic resent under another topic's name still verifies. So each body must be the shape its
// topic's body has, tied to its own resource (an order's or product's admin_graphql_api_id, the
// shop's own domain), before anything is done with it.

/** Shopify's numeric ids; JSON numbers, as its REST bodies carry them. */
const numericId = z.number().int().positive()

/** The object's admin_graphql_api_id must be the GID of its own id, of this type. */
const ownGid = (type: string) => (body: { id: number; admin_graphql_api_id: string }) =>
  body.admin_graphql_api_id === `gid://shopify/${type}/${body.id}`

const paidOrder = z
  .object({ id: numericId, admin_graphql_api_id: z.string() })
  .loose()
  .refine(ownGid('Order'))

// A refund names its order by id: the refund is read from the order's own shop, not the body.
const refund = z
  .object({ id: numericId, admin_graphql_api_id: z.string(), order_id: numericId })
  .loose()
  .refine(ownGid('Refund'))

// A fulfillment names its order by id: the order's shipping is read from its shop, not the body.
const fulfillment = z
  .object({ id: numericId, admin_graphql_api_id: z.string(), order_id: numericId })
  .loose()
  .refine(ownGid('Fulfillment'))

// A hold placed or released names its fulfillment order, whose order is asked of Shopify.
const heldFulfillmentOrder = z
  .object({
    fulfillment_order: z
      .object({ id: z.string().regex(/^gid:\/\/shopify\/FulfillmentOrder\/\d+$/) })
      .loose(),
  })
  .loose()

const product = z
  .object({
    id: numericId,
    admin_graphql_api_id: z.string(),
    title: z.string(),
    // Which of two versions is newer: deliveries may arrive out of order.
    updated_at: z.iso.datetime({ offset: true }),
    // Any status Shopify has or adds (ACTIVE, DRAFT, ARCHIVED, UNLISTED …), as it writes them.
    status: z.string().regex(/^[A-Za-z_]{1,40}$/),
    variants: z.array(z.object({ price: z.string().regex(/^\d{1,15}(\.\d{1,6})?$/) }).loose()),
    // Its featured image; null when it has none.
    image: z
      .object({ src: z.url({ protocol: /^https?$/ }) })
      .loose()
      .nullish(),
  })
  .loose()
  .refine(ownGid('Product'))

// products/delete carries the deleted product's id and nothing else; any other field means the
// body was made for another topic (an order's or a shop's, whose id is not a product's).
const deletedProduct = z.strictObject({ id: numericId })

// A stock change names its inventory item and location; the stock is read from Shopify, not here.
const inventoryLevel = z
  .object({
    inventory_item_id: numericId,
    location_id: numericId,
    updated_at: z.iso.datetime({ offset: true }),
  })
  .loose()

/** The shop the app was removed from: it must be the shop that signed the delivery. */
const uninstalledShop = (shop: string) =>
  z
    .object({ id: numericId, myshopify_domain: z.string() })
    .loose()
    .refine((body) => body.myshopify_domain === shop)

// The compliance topics (docs/privacy.md) name their shop by shop_domain, which must be the shop
// that signed them: no shop asks for, or erases, another shop's data.
const ofShop = (shop: string) => (body: { shop_domain: string }) => body.shop_domain === shop

/** The customer a compliance request is about; Shopify sends null for what it does not know. */
const customer = z
  .object({ id: numericId, email: z.string().nullish(), phone: z.string().nullish() })
  .loose()

const customerDataRequest = (shop: string) =>
  z
    .object({
      shop_id: numericId,
      shop_domain: z.string(),
      orders_requested: z.array(numericId),
      customer,
      data_request: z.object({ id: numericId }).loose(),
    })
    .loose()
    .refine(ofShop(shop))

const customerRedact = (shop: string) =>
  z
    .object({
      shop_id: numericId,
      shop_domain: z.string(),
      customer,
      orders_to_redact: z.array(numericId),
    })
    .loose()
    .refine(ofShop(shop))

// shop/redact carries the shop and nothing else: a customer request relabelled as it (the
// signature does not cover the topic) is refused rather than read as the erasure of a shop.
const shopRedact = (shop: string) =>
  z.strictObject({ shop_id: numericId, shop_domain: z.string() }).refine(ofShop(shop))

/** Each topic's shape, and what Shopify sends for it (said when a body does not fit). */
const SHAPES = {
  'orders/paid': {
    schema: () => paidOrder,
    sent: () => 'an order, whose admin_graphql_api_id is gid://shopify/Order/{its id}',
  },
  'orders/cancelled': {
    schema: () => paidOrder,
    sent: () => 'an order, whose admin_graphql_api_id is gid://shopify/Order/{its id}',
  },
  'refunds/create': {
    schema: () => refund,
    sent: () =>
      'a refund with its order_id, whose admin_graphql_api_id is gid://shopify/Refund/{its id}',
  },
  'fulfillments/create': {
    schema: () => fulfillment,
    sent: () =>
      'a fulfillment with its order_id, whose admin_graphql_api_id is gid://shopify/Fulfillment/{its id}',
  },
  'fulfillments/update': {
    schema: () => fulfillment,
    sent: () =>
      'a fulfillment with its order_id, whose admin_graphql_api_id is gid://shopify/Fulfillment/{its id}',
  },
  'fulfillment_orders/placed_on_hold': {
    schema: () => heldFulfillmentOrder,
    sent: () => 'a fulfillment_order whose id is a gid://shopify/FulfillmentOrder/…',
  },
  'fulfillment_orders/hold_released': {
    schema: () => heldFulfillmentOrder,
    sent: () => 'a fulfillment_order whose id is a gid://shopify/FulfillmentOrder/…',
  },
  'products/update': {
    schema: () => product,
    sent: () =>
      'a product (title, status, variants, updated_at), whose admin_graphql_api_id is gid://shopify/Product/{its id}',
  },
  'products/delete': {
    schema: () => deletedProduct,
    sent: () => 'the deleted product’s id and nothing else',
  },
  'inventory_levels/update': {
    schema: () => inventoryLevel,
    sent: () => 'an inventory level: inventory_item_id, location_id and updated_at',
  },
  'app/uninstalled': {
    schema: uninstalledShop,
    sent: (shop: string) => `the shop object, whose myshopify_domain is ${shop}`,
  },
  'customers/data_request': {
    schema: customerDataRequest,
    sent: (shop: string) =>
      `shop_id, shop_domain ${shop}, orders_requested, customer { id, email, phone } and data_request { id }`,
  },
  'customers/redact': {
    schema: customerRedact,
    sent: (shop: string) =>
      `shop_id, shop_domain ${shop}, customer { id, email, phone } and orders_to_redact`,
  },
  'shop/redact': {
    schema: shopRedact,
    sent: (shop: string) => `shop_id and shop_domain ${shop}, and nothing else`,
  },
} satisfies Record<string, { schema: (shop: string) => z.ZodType; sent: (shop: string) => string }>

export type WebhookTopic = keyof typeof SHAPES

/** A delivery's body, checked against its topic's shape. */
export type WebhookPayload = {
  [T in WebhookTopic]: { topic: T; body: z.infer<ReturnType<(typeof SHAPES)[T]['schema']>> }
}[WebhookTopic]

export type ProductPayload = z.infer<typeof product>
export type CustomerDataRequestPayload = z.infer<ReturnType<typeof customerDataRequest>>
export type CustomerRedactPayload = z.infer<ReturnType<typeof customerRedact>>

/**
 * Shopify's mandatory compliance topics, sent for every shop. Their bodies name a customer or a
 * shop to forget: they are not kept once acted on (docs/privacy.md).
 */
export const COMPLIANCE_TOPICS: readonly string[] = [
  'customers/data_request',
  'customers/redact',
  'shop/redact',
] satisfies WebhookTopic[]

const isTopic = (topic: string): topic is WebhookTopic => Object.hasOwn(SHAPES, topic)

/** The body of a signed delivery as its topic's payload, or why it is not one (a sentence). */
export function readWebhookPayload(
  shop: string,
  topic: string,
  rawBody: Buffer,
): { payload: WebhookPayload } | { refusal: string } {
  if (!isTopic(topic)) {
    return { refusal: `Tandem does not subscribe to the topic ${topic} (X-Shopify-Topic)` }
  }
  let json: unknown
  try {
    json = JSON.parse(rawBody.toString('utf8'))
  } catch {
    return { refusal: 'The webhook body is not valid JSON' }
  }
  const shape = SHAPES[topic]
  const parsed = shape.schema(shop).safeParse(json)
  if (!parsed.success) {
    return {
      refusal: `The webhook body does not fit its topic ${topic}: Shopify sends ${shape.sent(shop)}`,
    }
  }
  return { payload: { topic, body: parsed.data } as WebhookPayload }
}
