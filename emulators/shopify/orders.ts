import { announcePaid } from './announcements'
import type { Runtime } from './context'
import { newFulfillmentOrders } from './fulfillments'
import { currentQuantity, orderTotals } from './order-figures'
import { CHECKOUT_GATEWAY, MANUAL_GATEWAY, receivedMinor, recordSale } from './payments'
import {
  featuredImageUrl,
  findVariant,
  gid,
  gidNumber,
  touch,
  type AddressRecord,
  type FinancialStatus,
  type OrderLineRecord,
  type OrderRecord,
  type ProductRecord,
  type ShopRecord,
  type VariantRecord,
} from './state'

// Orders as Shopify keeps them: created by orderCreate (or by a customer, for createCustomerOrder)
// with their fulfillment order, paid by orderMarkAsPaid, announced by the orders/paid webhook, and
// later edited, refunded, cancelled or shipped by the merchant. orderCreate has no idempotency: the same input twice makes two
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

/** The order's line at `position`: units of a variant, at its price, discounted by nothing yet. */
const lineOf = (
  orderId: number,
  position: number,
  {
    product,
    variant,
    quantity,
  }: { product: ProductRecord; variant: VariantRecord; quantity: number },
): OrderLineRecord => ({
  id: gid('LineItem', orderId * 1000 + position + 1),
  variantId: variant.id,
  title: product.title,
  quantity,
  removedQuantity: 0,
  unitPriceMinor: variant.priceMinor,
  imageUrl: featuredImageUrl(product),
  discountAllocations: [],
})

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
  const createdAt = new Date().toISOString()
  const order: OrderRecord = {
    id,
    name: `#${id}`,
    email: input.email ?? null,
    createdAt,
    updatedAt: createdAt,
    financialStatus: options.financialStatus,
    cancelledAt: null,
    cancelReason: null,
    cancelStaffNote: null,
    closedAt: null,
    currency: input.currency ?? shop.currency,
    tags: input.tags ?? [],
    note: input.note ?? null,
    lines: claim.found.map((found, position) => lineOf(id, position, found)),
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
    transactions: [],
    refunds: [],
    fulfillmentOrders: [],
    fulfillments: [],
  }
  order.fulfillmentOrders.push(...newFulfillmentOrders(runtime.state, shop, order.lines))
  if (options.discount) allocateOrderDiscount(order, options.discount)
  // A checkout's order is paid as it is placed.
  if (options.financialStatus === 'PAID')
    recordSale(order, orderTotals(order).totalMinor, CHECKOUT_GATEWAY)
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
  touch(order)
}

/**
 * An order edit adding `quantity` units of the shop's variant as a new line (orderEditBegin,
 * orderEditAddVariant, orderEditCommit), at the variant's price, in a fulfillment order of its
 * own. Committed, an edit that raises the total leaves the customer a balance to pay
 * (https://shopify.dev/docs/api/admin-graphql/2026-10/mutations/orderEditCommit): a paid order is
 * PARTIALLY_PAID until it is paid, by orderMarkAsPaid or otherwise.
 */
export function addToOrder(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  variantId: string,
  quantity: number,
) {
  const claim = claimLines(shop, { lineItems: [{ variantId, quantity }] }, 'BYPASS')
  if (claim.errors) throw new Error(claim.errors.map((error) => error.message).join('; '))
  const line = lineOf(order.id, order.lines.length, claim.found[0]!)
  order.lines.push(line)
  order.fulfillmentOrders.push(...newFulfillmentOrders(runtime.state, shop, [line]))
  if (order.financialStatus === 'PAID' && receivedMinor(order) < orderTotals(order).totalMinor)
    order.financialStatus = 'PARTIALLY_PAID'
  runtime.save()
}

/**
 * PENDING → PAID, announced to the shop's orders/paid subscriptions (`announced`, settled once the
 * delivery was first attempted); a paid order is refused.
 */
export function markOrderPaid(runtime: Runtime, shop: ShopRecord, id: string) {
  const order = findOrder(shop, id)
  const announced = Promise.resolve()
  if (!order)
    return {
      order: null,
      userErrors: [{ field: ['id'], message: 'Order does not exist' }],
      announced,
    }
  // Only an order with a balance left to pay can be marked as paid.
  if (!['PENDING', 'AUTHORIZED', 'PARTIALLY_PAID'].includes(order.financialStatus)) {
    const refusal = { field: ['id'], message: 'Order cannot be marked as paid.' }
    return { order, userErrors: [refusal], announced }
  }
  // The balance, paid outside Shopify: a manual payment.
  recordSale(order, orderTotals(order).totalMinor - receivedMinor(order), MANUAL_GATEWAY)
  order.financialStatus = 'PAID'
  touch(order)
  runtime.save()
  // The mutation answers without waiting for the webhook, as Shopify's does.
  return { order, userErrors: [], announced: announcePaid(runtime, shop, order) }
}
