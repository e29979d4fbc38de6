import { buildSchema } from 'graphql'
import { catalogTypes } from './schema-catalog'
import { fulfillmentTypes } from './schema-fulfillments'
import { orderTypes } from './schema-orders'

// The part of Shopify's Admin GraphQL API 2026-10 that Tandem uses, with Shopify's names and
// shapes. Shopify's very large enums (currencies, countries) are scalars holding the ISO code;
// the enums kept here list Shopify's values, or the subset the emulator can produce.

export const API_VERSION = '2026-10'

/** Relay's connection and edge types of each type Shopify pages, all alike. */
const connections = [
  'Product',
  'ProductVariant',
  'Media',
  'Location',
  'Order',
  'LineItem',
  'RefundLineItem',
  'RefundShippingLine',
  'OrderTransaction',
  'FulfillmentOrder',
  'FulfillmentOrderLineItem',
  'FulfillmentLineItem',
  'WebhookSubscription',
  'CalculatedLineItem',
]
  .map(
    (type) => `
  type ${type}Connection { nodes: [${type}!]!, edges: [${type}Edge!]!, pageInfo: PageInfo! }
  type ${type}Edge { cursor: String!, node: ${type}! }`,
  )
  .join('\n')

export const schema = buildSchema(`
  scalar DateTime
  scalar URL
  scalar Decimal
  scalar Money
  scalar UnsignedInt64
  scalar CurrencyCode
  scalar CountryCode

  interface Node { id: ID! }

  "Required on refundCreate and inventorySetQuantities since 2026-04: a retry acts once."
  directive @idempotent(key: String!) on FIELD

  type Query {
    shop: Shop!
    currentAppInstallation: AppInstallation!
    productsCount(query: String, limit: Int = 10000): Count
    products(first: Int, last: Int, after: String, before: String, query: String,
      sortKey: ProductSortKeys = ID, reverse: Boolean = false): ProductConnection!
    product(id: ID!): Product
    productOperation(id: ID!): ProductOperation
    locations(first: Int, last: Int, after: String, before: String): LocationConnection!
    productVariants(first: Int, last: Int, after: String, before: String,
      query: String): ProductVariantConnection!
    order(id: ID!): Order
    orders(first: Int, last: Int, after: String, before: String, query: String,
      sortKey: OrderSortKeys = ID, reverse: Boolean = false): OrderConnection!
    fulfillment(id: ID!): Fulfillment
    fulfillmentOrder(id: ID!): FulfillmentOrder
    job(id: ID!): Job
    currentBulkOperation(type: BulkOperationType = QUERY): BulkOperation
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
    webhookSubscriptions(first: Int, last: Int, after: String, before: String,
      topics: [WebhookSubscriptionTopic!]): WebhookSubscriptionConnection!
  }

  type Mutation {
    orderCreate(order: OrderCreateOrderInput!, options: OrderCreateOptionsInput): OrderCreatePayload
    orderMarkAsPaid(input: OrderMarkAsPaidInput!): OrderMarkAsPaidPayload
    orderEditBegin(id: ID!): OrderEditBeginPayload
    orderEditAddVariant(id: ID!, variantId: ID!, quantity: Int!, locationId: ID,
      allowDuplicates: Boolean = false): OrderEditAddVariantPayload
    orderEditCommit(id: ID!, notifyCustomer: Boolean, staffNote: String): OrderEditCommitPayload
    refundCreate(input: RefundInput!): RefundCreatePayload
    orderCancel(orderId: ID!, refund: Boolean @deprecated(reason: "Use \`refundMethod\` instead."),
      refundMethod: OrderCancelRefundMethodInput, restock: Boolean!, reason: OrderCancelReason!,
      notifyCustomer: Boolean = false, staffNote: String = null): OrderCancelPayload
    productSet(input: ProductSetInput!, synchronous: Boolean = true,
      identifier: ProductSetIdentifiers): ProductSetPayload
    inventorySetQuantities(input: InventorySetQuantitiesInput!): InventorySetQuantitiesPayload
    fulfillmentCreate(fulfillment: FulfillmentInput!, message: String): FulfillmentCreatePayload
    fulfillmentTrackingInfoUpdate(fulfillmentId: ID!, trackingInfoInput: FulfillmentTrackingInput!,
      notifyCustomer: Boolean): FulfillmentTrackingInfoUpdatePayload
    fulfillmentOrderHold(id: ID!, fulfillmentHold: FulfillmentOrderHoldInput!):
      FulfillmentOrderHoldPayload
    fulfillmentOrderReleaseHold(id: ID!, holdIds: [ID!], externalId: String):
      FulfillmentOrderReleaseHoldPayload
    bulkOperationRunQuery(query: String!): BulkOperationRunQueryPayload
    webhookSubscriptionCreate(topic: WebhookSubscriptionTopic!,
      webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionCreatePayload
    webhookSubscriptionDelete(id: ID!): WebhookSubscriptionDeletePayload
  }

  type Shop implements Node {
    id: ID!
    name: String!
    myshopifyDomain: String!
    currencyCode: CurrencyCode!
  }

  type AppInstallation implements Node { id: ID!, accessScopes: [AccessScope!]! }

  type AccessScope { handle: String!, description: String! }

  enum CountPrecision { EXACT AT_LEAST }

  type Count { count: Int!, precision: CountPrecision! }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  enum ProductStatus { ACTIVE ARCHIVED DRAFT UNLISTED }

  enum ProductSortKeys { ID TITLE UPDATED_AT }

  type Image { url: URL!, altText: String }

  type MediaPreviewImage { image: Image }

  enum MediaContentType { EXTERNAL_VIDEO IMAGE MODEL_3D VIDEO }

  interface Media {
    id: ID!
    alt: String
    mediaContentType: MediaContentType!
    preview: MediaPreviewImage
  }

  type MediaImage implements Media & Node {
    id: ID!
    alt: String
    mediaContentType: MediaContentType!
    preview: MediaPreviewImage
    image: Image
  }

  type Product implements Node {
    id: ID!
    title: String!
    handle: String!
    descriptionHtml: HTML!
    vendor: String!
    status: ProductStatus!
    createdAt: DateTime!
    updatedAt: DateTime!
    options(first: Int): [ProductOption!]!
    featuredMedia: Media
    media(first: Int, last: Int, after: String, before: String): MediaConnection!
    variants(first: Int, last: Int, after: String, before: String): ProductVariantConnection!
    variantsCount: Count
    priceRangeV2: ProductPriceRangeV2!
  }

  type ProductPriceRangeV2 { minVariantPrice: MoneyV2!, maxVariantPrice: MoneyV2! }


  enum ProductVariantInventoryPolicy { DENY CONTINUE }

  type Metafield {
    namespace: String!
    key: String!
    value: String!
    type: String!
  }

  type ProductVariant implements Node {
    id: ID!
    title: String!
    sku: String
    price: Money!
    inventoryQuantity: Int
    inventoryPolicy: ProductVariantInventoryPolicy!
    selectedOptions: [SelectedOption!]!
    inventoryItem: InventoryItem!
    product: Product!
    metafield(namespace: String, key: String!): Metafield
  }


  ${orderTypes}

  ${fulfillmentTypes}

  ${catalogTypes}


  type UserError { field: [String!], message: String! }

  enum BulkOperationStatus { CANCELED CANCELING COMPLETED CREATED EXPIRED FAILED RUNNING }

  enum BulkOperationType { MUTATION QUERY }

  enum BulkOperationErrorCode { ACCESS_DENIED INTERNAL_SERVER_ERROR TIMEOUT }

  type BulkOperation implements Node {
    id: ID!
    status: BulkOperationStatus!
    errorCode: BulkOperationErrorCode
    objectCount: UnsignedInt64!
    rootObjectCount: UnsignedInt64!
    url: URL
    partialDataUrl: URL
    createdAt: DateTime!
    completedAt: DateTime
    fileSize: UnsignedInt64
    query: String!
    type: BulkOperationType!
  }

  type BulkOperationUserError { field: [String!], message: String! }

  type BulkOperationRunQueryPayload {
    bulkOperation: BulkOperation
    userErrors: [BulkOperationUserError!]!
  }

  enum WebhookSubscriptionTopic {
    APP_UNINSTALLED FULFILLMENT_ORDERS_HOLD_RELEASED FULFILLMENT_ORDERS_PLACED_ON_HOLD
    FULFILLMENTS_CREATE FULFILLMENTS_UPDATE INVENTORY_LEVELS_UPDATE ORDERS_CANCELLED ORDERS_PAID
    PRODUCTS_CREATE PRODUCTS_DELETE PRODUCTS_UPDATE REFUNDS_CREATE
  }

  enum WebhookSubscriptionFormat { JSON XML }

  input WebhookSubscriptionInput {
    uri: String
    callbackUrl: URL
    format: WebhookSubscriptionFormat = JSON
  }

  type WebhookSubscription implements Node {
    id: ID!
    topic: WebhookSubscriptionTopic!
    uri: String!
    format: WebhookSubscriptionFormat!
    createdAt: DateTime!
  }


  type WebhookSubscriptionCreatePayload {
    webhookSubscription: WebhookSubscription
    userErrors: [UserError!]!
  }

  type WebhookSubscriptionDeletePayload {
    deletedWebhookSubscriptionId: ID
    userErrors: [UserError!]!
  }
  ${connections}
`)
