import type { ShopifyUnderTest } from './shopify-admin-client'

// The Admin API calls of shipping, as Tandem will make them to ship a creator's order when the
// brand ships its own, for the emulator's tests: the GraphQL documents, and helpers bound to the
// emulator a test runs against.

const FULFILLMENT = `id name status createdAt updatedAt trackingInfo(first: 5) { company number url }
  fulfillmentLineItems(first: 10) { nodes { id quantity lineItem { id variant { id } } } }
  order { id }`
const FULFILLMENT_ORDER = `id status requestStatus orderId
  fulfillmentHolds { id reason reasonNotes }
  lineItems(first: 10) { nodes { id totalQuantity remainingQuantity lineItem { id } } }`

export const SHIPPING = `query ($id: ID!) {
  order(id: $id) {
    displayFulfillmentStatus
    fulfillmentOrders(first: 5) { nodes { ${FULFILLMENT_ORDER} } }
    fulfillments(first: 10) { ${FULFILLMENT} }
  }
}`
export const FULFILLMENT_CREATE = `mutation ($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { ${FULFILLMENT} } userErrors { field message }
  }
}`
export const TRACKING_UPDATE = `mutation ($id: ID!, $tracking: FulfillmentTrackingInput!,
    $notify: Boolean) {
  fulfillmentTrackingInfoUpdate(fulfillmentId: $id, trackingInfoInput: $tracking,
      notifyCustomer: $notify) {
    fulfillment { ${FULFILLMENT} } userErrors { field message }
  }
}`
export const HOLD = `mutation ($id: ID!, $hold: FulfillmentOrderHoldInput!) {
  fulfillmentOrderHold(id: $id, fulfillmentHold: $hold) {
    fulfillmentOrder { id status } fulfillmentHold { id reason reasonNotes }
    userErrors { field message code }
  }
}`
export const RELEASE = `mutation ($id: ID!, $holdIds: [ID!]) {
  fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
    fulfillmentOrder { id status fulfillmentHolds { id reason } } userErrors { field message }
  }
}`
export const ROOTS = `query ($fulfillment: ID!, $fulfillmentOrder: ID!) {
  fulfillment(id: $fulfillment) { id name order { id } }
  fulfillmentOrder(id: $fulfillmentOrder) { id status orderId order { id } }
}`

/** The calls, made to the emulator the test runs against. */
export function fulfillmentCalls(under: ShopifyUnderTest) {
  return {
    shippingOf: async (shop: string, id: string) =>
      (await under.data(shop, SHIPPING, { id })).order,
    fulfillmentCreate: async (shop: string, fulfillment: object) =>
      (await under.data(shop, FULFILLMENT_CREATE, { fulfillment })).fulfillmentCreate,
    trackingUpdate: async (shop: string, id: string, tracking: object, notify?: boolean) =>
      (await under.data(shop, TRACKING_UPDATE, { id, tracking, notify }))
        .fulfillmentTrackingInfoUpdate,
    hold: async (shop: string, id: string, hold: object) =>
      (await under.data(shop, HOLD, { id, hold })).fulfillmentOrderHold,
    release: async (shop: string, id: string, holdIds?: string[]) =>
      (await under.data(shop, RELEASE, { id, holdIds })).fulfillmentOrderReleaseHold,
  }
}
