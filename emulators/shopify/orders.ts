import type { Runtime } from './context'
import { formatMinor } from './money'
import {
  findVariant,
  gid,
  gidNumber,
  type AddressRecord,
  type FinancialStatus,
  type OrderLineRecord,
  type OrderRecord,
  type ShopRecord,
  type VariantRecord,
} from './state'

// Orders as Shopify keeps them: created by orderCreate (or by a customer, for createCustomerOrder),
// paid by orderMarkAsPaid, announced by the orders/paid webhook, and later edited, refunded or
// cancelled by the merchant. orderCreate has no idempotency: the same input twice makes two
// orders, which is exactly what Tandem must guard against.

export type InventoryBehaviour = 'BYPASS' | 'DECREMENT_IGNORING_POLICY' | 'DECREMENT_OBEYING_POLICY'

/** OrderCreateOrderInput, as far as the emulator reads it. */
export interface OrderInput {
  currency?: string | null
  email?: string | null
  lineItems?: { variantId?: string | null; quantity: number }[] | null
  shippingAddress?: Partial<AddressRecord> | null
  tags?: string[] | null
  note?: string | null
  metafields?:
    { namespace?: string | null; key: string; value: string; type?: string | null }[] | null
}

export interface OrderUserError {
  field: (string | number)[]
  message: string
  code: 'INVALID' | 'INVENTORY_CLAIM_FAILED'
}

const NO_ADDRESS: AddressRecord = {
  firstName: null,
  lastName: null,
  address1: null,
  address2: null,
  city: null,
  province: null,
  zip: null,
  countryCode: null,
  phone: null,
}

/** What every discount took off the line, for its ordered quantity. */
export const lineDiscountMinor = (line: OrderLineRecord) =>
  line.discountAllocations.reduce((sum, allocation) => sum + allocation.amountMinor, 0)

export const currentQuantity = (line: OrderLineRecord) => line.quantity - line.removedQuantity

/** As ordered: the subtotal after every discount, then tax and shipping. */
export function orderTotals(order: OrderRecord) {
  const subtotalMinor = order.lines.reduce(
    (sum, line) => sum + line.quantity * line.unitPriceMinor - lineDiscountMinor(line),
    0,
  )
  const discountsMinor = order.lines.reduce((sum, line) => sum + lineDiscountMinor(line), 0)
  const refundedMinor = order.refunds.reduce((sum, refund) => sum + refund.amountMinor, 0)
  const totalMinor = subtotalMinor + order.taxMinor + order.shippingMinor
  return { subtotalMinor, discountsMinor, totalMinor, refundedMinor }
}

/** The lines' variants, or the user errors Shopify would answer; nothing is changed either way. */
function claimLines(shop: ShopRecord, input: OrderInput, behaviour: InventoryBehaviour) {
  const lines = input.lineItems ?? []
  if (lines.length === 0) {
    const message = 'Line items must have at least one item'
    return { errors: [{ field: ['order', 'lineItems'], message, code: 'INVALID' as const }] }
  }
  const errors: OrderUserError[] = []
  const claimed = new Map<VariantRecord, number>()
  const found = lines.map((line, i) => {
    const match = line.variantId ? findVariant(shop, line.variantId) : undefined
    const field = ['order', 'lineItems', i]
    if (!match)
      errors.push({
        field: [...field, 'variantId'],
        message: 'Variant does not exist',
        code: 'INVALID',
      })
    if (line.quantity < 1)
      errors.push({
        field: [...field, 'quantity'],
        message: 'Quantity must be at least 1',
        code: 'INVALID',
      })
    if (!match || line.quantity < 1) return undefined
    const { product, variant } = match
    const wanted = (claimed.get(variant) ?? 0) + line.quantity
    claimed.set(variant, wanted)
    const denied = variant.inventoryPolicy === 'DENY' && wanted > variant.inventoryQuantity
    if (behaviour === 'DECREMENT_OBEYING_POLICY' && denied)
      errors.push({
        field,
        message: `${product.title} is out of stock`,
        code: 'INVENTORY_CLAIM_FAILED',
      })
    return { ...match, quantity: line.quantity }
  })
  return errors.length > 0
    ? { errors }
    : { found: found.filter((line) => line !== undefined), claimed }
}

