// The shipping part of the schema: an order's fulfillment orders (what is to ship, from where, on
// hold or not) and fulfillments (what shipped, with tracking), and the mutations they ship with.
// Shopify's names and shapes, as far as Tandem reads and writes them; fulfillment requests,
// splits and moves are left out, so that a request using them fails validation instead of being
// ignored.

export const fulfillmentTypes = `
  enum OrderDisplayFulfillmentStatus {
    FULFILLED IN_PROGRESS ON_HOLD OPEN PARTIALLY_FULFILLED PENDING_FULFILLMENT REQUEST_DECLINED
    RESTOCKED SCHEDULED UNFULFILLED
  }

  enum FulfillmentOrderStatus { CANCELLED CLOSED INCOMPLETE IN_PROGRESS ON_HOLD OPEN SCHEDULED }

  "Fulfillment services' requests; the emulator makes none, so every one is UNSUBMITTED."
  enum FulfillmentOrderRequestStatus {
    ACCEPTED CANCELLATION_ACCEPTED CANCELLATION_REJECTED CANCELLATION_REQUESTED CLOSED REJECTED
    SUBMITTED UNSUBMITTED
  }

  enum FulfillmentHoldReason {
    AWAITING_PAYMENT AWAITING_RETURN_ITEMS HIGH_RISK_OF_FRAUD INCORRECT_ADDRESS
    INVENTORY_OUT_OF_STOCK ONLINE_STORE_POST_PURCHASE_CROSS_SELL OTHER UNKNOWN_DELIVERY_DATE
  }

  type FulfillmentHold implements Node { id: ID!, reason: FulfillmentHoldReason!, reasonNotes: String }

  type FulfillmentOrderAssignedLocation { name: String, location: Location }

  type FulfillmentOrderLineItem implements Node {
    id: ID!
    totalQuantity: Int!
    remainingQuantity: Int!
    lineItem: LineItem!
  }

  type FulfillmentOrder implements Node {
    id: ID!
    status: FulfillmentOrderStatus!
    requestStatus: FulfillmentOrderRequestStatus!
    fulfillmentHolds: [FulfillmentHold!]!
    assignedLocation: FulfillmentOrderAssignedLocation!
    lineItems(first: Int, last: Int, after: String, before: String):
      FulfillmentOrderLineItemConnection!
    orderId: ID!
    order: Order!
  }

  enum FulfillmentStatus { CANCELLED ERROR FAILURE SUCCESS OPEN PENDING }

  type FulfillmentTrackingInfo { company: String, number: String, url: URL }

  type FulfillmentLineItem implements Node { id: ID!, quantity: Int, lineItem: LineItem! }

  type Fulfillment implements Node {
    id: ID!
    name: String!
    status: FulfillmentStatus!
    createdAt: DateTime!
    updatedAt: DateTime!
    trackingInfo(first: Int): [FulfillmentTrackingInfo!]!
    fulfillmentLineItems(first: Int, last: Int, after: String, before: String):
      FulfillmentLineItemConnection!
    location: Location
    order: Order!
  }

  input FulfillmentOrderLineItemInput { id: ID!, quantity: Int! }

  input FulfillmentOrderLineItemsInput {
    fulfillmentOrderId: ID!
    fulfillmentOrderLineItems: [FulfillmentOrderLineItemInput!]
  }

  input FulfillmentTrackingInput {
    company: String
    number: String
    url: URL
    numbers: [String!]
    urls: [URL!]
  }

  input FulfillmentOriginAddressInput {
    address1: String
    address2: String
    city: String
    countryCode: String!
    provinceCode: String
    zip: String
  }

  input FulfillmentInput {
    lineItemsByFulfillmentOrder: [FulfillmentOrderLineItemsInput!]!
    notifyCustomer: Boolean = false
    trackingInfo: FulfillmentTrackingInput
    originAddress: FulfillmentOriginAddressInput
  }

  type FulfillmentCreatePayload { fulfillment: Fulfillment, userErrors: [UserError!]! }

  type FulfillmentTrackingInfoUpdatePayload {
    fulfillment: Fulfillment
    userErrors: [UserError!]!
  }

  input FulfillmentOrderHoldInput {
    reason: FulfillmentHoldReason!
    reasonNotes: String
    notifyMerchant: Boolean = false
  }

  enum FulfillmentOrderHoldUserErrorCode {
    DUPLICATE_FULFILLMENT_HOLD_HANDLE DUPLICATED_FULFILLMENT_ORDER_LINE_ITEMS
    FULFILLMENT_ORDER_HOLD_LIMIT_REACHED FULFILLMENT_ORDER_NOT_FOUND
    FULFILLMENT_ORDER_NOT_SPLITTABLE GREATER_THAN_ZERO INVALID_LINE_ITEM_QUANTITY TAKEN
  }

  type FulfillmentOrderHoldUserError {
    field: [String!]
    message: String!
    code: FulfillmentOrderHoldUserErrorCode
  }

  type FulfillmentOrderHoldPayload {
    fulfillmentHold: FulfillmentHold
    fulfillmentOrder: FulfillmentOrder
    userErrors: [FulfillmentOrderHoldUserError!]!
  }

  enum FulfillmentOrderReleaseHoldUserErrorCode { FULFILLMENT_ORDER_NOT_FOUND INVALID_ACCESS }

  type FulfillmentOrderReleaseHoldUserError {
    field: [String!]
    message: String!
    code: FulfillmentOrderReleaseHoldUserErrorCode
  }

  type FulfillmentOrderReleaseHoldPayload {
    fulfillmentOrder: FulfillmentOrder
    userErrors: [FulfillmentOrderReleaseHoldUserError!]!
  }
`
