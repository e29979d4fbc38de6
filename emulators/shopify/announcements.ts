import type { Runtime } from './context'
import { formatMinor } from './money'
import { currentQuantity, lineDiscountMinor, orderTotals } from './order-figures'
import {
  gid,
  gidNumber,
  type OrderLineRecord,
  type OrderRecord,
  type RefundRecord,
  type ShopRecord,
} from './state'

// The webhooks an order's life sends (orders/paid, refunds/create, orders/cancelled) and their
// bodies, shaped as Shopify's REST resources: numeric ids beside the GraphQL ones, each amount as
// a decimal string and as a set of shop and presentment money (the same here: the emulator
// converts nothing). Each delivery settles once every subscription had its first attempt.

export function announcePaid(runtime: Runtime, shop: ShopRecord, order: OrderRecord) {
  return runtime.webhooks.deliver(shop, 'ORDERS_PAID', orderBody(order))
}

export function announceRefund(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  refund: RefundRecord,
) {
  return runtime.webhooks.deliver(shop, 'REFUNDS_CREATE', refundBody(order, refund))
}

export function announceCancelled(runtime: Runtime, shop: ShopRecord, order: OrderRecord) {
  return runtime.webhooks.deliver(shop, 'ORDERS_CANCELLED', orderBody(order))
}

function moneyOf(currency: string) {
  const money = (minor: number) => formatMinor(minor, currency)
  const moneySet = (minor: number) => {
    const amount = { amount: money(minor), currency_code: currency }
    return { shop_money: amount, presentment_money: amount }
  }
  return { money, moneySet }
}

/** The REST Order, as orders/paid and orders/cancelled post it. */
function orderBody(order: OrderRecord) {
  const { money, moneySet } = moneyOf(order.currency)
  const { subtotalMinor, discountsMinor, totalMinor } = orderTotals(order)
  const address = order.shippingAddress
  return {
    id: order.id,
    admin_graphql_api_id: gid('Order', order.id),
    name: order.name,
    order_number: order.id,
    email: order.email,
    currency: order.currency,
    presentment_currency: order.currency,
    financial_status: order.financialStatus.toLowerCase(),
    cancelled_at: order.cancelledAt,
    cancel_reason: order.cancelReason?.toLowerCase() ?? null,
    closed_at: order.closedAt,
    created_at: order.createdAt,
    updated_at: new Date().toISOString(),
    subtotal_price: money(subtotalMinor),
    subtotal_price_set: moneySet(subtotalMinor),
    total_discounts: money(discountsMinor),
    total_discounts_set: moneySet(discountsMinor),
    total_tax: money(order.taxMinor),
    total_tax_set: moneySet(order.taxMinor),
    total_shipping_price_set: moneySet(order.shippingMinor),
    total_price: money(totalMinor),
    total_price_set: moneySet(totalMinor),
    payment_gateway_names: [...new Set(order.transactions.map((t) => t.gateway))],
    discount_codes: order.discountCodes.map((code) => {
      const amount = order.lines
        .flatMap((line) => line.discountAllocations)
        .filter((allocation) => allocation.code === code)
        .reduce((sum, allocation) => sum + allocation.amountMinor, 0)
      return { code, amount: money(amount), type: 'fixed_amount' }
    }),
    tags: order.tags.join(', '),
    note: order.note,
    line_items: order.lines.map((line) => lineItemBody(order, line)),
    refunds: order.refunds.map((refund) => refundBody(order, refund)),
    shipping_address: address && {
      first_name: address.firstName,
      last_name: address.lastName,
      address1: address.address1,
      address2: address.address2,
      city: address.city,
      province: address.province,
      zip: address.zip,
      country_code: address.countryCode,
      phone: address.phone,
    },
  }
}

function lineItemBody(order: OrderRecord, line: OrderLineRecord) {
  const { money, moneySet } = moneyOf(order.currency)
  return {
    id: gidNumber(line.id, 'LineItem'),
    admin_graphql_api_id: line.id,
    variant_id: line.variantId && gidNumber(line.variantId, 'ProductVariant'),
    title: line.title,
    quantity: line.quantity,
    current_quantity: currentQuantity(line),
    price: money(line.unitPriceMinor),
    price_set: moneySet(line.unitPriceMinor),
    total_discount: money(lineDiscountMinor(line)),
    total_discount_set: moneySet(lineDiscountMinor(line)),
    discount_allocations: line.discountAllocations.map((allocation) => ({
      amount: money(allocation.amountMinor),
      amount_set: moneySet(allocation.amountMinor),
      discount_application_index: order.discountCodes.indexOf(allocation.code),
    })),
  }
}

/**
 * The REST Refund, as refunds/create posts it. Its money is in `transactions`; refunded shipping
 * shows as a shipping_refund order adjustment (negative, as Shopify writes it).
 */
function refundBody(order: OrderRecord, refund: RefundRecord) {
  const { money, moneySet } = moneyOf(order.currency)
  const refundId = gidNumber(refund.id, 'Refund')
  const transactions = order.transactions.filter((t) => refund.transactionIds.includes(t.id))
  return {
    id: refundId,
    admin_graphql_api_id: refund.id,
    order_id: order.id,
    created_at: refund.createdAt,
    processed_at: refund.createdAt,
    note: refund.note,
    user_id: null,
    restock: refund.lines.some((line) => line.restockType !== 'NO_RESTOCK'),
    duties: [],
    total_duties_set: moneySet(0),
    additional_fees: [],
    total_additional_fees_set: moneySet(0),
    return: null,
    refund_shipping_lines: [],
    order_adjustments:
      refund.shippingMinor > 0
        ? [
            {
              id: refundId,
              order_id: order.id,
              refund_id: refundId,
              kind: 'shipping_refund',
              reason: 'Shipping refund',
              amount: money(-refund.shippingMinor),
              amount_set: moneySet(-refund.shippingMinor),
              tax_amount: money(0),
              tax_amount_set: moneySet(0),
            },
          ]
        : [],
    refund_line_items: refund.lines.map((refunded) => {
      const line = order.lines.find((candidate) => candidate.id === refunded.lineItemId)
      return {
        id: gidNumber(refunded.id, 'RefundLineItem'),
        line_item_id: gidNumber(refunded.lineItemId, 'LineItem'),
        location_id: null,
        quantity: refunded.quantity,
        restock_type: refunded.restockType.toLowerCase(),
        subtotal: Number(money(refunded.subtotalMinor)),
        subtotal_set: moneySet(refunded.subtotalMinor),
        total_tax: Number(money(refunded.taxMinor ?? 0)),
        total_tax_set: moneySet(refunded.taxMinor ?? 0),
        line_item: line && lineItemBody(order, line),
      }
    }),
    transactions: transactions.map((transaction) => ({
      id: gidNumber(transaction.id, 'OrderTransaction'),
      admin_graphql_api_id: transaction.id,
      order_id: order.id,
      kind: transaction.kind.toLowerCase(),
      gateway: transaction.gateway,
      status: 'success',
      message: null,
      amount: money(transaction.amountMinor),
      currency: order.currency,
      parent_id: transaction.parentId && gidNumber(transaction.parentId, 'OrderTransaction'),
      created_at: transaction.createdAt,
      processed_at: transaction.createdAt,
      test: false,
      authorization: null,
      error_code: null,
      location_id: null,
      user_id: null,
      device_id: null,
      source_name: 'web',
      receipt: {},
    })),
  }
}