/** All or nothing: with any user error, no order is made and no stock is touched. */
export function createOrder(
  runtime: Runtime,
  shop: ShopRecord,
  input: OrderInput,
  options: {
    inventoryBehaviour: InventoryBehaviour
    financialStatus: FinancialStatus
    /** An order-level code taking this much off, allocated across the lines. */
    discount?: { code: string; amountMinor: number }
    /** The id a test names (Shopify gives the next one otherwise); it must be free. */
    id?: number
  },
): { order: OrderRecord | null; userErrors: OrderUserError[] } {
  const claim = claimLines(shop, input, options.inventoryBehaviour)
  if (claim.errors) return { order: null, userErrors: claim.errors }
  if (options.inventoryBehaviour !== 'BYPASS')
    for (const [variant, quantity] of claim.claimed) variant.inventoryQuantity -= quantity

  if (options.id !== undefined && shop.orders.some((order) => order.id === options.id)) {
    throw new Error(`The shop already has an order ${options.id}`)
  }
  const id = options.id ?? ++runtime.state.lastIds.order
  const order: OrderRecord = {
    id,
    name: `#${id}`,
    email: input.email ?? null,
    createdAt: new Date().toISOString(),
    financialStatus: options.financialStatus,
    cancelledAt: null,
    currency: input.currency ?? shop.currency,
    tags: input.tags ?? [],
    note: input.note ?? null,
    lines: claim.found.map(({ product, variant, quantity }, position) => ({
      id: gid('LineItem', id * 1000 + position + 1),
      variantId: variant.id,
      title: product.title,
      quantity,
      removedQuantity: 0,
      unitPriceMinor: variant.priceMinor,
      imageUrl: product.imageUrl,
      discountAllocations: [],
    })),
    taxMinor: 0,
    shippingMinor: 0,
    shippingAddress: input.shippingAddress ? { ...NO_ADDRESS, ...input.shippingAddress } : null,
    metafields: (input.metafields ?? []).map((m) => ({
      namespace: m.namespace ?? '$app',
      key: m.key,
      value: m.value,
      type: m.type ?? 'single_line_text_field',
    })),
    discountCodes: [],
    refunds: [],
  }
  if (options.discount) allocateOrderDiscount(order, options.discount)
  shop.orders.push(order)
  runtime.searchableAt.set(id, Date.now() + runtime.searchLagMs)
  runtime.save()
  return { order, userErrors: [] }
}

export function findOrder(shop: ShopRecord, id: string): OrderRecord | undefined {
  const number = gidNumber(id, 'Order')
  return shop.orders.find((order) => order.id === number)
}

/**
 * An order-level code's amount spread over the lines in proportion to their totals, as Shopify
 * allocates a fixed-amount code: each line's share rounded down, the cents left over going one by
 * one to the first lines, so that the shares add up to the code's amount exactly.
 */
function allocateOrderDiscount(
  order: OrderRecord,
  discount: { code: string; amountMinor: number },
) {
  const totals = order.lines.map((line) => line.quantity * line.unitPriceMinor)
  const whole = totals.reduce((sum, total) => sum + total, 0)
  const amount = Math.min(discount.amountMinor, whole)
  const shares = totals.map((total) => Math.floor((amount * total) / whole))
  let left = amount - shares.reduce((sum, share) => sum + share, 0)
  for (let i = 0; left > 0; i = (i + 1) % shares.length, left--) shares[i]! += 1
  order.lines.forEach((line, i) =>
    line.discountAllocations.push({
      code: discount.code,
      orderLevel: true,
      amountMinor: shares[i]!,
    }),
  )
  order.discountCodes.push(discount.code)
}

/**
 * An order edit taking `quantity` units off a line (orderEditSetQuantity, then commit): the
 * current quantity drops, nothing is refunded.
 */
