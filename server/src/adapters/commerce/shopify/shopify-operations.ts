// The Admin GraphQL documents Tandem sends (API version in shopify-endpoint.ts). Each names its
// operation: the caller tells queries (resent after a lost answer) from mutations (never resent)
// by the first word, and the emulator answers by the root fields.

const MONEY = 'presentmentMoney { amount currencyCode }'

/** What the creator-order index keeps of an order (CreatorOrderHeader). */
const ORDER_HEADER_FIELDS = `id name createdAt presentmentCurrencyCode totalPriceSet { ${MONEY} }`

/** Line items are read 50 at a time: a page then costs about 500 of a 1,000-point query limit. */
export const CREATOR_ORDER = /* GraphQL */ `
  query CreatorOrder($id: ID!, $after: String) {
    order(id: $id) {
      id
      name
      email
      createdAt
      cancelledAt
      displayFinancialStatus
      presentmentCurrencyCode
      subtotalPriceSet { ${MONEY} }
      totalTaxSet { ${MONEY} }
      totalShippingPriceSet { ${MONEY} }
      totalPriceSet { ${MONEY} }
      totalRefundedSet { ${MONEY} }
      shippingAddress { firstName lastName address1 city zip countryCodeV2 }
      paymentIntent: metafield(namespace: "tandem", key: "payment_intent") { value }
      lineItems(first: 50, after: $after) {
        nodes {
          id
          title
          quantity
          currentQuantity
          image { url }
          originalUnitPriceSet { ${MONEY} }
          discountAllocations { allocatedAmountSet { ${MONEY} } }
          variant { id }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`

/** Brand variants as the brand's store has them now: price (the shop's currency) and status. */
export const BRAND_VARIANTS = /* GraphQL */ `
  query BrandVariants($ids: [ID!]!) {
    shop {
      currencyCode
    }
    nodes(ids: $ids) {
      ... on ProductVariant {
        id
        price
        product {
          status
        }
      }
    }
  }
`

export const PRODUCTS_COUNT = /* GraphQL */ `
  query ProductsCount {
    productsCount(limit: null) {
      count
    }
  }
`

/**
 * A shop's orders, newest first, with no search query: a plain listing reads the orders
 * themselves, where a query (tag:…) goes through the search index, which lags behind new orders.
 */
export const RECENT_ORDERS = /* GraphQL */ `
  query RecentOrders($after: String) {
    orders(first: 100, after: $after, sortKey: CREATED_AT, reverse: true) {
      nodes {
        id
        name
        createdAt
        tags
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`

/** A creator shop's paid orders, newest first, 250 a page (about 750 points of 1,000). */
export const PAID_ORDERS = /* GraphQL */ `
  query PaidOrders($after: String) {
    orders(
      first: 250
      after: $after
      query: "financial_status:paid"
      sortKey: CREATED_AT
      reverse: true
    ) {
      nodes { ${ORDER_HEADER_FIELDS} }
      pageInfo { hasNextPage endCursor }
    }
  }
`

/** One order's header, without its lines: what an orders/paid webhook is confirmed by. */
export const ORDER_HEADER = /* GraphQL */ `
  query OrderHeader($id: ID!) {
    order(id: $id) { ${ORDER_HEADER_FIELDS} }
  }
`

export const ORDER_FINANCIAL_STATUS = /* GraphQL */ `
  query OrderFinancialStatus($id: ID!) {
    order(id: $id) {
      id
      displayFinancialStatus
    }
  }
`

export const ORDER_CREATE = /* GraphQL */ `
  mutation OrderCreate($order: OrderCreateOrderInput!, $options: OrderCreateOptionsInput) {
    orderCreate(order: $order, options: $options) {
      order {
        id
        name
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`

export const ORDER_MARK_AS_PAID = /* GraphQL */ `
  mutation OrderMarkAsPaid($input: OrderMarkAsPaidInput!) {
    orderMarkAsPaid(input: $input) {
      order {
        id
        displayFinancialStatus
      }
      userErrors {
        field
        message
      }
    }
  }
`

