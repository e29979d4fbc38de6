import { buildSchema } from 'graphql'

// The part of Shopify's Admin GraphQL API 2026-10 that Tandem uses, with Shopify's names and
// shapes. Shopify's very large enums (currencies, countries) are scalars holding the ISO code;
// the enums kept here list Shopify's values, or the subset the emulator can produce.

export const API_VERSION = '2026-10'

/** Relay's connection and edge types of each type Shopify pages, all alike. */
const connections = ['Product', 'ProductVariant', 'Order', 'LineItem', 'WebhookSubscription']
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

  type Query {
    shop: Shop!
    currentAppInstallation: AppInstallation!
    productsCount(query: String, limit: Int = 10000): Count
    products(first: Int, last: Int, after: String, before: String, query: String,
      sortKey: ProductSortKeys = ID, reverse: Boolean = false): ProductConnection!
    product(id: ID!): Product
    productVariants(first: Int, last: Int, after: String, before: String,
      query: String): ProductVariantConnection!
    order(id: ID!): Order
    orders(first: Int, last: Int, after: String, before: String, query: String,
      sortKey: OrderSortKeys = ID, reverse: Boolean = false): OrderConnection!
    currentBulkOperation(type: BulkOperationType = QUERY): BulkOperation
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
    webhookSubscriptions(first: Int, last: Int, after: String, before: String,
      topics: [WebhookSubscriptionTopic!]): WebhookSubscriptionConnection!
  }

  type Mutation {
    orderCreate(order: OrderCreateOrderInput!, options: OrderCreateOptionsInput): OrderCreatePayload
    orderMarkAsPaid(input: OrderMarkAsPaidInput!): OrderMarkAsPaidPayload
    bulkOperationRunQuery(query: String!): BulkOperationRunQueryPayload
    webhookSubscriptionCreate(topic: WebhookSubscriptionTopic!,
      webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionCreatePayload
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

  interface Media { id: ID!, preview: MediaPreviewImage }

  type MediaImage implements Media & Node {
    id: ID!
    preview: MediaPreviewImage
    image: Image
  }

  type Product implements Node {
    id: ID!
    title: String!
    handle: String!
    status: ProductStatus!
    updatedAt: DateTime!
    featuredMedia: Media
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
    product: Product!
    metafield(namespace: String, key: String!): Metafield
  }


  enum OrderDisplayFinancialStatus {
    AUTHORIZED EXPIRED PAID PARTIALLY_PAID PARTIALLY_REFUNDED PENDING REFUNDED VOIDED
  }

  enum OrderSortKeys { CREATED_AT ID }

  type MoneyV2 { amount: Decimal!, currencyCode: CurrencyCode! }

  type MoneyBag { shopMoney: MoneyV2!, presentmentMoney: MoneyV2! }

  type MailingAddress {
    firstName: String
    lastName: String
    address1: String
    address2: String
    city: String
    province: String
    zip: String
    country: String
    countryCodeV2: CountryCode
    phone: String
  }

  type Order implements Node {
    id: ID!
    name: String!
    email: String
    createdAt: DateTime!
    cancelledAt: DateTime
    displayFinancialStatus: OrderDisplayFinancialStatus
    currencyCode: CurrencyCode!
    presentmentCurrencyCode: CurrencyCode!
    tags: [String!]!
    note: String
    discountCodes: [String!]!
    subtotalPriceSet: MoneyBag
    totalDiscountsSet: MoneyBag
    totalTaxSet: MoneyBag
    totalShippingPriceSet: MoneyBag!
    totalPriceSet: MoneyBag!
    totalRefundedSet: MoneyBag!
    shippingAddress: MailingAddress
    refunds(first: Int): [Refund!]!
    lineItems(first: Int, last: Int, after: String, before: String): LineItemConnection!
    metafield(namespace: String, key: String!): Metafield
  }


  type Refund implements Node { id: ID!, createdAt: DateTime, totalRefundedSet: MoneyBag! }

  type DiscountAllocation { allocatedAmountSet: MoneyBag! }

  type LineItem implements Node {
    id: ID!
    title: String!
    quantity: Int!
    currentQuantity: Int!
    variant: ProductVariant
    image: Image
    originalUnitPriceSet: MoneyBag!
    originalTotalSet: MoneyBag!
    discountedTotalSet: MoneyBag!
    totalDiscountSet: MoneyBag!
    discountAllocations: [DiscountAllocation!]!
  }


  input MailingAddressInput {
    firstName: String
    lastName: String
    address1: String
    address2: String
    city: String
    province: String
    zip: String
    countryCode: CountryCode
    phone: String
  }

  input OrderCreateLineItemInput { variantId: ID, quantity: Int! }

  input MetafieldInput {
    namespace: String
    key: String!
    value: String!
    type: String
  }

  input OrderCreateOrderInput {
    currency: CurrencyCode
    email: String
    lineItems: [OrderCreateLineItemInput!]
    shippingAddress: MailingAddressInput
    tags: [String!]
    note: String
    metafields: [MetafieldInput!]
  }

  enum OrderCreateInputsInventoryBehavior {
    BYPASS DECREMENT_IGNORING_POLICY DECREMENT_OBEYING_POLICY
  }

  input OrderCreateOptionsInput {
    inventoryBehaviour: OrderCreateInputsInventoryBehavior = BYPASS
    sendReceipt: Boolean = false
    sendFulfillmentReceipt: Boolean = false
  }

  enum OrderCreateUserErrorCode {
    FULFILLMENT_SERVICE_INVALID INVALID INVENTORY_CLAIM_FAILED PROCESSED_AT_INVALID
    REDUNDANT_CUSTOMER_FIELDS SHOP_DORMANT TAX_LINE_RATE_MISSING
  }

  type OrderCreateUserError {
    field: [String!]
    message: String!
    code: OrderCreateUserErrorCode
  }

  type OrderCreatePayload { order: Order, userErrors: [OrderCreateUserError!]! }

  type UserError { field: [String!], message: String! }

  input OrderMarkAsPaidInput { id: ID! }

  type OrderMarkAsPaidPayload { order: Order, userErrors: [UserError!]! }

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

  enum WebhookSubscriptionTopic { APP_UNINSTALLED ORDERS_PAID PRODUCTS_DELETE PRODUCTS_UPDATE }

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
  ${connections}
`)