export function removeFromOrder(order: OrderRecord, lineItemId: string, quantity: number) {
  const line = order.lines.find((candidate) => candidate.id === lineItemId)
  if (!line) throw new Error(`Order ${order.name} has no line ${lineItemId}`)
  if (quantity < 1 || quantity > currentQuantity(line))
    throw new Error(`Line ${lineItemId} has ${currentQuantity(line)} units left, not ${quantity}`)
  line.removedQuantity += quantity
}

/**
 * A refund of `lines` (refundCreate with refundLineItems): their current quantity drops, and the
 * customer gets back what those units cost after their discounts; the refund that takes the last
 * units gives back the rest of the order too (tax, shipping), and leaves it REFUNDED.
 */
export function refundOrder(
  order: OrderRecord,
  lines: { lineItemId: string; quantity: number }[],
): void {
  const paidFor = (line: OrderLineRecord) =>
    Math.floor(
      ((line.quantity * line.unitPriceMinor - lineDiscountMinor(line)) * line.removedQuantity) /
        line.quantity,
    )
  let amountMinor = 0
  for (const { lineItemId, quantity } of lines) {
    const line = order.lines.find((candidate) => candidate.id === lineItemId)
    if (!line) throw new Error(`Order ${order.name} has no line ${lineItemId}`)
    const before = paidFor(line)
    removeFromOrder(order, lineItemId, quantity)
    amountMinor += paidFor(line) - before
  }
  const { totalMinor, refundedMinor } = orderTotals(order)
  const everythingBack = order.lines.every((line) => currentQuantity(line) === 0)
  if (everythingBack) amountMinor = totalMinor - refundedMinor
  order.refunds.push({
    id: gid('Refund', order.id * 100 + order.refunds.length + 1),
    createdAt: new Date().toISOString(),
    amountMinor,
    lines,
  })
  order.financialStatus = everythingBack ? 'REFUNDED' : 'PARTIALLY_REFUNDED'
}

/** orderCancel: the order stays, marked cancelled; a refund, if any, is a separate step. */
export function cancelOrder(order: OrderRecord): void {
  order.cancelledAt = new Date().toISOString()
}

/** PENDING → PAID, announced to the shop's orders/paid subscriptions; a paid order is refused. */
export function markOrderPaid(runtime: Runtime, shop: ShopRecord, id: string) {
  const order = findOrder(shop, id)
  if (!order)
    return { order: null, userErrors: [{ field: ['id'], message: 'Order does not exist' }] }
  // Only an order with a balance left to pay can be marked as paid.
  if (!['PENDING', 'AUTHORIZED', 'PARTIALLY_PAID'].includes(order.financialStatus)) {
    const refusal = { field: ['id'], message: 'Order cannot be marked as paid.' }
    return { order, userErrors: [refusal] }
  }
  order.financialStatus = 'PAID'
  runtime.save()
  // The mutation answers without waiting for the webhook, as Shopify's does.
  void announcePaid(runtime, shop, order)
  return { order, userErrors: [] }
}

/** Delivers orders/paid; settles once every subscription had its first attempt. */
export function announcePaid(runtime: Runtime, shop: ShopRecord, order: OrderRecord) {
  return runtime.webhooks.deliver(shop, 'ORDERS_PAID', paidPayload(order))
}

/**
 * The REST-style order Shopify posts to orders/paid subscriptions: each amount as a decimal string
 * and as a set of shop and presentment money (the same here: the emulator converts nothing).
 */
function paidPayload(order: OrderRecord) {
  const money = (minor: number) => formatMinor(minor, order.currency)
  const moneySet = (minor: number) => {
    const amount = { amount: money(minor), currency_code: order.currency }
    return { shop_money: amount, presentment_money: amount }
  }
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
    discount_codes: order.discountCodes.map((code) => {
      const amount = order.lines
        .flatMap((line) => line.discountAllocations)
        .filter((allocation) => allocation.code === code)
        .reduce((sum, allocation) => sum + allocation.amountMinor, 0)
      return { code, amount: money(amount), type: 'fixed_amount' }
    }),
    tags: order.tags.join(', '),
    note: order.note,
    line_items: order.lines.map((line) => ({
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
    })),
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