/**
 * A brand order's lines as its shop has them now: what is still sold of each variant and what of
 * it never shipped; and its shipments, with the location each shipped from. A hundred lines a page
 * (and a shipment's first hundred) keep the query under Shopify's 1,000-point limit.
 */
export const BRAND_ORDER_LINES = /* GraphQL */ `
  query BrandOrderLines($id: ID!, $after: String) {
    order(id: $id) {
      id
      cancelledAt
      fulfillments(first: 250) {
        status
        location {
          id
        }
        fulfillmentLineItems(first: 100) {
          nodes {
            quantity
            lineItem {
              id
            }
          }
          pageInfo {
            hasNextPage
          }
        }
      }
      lineItems(first: 100, after: $after) {
        nodes {
          id
          currentQuantity
          unfulfilledQuantity
          variant {
            id
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`

/** Units of a brand order given back, restocked; no transaction: the money went back through Stripe. */
export const REFUND_CREATE = /* GraphQL */ `
  mutation RefundCreate($input: RefundInput!, $key: String!) {
    refundCreate(input: $input) @idempotent(key: $key) {
      refund {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`

export const ORDER_CANCEL = /* GraphQL */ `
  mutation OrderCancel($orderId: ID!, $staffNote: String) {
    orderCancel(
      orderId: $orderId
      refundMethod: { originalPaymentMethodsRefund: false }
      restock: true
      reason: CUSTOMER
      notifyCustomer: false
      staffNote: $staffNote
    ) {
      job {
        id
        done
      }
      orderCancelUserErrors {
        field
        message
        code
      }
    }
  }
`

/** A job of Shopify's, such as orderCancel's: done once it has run. */
export const JOB = /* GraphQL */ `
  query Job($id: ID!) {
    job(id: $id) {
      id
      done
    }
  }
`

/**
 * The orders changed since a moment, oldest change first: `updated_at:>='…'` in Shopify's search
 * syntax (https://shopify.dev/docs/api/usage/search-syntax; a date value must be quoted). One
 * refund tells whether there was any.
 */
export const ORDERS_CHANGED_SINCE = /* GraphQL */ `
  query OrdersChangedSince($query: String!, $after: String) {
    orders(first: 100, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {
        id
        updatedAt
        cancelledAt
        refunds(first: 1) {
          id
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`

/**
 * The ids of an order's refunds and the money each gave back. Order.refunds is a list, not a connection: its `first` truncates
 * it ("Truncate the array result to this size", Order object, Admin GraphQL 2026-10) and there is
 * no cursor to read on, so it is asked for the most Shopify serves of a list (250, the largest
 * page of its pagination limits) and a list that long is refused rather than acted on (see
 * shopify-refunds.ts). Priced as 250 refunds of three objects each (Refund, MoneyBag, MoneyV2: 751
 * points), under the 1,000 a query may cost.
 */
export const ORDER_REFUNDS = /* GraphQL */ `
  query OrderRefunds($id: ID!) {
    order(id: $id) {
      id
      refunds(first: 250) {
        id
        totalRefundedSet {
          ${MONEY}
        }
      }
    }
  }
`

/**
 * A page of one refund's lines: Refund.refundLineItems is a connection (RefundLineItemConnection,
 * Admin GraphQL 2026-10), read on by its cursor: each line's units, whether they were restocked, and
 * what the refund gave back for them after discounts (subtotalSet) and in tax (totalTaxSet); with
 * the shipping it gave back (refundShippingLines: an order has a few shipping lines, 10 read).
 * Six objects a line: 100 lines a page (about 653 points of the 1,000 a query may cost).
 */
export const REFUND_LINES = /* GraphQL */ `
  query RefundLines($id: ID!, $after: String) {
    node(id: $id) {
      ... on Refund {
        refundShippingLines(first: 10) {
          nodes {
            subtotalAmountSet {
              ${MONEY}
            }
            taxAmountSet {
              ${MONEY}
            }
          }
        }
        refundLineItems(first: 100, after: $after) {
          nodes {
            lineItem {
              id
            }
            quantity
            restocked
            subtotalSet {
              ${MONEY}
            }
            totalTaxSet {
              ${MONEY}
            }
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
      }
    }
  }
`
