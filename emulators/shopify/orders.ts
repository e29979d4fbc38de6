import type { Runtime } from './context'
import { formatMinor } from './money'
import {
  findVariant,
  gid,
  gidNumber,
  type AddressRecord,
  type OrderRecord,
  type ShopRecord,
  type VariantRecord,
} from './state'

// Orders as Shopify keeps them: created by orderCreate (or by a customer, for createPaidOrder),
// paid by orderMarkAsPaid, announced by the orders/paid webhook. orderCreate has no idempotency:
// the same input twice makes two orders, which is exactly what Tandem must guard against.

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

export function orderTotals(order: OrderRecord) {
  const subtotalMinor = order.lines.reduce((sum, l) => sum + l.quantity * l.unitPriceMinor, 0)
  return { subtotalMinor, totalMinor: subtotalMinor + order.taxMinor + order.shippingMinor }
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
    financialStatus: OrderRecord['financialStatus']
  },
): { order: OrderRecord | null; userErrors: OrderUserError[] } {
  const claim = claimLines(shop, input, options.inventoryBehaviour)
  if (claim.errors) return { order: null, userErrors: claim.errors }
  if (options.inventoryBehaviour !== 'BYPASS')
    for (const [variant, quantity] of claim.claimed) variant.inventoryQuantity -= quantity

  const id = ++runtime.state.lastIds.order
  const order: OrderRecord = {
    id,
    name: `#${id}`,
    email: input.email ?? null,
    createdAt: new Date().toISOString(),
    financialStatus: options.financialStatus,
    currency: input.currency ?? shop.currency,
    tags: input.tags ?? [],
    note: input.note ?? null,
    lines: claim.found.map(({ product, variant, quantity }, position) => ({
      id: gid('LineItem', id * 1000 + position + 1),
      variantId: variant.id,
      title: product.title,
      quantity,
      unitPriceMinor: variant.priceMinor,
      imageUrl: product.imageUrl,
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
  }
  shop.orders.push(order)
  runtime.searchableAt.set(id, Date.now() + runtime.searchLagMs)
  runtime.save()
  return { order, userErrors: [] }
}

export function findOrder(shop: ShopRecord, id: string): OrderRecord | undefined {
  const number = gidNumber(id, 'Order')
  return shop.orders.find((order) => order.id === number)
}

/** PENDING → PAID, announced to the shop's orders/paid subscriptions; a paid order is refused. */
export function markOrderPaid(runtime: Runtime, shop: ShopRecord, id: string) {
  const order = findOrder(shop, id)
  if (!order)
    return { order: null, userErrors: [{ field: ['id'], message: 'Order does not exist' }] }
  if (order.financialStatus === 'PAID') {
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

/** The REST-style order Shopify posts to orders/paid subscriptions. */
function paidPayload(order: OrderRecord) {
  const money = (minor: number) => formatMinor(minor, order.currency)
  const { subtotalMinor, totalMinor } = orderTotals(order)
  const address = order.shippingAddress
  return {
    id: order.id,
    admin_graphql_api_id: gid('Order', order.id),
    name: order.name,
    order_number: order.id,
    email: order.email,
    currency: order.currency,
    presentment_currency: order.currency,
    financial_status: 'paid',
    created_at: order.createdAt,
    updated_at: new Date().toISOString(),
    subtotal_price: money(subtotalMinor),
    total_tax: money(order.taxMinor),
    total_shipping_price_set: {
      shop_money: { amount: money(order.shippingMinor), currency_code: order.currency },
    },
    total_price: money(totalMinor),
    tags: order.tags.join(', '),
    note: order.note,
    line_items: order.lines.map((line) => ({
      id: gidNumber(line.id, 'LineItem'),
      admin_graphql_api_id: line.id,
      variant_id: line.variantId && gidNumber(line.variantId, 'ProductVariant'),
      title: line.title,
      quantity: line.quantity,
      price: money(line.unitPriceMinor),
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
