import type { Json, ShopifyUnderTest } from './shopify-admin-client'

// The Admin API calls of refunds and cancellations, as Tandem will make them, for the emulator's
// tests: the GraphQL documents, and helpers bound to the emulator a test runs against.

export const BRAND = 'northwind-apparel.myshopify.com'
export const CREATOR = 'maya-makes.myshopify.com'
export const variant = (n: number) => `gid://shopify/ProductVariant/${n}`
export const lineItem = (n: number) => `gid://shopify/LineItem/${n}`
/**
 * Seeded in the creator's shop, paid at checkout: 2 overshirts (line 10011), a face oil (10012), a
 * sticker pack (10013); 175.50, then tax 14.04 and shipping 8.00: 197.54.
 */
export const ORDER_1001 = 'gid://shopify/Order/1001'
/** The creator's copy of the brand's linen overshirt. */
export const OVERSHIRT_COPY = variant(401)

const money = '{ shopMoney { amount currencyCode } }'
export const REFUND_CREATE = `mutation ($input: RefundInput!, $key: String!) {
  refundCreate(input: $input) @idempotent(key: $key) {
    refund { id note totalRefundedSet ${money}
      refundLineItems(first: 10) { nodes { lineItem { id } quantity restockType restocked } }
      transactions(first: 5) { nodes { kind gateway amountSet ${money} parentTransaction { id } } } }
    order { id displayFinancialStatus totalRefundedSet ${money} }
    userErrors { field message }
  }
}`
const SUGGESTED = `query ($id: ID!, $lines: [RefundLineItemInput!], $shipping: Boolean) {
  order(id: $id) {
    suggestedRefund(refundLineItems: $lines, refundShipping: $shipping) {
      amountSet ${money} subtotalSet ${money} totalTaxSet ${money}
      shipping { amountSet ${money} }
      suggestedTransactions { kind gateway amountSet ${money} parentTransaction { id } }
    }
  }
}`
const ORDER = `query ($id: ID!) {
  order(id: $id) {
    displayFinancialStatus cancelledAt cancelReason closed cancellation { staffNote }
    totalRefundedSet ${money} totalRefundedShippingSet ${money} netPaymentSet ${money}
    lineItems(first: 5) { nodes { id currentQuantity } }
    transactions { id kind gateway amountSet ${money} }
    refunds { id note totalRefundedSet ${money}
      refundLineItems(first: 10) { nodes { lineItem { id } quantity restockType } } }
  }
}`
const ORDER_CANCEL = `mutation ($orderId: ID!, $refund: Boolean, $refundMethod: OrderCancelRefundMethodInput,
    $restock: Boolean!, $reason: OrderCancelReason!, $staffNote: String) {
  orderCancel(orderId: $orderId, refund: $refund, refundMethod: $refundMethod, restock: $restock,
      reason: $reason, staffNote: $staffNote) {
    job { id done } orderCancelUserErrors { field message code } userErrors { field message }
  }
}`

export const usd = (amount: string) => ({ shopMoney: { amount, currencyCode: 'USD' } })

/** The money of a suggestion, as refundCreate's transactions take it. */
export const transactionsOf = (suggestion: Json, orderId: string) =>
  suggestion.suggestedTransactions.map((t: Json) => ({
    orderId,
    parentId: t.parentTransaction.id,
    gateway: t.gateway,
    kind: 'REFUND',
    amount: t.amountSet.shopMoney.amount,
  }))

/** The calls, made to the emulator the test runs against. */
export function refundCalls(under: ShopifyUnderTest) {
  let keys = 0
  return {
    orderOf: async (shop: string, id: string) => (await under.data(shop, ORDER, { id })).order,
    /** Order.suggestedRefund for these lines, and all the shipping left when told. */
    suggested: async (shop: string, id: string, lines: object[], shipping = false) =>
      (await under.data(shop, SUGGESTED, { id, lines, shipping })).order.suggestedRefund,
    /** refundCreate under a new idempotency key unless one is given. */
    refundCreate: async (shop: string, input: object, key = `refund-${++keys}`) =>
      (await under.data(shop, REFUND_CREATE, { input, key })).refundCreate,
    /** orderCancel for CUSTOMER, without restock, unless told otherwise. */
    cancel: async (shop: string, variables: object) =>
      (await under.data(shop, ORDER_CANCEL, { reason: 'CUSTOMER', restock: false, ...variables }))
        .orderCancel,
  }
}
