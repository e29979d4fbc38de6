// The orders part of the schema: orders and their lines, their payments, refunds and
// cancellation, and the mutations that make and change them (their shipping is in
// schema-fulfillments.ts). Shopify's names and shapes, as far as Tandem reads and writes them;
// what the emulator cannot model (duties, store credit, exchanges) is left out, so that a request
// using it fails validation instead of being ignored.

export const orderTypes = `
  enum OrderDisplayFinancialStatus {
    AUTHORIZED EXPIRED PAID PARTIALLY_PAID PARTIALLY_REFUNDED PENDING REFUNDED VOIDED
  }

  enum OrderSortKeys { CREATED_AT ID UPDATED_AT }

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

  "Order risk (Admin API 2026-10: Order.risk, OrderRiskSummary, OrderRiskAssessment, RiskFact)."
  enum OrderRiskRecommendationResult { ACCEPT CANCEL INVESTIGATE NONE }

  enum RiskAssessmentResult { HIGH LOW MEDIUM NONE PENDING }

  enum RiskFactSentiment { NEGATIVE NEUTRAL POSITIVE }

  type RiskFact { description: String!, sentiment: RiskFactSentiment! }

  "The app that made an assessment; only its title is modelled."
  type App { title: String! }

  type OrderRiskAssessment { facts: [RiskFact!]!, provider: App, riskLevel: RiskAssessmentResult! }

  type OrderRiskSummary {
    assessments: [OrderRiskAssessment!]!
    recommendation: OrderRiskRecommendationResult!
  }

  type Order implements Node {
    id: ID!
    name: String!
    email: String
    createdAt: DateTime!
    updatedAt: DateTime!
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
    totalRefundedShippingSet: MoneyBag!
    totalReceivedSet: MoneyBag!
    netPaymentSet: MoneyBag!
    cancelReason: OrderCancelReason
    cancellation: OrderCancellation
    closed: Boolean!
    closedAt: DateTime
    shippingAddress: MailingAddress
    displayFulfillmentStatus: OrderDisplayFulfillmentStatus!
    risk: OrderRiskSummary!
    fulfillmentOrders(first: Int, last: Int, after: String, before: String):
      FulfillmentOrderConnection!
    fulfillments(first: Int): [Fulfillment!]!
    refunds(first: Int): [Refund!]!
    transactions(first: Int): [OrderTransaction!]!
    suggestedRefund(shippingAmount: Money, refundShipping: Boolean,
      refundLineItems: [RefundLineItemInput!], suggestFullRefund: Boolean = false): SuggestedRefund
    lineItems(first: Int, last: Int, after: String, before: String): LineItemConnection!
    metafield(namespace: String, key: String!): Metafield
  }



  type DiscountAllocation { allocatedAmountSet: MoneyBag! }

  type LineItem implements Node {
    id: ID!
    title: String!
    quantity: Int!
    currentQuantity: Int!
    unfulfilledQuantity: Int!
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

  input OrderMarkAsPaidInput { id: ID! }

  type OrderMarkAsPaidPayload { order: Order, userErrors: [UserError!]! }

  enum OrderCancelReason { CUSTOMER DECLINED FRAUD INVENTORY OTHER STAFF }

  type OrderCancellation { staffNote: String }

  enum OrderTransactionKind {
    SALE CAPTURE AUTHORIZATION VOID REFUND CHANGE EMV_AUTHORIZATION SUGGESTED_REFUND
  }

  enum OrderTransactionStatus { SUCCESS FAILURE PENDING ERROR AWAITING_RESPONSE UNKNOWN }

  type OrderTransaction implements Node {
    id: ID!
    kind: OrderTransactionKind!
    status: OrderTransactionStatus!
    gateway: String
    amountSet: MoneyBag!
    createdAt: DateTime!
    processedAt: DateTime
    parentTransaction: OrderTransaction
    manualPaymentGateway: Boolean!
    test: Boolean!
  }

  enum RefundLineItemRestockType { RETURN CANCEL LEGACY_RESTOCK NO_RESTOCK }

  type RefundLineItem {
    id: ID
    lineItem: LineItem!
    quantity: Int!
    restockType: RefundLineItemRestockType!
    restocked: Boolean!
    priceSet: MoneyBag!
    subtotalSet: MoneyBag!
    totalTaxSet: MoneyBag!
  }

  type Refund implements Node {
    id: ID!
    createdAt: DateTime
    processedAt: DateTime!
    updatedAt: DateTime!
    note: String
    order: Order!
    totalRefundedSet: MoneyBag!
    refundLineItems(first: Int, last: Int, after: String, before: String,
      reverse: Boolean = false): RefundLineItemConnection!
    refundShippingLines(first: Int, last: Int, after: String, before: String,
      reverse: Boolean = false): RefundShippingLineConnection!
    transactions(first: Int, last: Int, after: String, before: String,
      reverse: Boolean = false): OrderTransactionConnection!
  }

  # Refund.refundShippingLines (Admin GraphQL 2026-10); its shippingLine field is not emulated.
  type RefundShippingLine {
    id: ID!
    subtotalAmountSet: MoneyBag!
    taxAmountSet: MoneyBag!
  }

  type ShippingRefund { amountSet: MoneyBag!, maximumRefundableSet: MoneyBag!, taxSet: MoneyBag! }

  enum SuggestedOrderTransactionKind { SUGGESTED_REFUND }

  type SuggestedOrderTransaction {
    kind: SuggestedOrderTransactionKind!
    gateway: String
    amountSet: MoneyBag!
    maximumRefundableSet: MoneyBag
    parentTransaction: OrderTransaction
  }

  type SuggestedRefund {
    amountSet: MoneyBag!
    subtotalSet: MoneyBag!
    totalTaxSet: MoneyBag!
    maximumRefundableSet: MoneyBag!
    shipping: ShippingRefund!
    refundLineItems: [RefundLineItem!]!
    suggestedTransactions: [SuggestedOrderTransaction!]!
  }

  input RefundLineItemInput {
    lineItemId: ID!
    quantity: Int!
    restockType: RefundLineItemRestockType
    locationId: ID
  }

  input ShippingRefundInput { amount: Money, fullRefund: Boolean }

  input OrderTransactionInput {
    amount: Money!
    gateway: String!
    kind: OrderTransactionKind!
    orderId: ID!
    parentId: ID
  }

  enum OrderAdjustmentInputDiscrepancyReason { CUSTOMER DAMAGE OTHER RESTOCK }

  input RefundInput {
    currency: CurrencyCode
    orderId: ID!
    note: String
    notify: Boolean
    shipping: ShippingRefundInput
    processedAt: DateTime
    refundLineItems: [RefundLineItemInput!]
    transactions: [OrderTransactionInput!]
    discrepancyReason: OrderAdjustmentInputDiscrepancyReason
    allowOverRefunding: Boolean = false
  }

  type RefundCreatePayload { order: Order, refund: Refund, userErrors: [UserError!]! }

  type CalculatedLineItem {
    id: ID!
    title: String!
    quantity: Int!
    variant: ProductVariant
    originalUnitPriceSet: MoneyBag!
  }

  type CalculatedOrder implements Node {
    id: ID!
    committed: Boolean!
    originalOrder: Order!
    addedLineItems(first: Int, after: String): CalculatedLineItemConnection!
    totalPriceSet: MoneyBag!
    totalOutstandingSet: MoneyBag!
  }

  type OrderEditSession implements Node { id: ID! }

  type OrderEditBeginPayload {
    calculatedOrder: CalculatedOrder
    orderEditSession: OrderEditSession
    userErrors: [UserError!]!
  }

  type OrderEditAddVariantPayload {
    calculatedLineItem: CalculatedLineItem
    calculatedOrder: CalculatedOrder
    orderEditSession: OrderEditSession
    userErrors: [UserError!]!
  }

  type OrderEditCommitPayload { order: Order, successMessages: [String!], userErrors: [UserError!]! }

  input OrderCancelStoreCreditRefundInput { expiresAt: DateTime }

  input OrderCancelRefundMethodInput {
    originalPaymentMethodsRefund: Boolean
    storeCreditRefund: OrderCancelStoreCreditRefundInput
  }

  enum OrderCancelUserErrorCode {
    NO_REFUND_PERMISSION NO_REFUND_TO_STORE_CREDIT_PERMISSION STORE_CREDIT_REFUND_EXPIRATION_IN_PAST
    STORE_CREDIT_REFUND_MISSING_CUSTOMER STORE_CREDIT_REFUND_B2B_NOT_SUPPORTED NOT_FOUND INVALID
    INTERNAL_ERROR
  }

  type OrderCancelUserError { code: OrderCancelUserErrorCode, field: [String!], message: String! }

  type Job { id: ID!, done: Boolean! }

  type OrderCancelPayload {
    job: Job
    orderCancelUserErrors: [OrderCancelUserError!]!
    userErrors: [UserError!]! @deprecated(reason: "Use \`orderCancelUserErrors\` instead.")
  }
`
