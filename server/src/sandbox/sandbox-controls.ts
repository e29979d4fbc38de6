import type { SandboxActionInput } from '@shared/contract'
import type { CustomerDataRequestPayload } from '../adapters/commerce/shopify/shopify-webhook-payloads'
import { PAYMENT_INTENT_METADATA } from '../adapters/payments/payments-port'
import { Refusal } from '../domain/errors'
import { formatMinorUnits, MoneyError, toMinorUnits } from '../domain/money'
import {
  BRAND_PRODUCTS,
  brandVariantId,
  CREATOR_OWN_PRODUCT,
  creatorVariantId,
  STORES,
} from '../seed/sandbox-data'

// The sandbox's customer, creators, brands and the creators' payment app, for seeing what Tandem
// does after the sale (`npm run sandbox`, and the console's Sandbox page through the server in
// sandbox mode). Each action goes through the emulators' own APIs: the Shopify emulator's admin
// controls (emulators/shopify/admin-controls.ts, a merchant's clicks in the admin) and the Stripe
// emulator's HTTP API, so Tandem hears of it as it would of the real thing: by Shopify's
// webhooks, and by reading Stripe. Each answers what it did, in a sentence.

/** Where the emulators are, and the platform's test-mode Stripe key. */
export interface SandboxEmulators {
  shopify: string
  stripe: string
  key: string
}

export type SandboxAction = SandboxActionInput

/**
 * The emulators of a server in sandbox mode beside them, with a test-mode key; none otherwise
 * (production, or a sandbox on real Shopify or Stripe), where the Sandbox page is refused.
 */
export function sandboxEmulators(config: {
  mode: 'sandbox' | 'production'
  shopifyEndpoint: string | null
  stripeEndpoint: string | null
  stripeSecretKey: string | null
}): SandboxEmulators | undefined {
  const { mode, shopifyEndpoint, stripeEndpoint, stripeSecretKey } = config
  if (mode !== 'sandbox' || !shopifyEndpoint || !stripeEndpoint) return undefined
  if (!stripeSecretKey?.startsWith('sk_test_')) return undefined
  return { shopify: shopifyEndpoint, stripe: stripeEndpoint, key: stripeSecretKey }
}

/** The sandbox's products, by the names the actions take. */
export const SANDBOX_PRODUCTS = [...BRAND_PRODUCTS, CREATOR_OWN_PRODUCT].map((p) => p.key)

interface SandboxOrder {
  id: string
  name: string
  tags: string[]
  currency: string
  totalMinor: number
  paymentIntent: string | null
  lines: { title: string; quantity: number; unitPrice: string }[]
}

const wrong = (message: string) => new Refusal('invalid_input', message)

async function reach(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch {
    throw new Refusal(
      'upstream_failed',
      `${what} does not answer at ${new URL(url).origin}: is the local stack running (npm run start:web)?`,
    )
  }
}

/** A Shopify admin control of the shop. */
async function admin<T>(
  at: SandboxEmulators,
  shop: string,
  control: string,
  body: object = {},
): Promise<T> {
  const answer = await reach(
    `${at.shopify}/_admin/${shop}/${control}`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    'The Shopify emulator',
  )
  const json = (await answer.json()) as T & { errors?: string }
  if (!answer.ok) throw new Refusal('business_rule', `Shopify refused: ${json.errors}`)
  return json
}

/** A Stripe API call with the platform's key, as stripe-node sends it (a form body). */
async function stripe<T>(
  at: SandboxEmulators,
  path: string,
  form: Record<string, string>,
): Promise<T> {
  const answer = await reach(
    `${at.stripe}${path}`,
    {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${at.key}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    },
    'The Stripe emulator',
  )
  const json = (await answer.json()) as T & { error?: { message: string } }
  if (!answer.ok) throw new Refusal('business_rule', `Stripe refused: ${json.error?.message}`)
  return json
}

/** A sandbox store's shop domain, from its name or domain. */
function storeOf(name: string, type?: 'BRAND' | 'CREATOR'): string {
  const shop = name.endsWith('.myshopify.com') ? name : `${name}.myshopify.com`
  const store = STORES.find((candidate) => candidate.shop === shop)
  if (!store || (type && store.shopType !== type)) {
    const kind = type === 'BRAND' ? 'brand' : type === 'CREATOR' ? 'creator' : 'store'
    const names = STORES.filter((s) => !type || s.shopType === type).map((s) =>
      s.shop.replace('.myshopify.com', ''),
    )
    throw wrong(`"${name}" is not a sandbox ${kind}: one of ${names.join(', ')}.`)
  }
  return shop
}

/** The product's variant on the store: a brand's own, or a creator's copy or sticker pack. */
function variantOf(shop: string, key: string): string {
  const creator = STORES.find((s) => s.shop === shop)?.shopType === 'CREATOR'
  if (creator && key === CREATOR_OWN_PRODUCT.key)
    return creatorVariantId(shop, BRAND_PRODUCTS.length)
  const index = BRAND_PRODUCTS.findIndex((p) => p.key === key && (creator || p.brand === shop))
  if (index < 0) throw wrong(`${shop} sells no product "${key}".`)
  return creator ? creatorVariantId(shop, index) : brandVariantId(index)
}

/** The creator order of that number (1001 or #1001), on whichever creator store has it. */
async function creatorOrder(at: SandboxEmulators, name: string) {
  const wanted = `#${name.replace(/^#/, '')}`
  for (const store of STORES.filter((s) => s.shopType === 'CREATOR')) {
    const { orders } = await admin<{ orders: SandboxOrder[] }>(at, store.shop, 'orders')
    const order = orders.find((candidate) => candidate.name === wanted)
    if (order) return { shop: store.shop, order, number: order.id.split('/').pop()! }
  }
  throw wrong(`No creator store has order ${wanted}.`)
}

/** The brand's order of the creator order, which Tandem placed when it processed it. */
async function brandOrder(at: SandboxEmulators, brand: string, creatorNumber: string) {
  const { orders } = await admin<{ orders: SandboxOrder[] }>(at, brand, 'orders')
  const order = orders.find((candidate) =>
    candidate.tags.includes(`tandem-transfer-${creatorNumber}`),
  )
  if (!order)
    throw new Refusal(
      'business_rule',
      `${brand} has no order of creator order #${creatorNumber} yet: process the creator order first.`,
    )
  return order
}

const money = (minor: number, currency: string) =>
  `${formatMinorUnits(minor, currency)} ${currency}`

function minorOf(amount: string, currency: string): number {
  try {
    return toMinorUnits(amount, currency)
  } catch (error) {
    if (error instanceof MoneyError) throw wrong(`${error.message}.`)
    throw error
  }
}

async function order(at: SandboxEmulators, input: Extract<SandboxAction, { action: 'order' }>) {
  const shop = storeOf(input.creator, 'CREATOR')
  if (input.items.length === 0) throw wrong('Name at least one product to order.')
  const lines = input.items.map(({ product, quantity }) => {
    if (!Number.isInteger(quantity) || quantity < 1)
      throw wrong(`"${quantity}" is not a quantity: a whole number from 1.`)
    return { variantId: variantOf(shop, product), quantity }
  })
  // As the platform's checkout pays: the order, then its PaymentIntent naming it (metadata only
  // the platform writes), then the order names the intent and is paid (orders/paid).
  const placed = (await admin<{ order: SandboxOrder }>(at, shop, 'create-order', { lines })).order
  const intent = await stripe<{ id: string }>(at, '/v1/payment_intents', {
    amount: String(placed.totalMinor),
    currency: placed.currency.toLowerCase(),
    confirm: 'true',
    payment_method: 'pm_card_visa',
    [`metadata[${PAYMENT_INTENT_METADATA.creatorShop}]`]: shop,
    [`metadata[${PAYMENT_INTENT_METADATA.creatorOrderId}]`]: placed.id.split('/').pop()!,
  })
  await admin(at, shop, 'pay', { orderId: placed.id, paymentIntent: intent.id })
  return (
    `Order ${placed.name} placed on ${shop} and paid through Stripe (${intent.id}, ` +
    `${money(placed.totalMinor, placed.currency)}). Tandem lists it once Shopify's orders/paid reaches it.`
  )
}

async function refund(at: SandboxEmulators, input: Extract<SandboxAction, { action: 'refund' }>) {
  const { shop, order: found } = await creatorOrder(at, input.order)
  const line = found.lines[input.line - 1]
  if (!Number.isInteger(input.line) || !line)
    throw wrong(`The line must be a line of ${found.name}: 1 to ${found.lines.length}.`)
  const quantity = input.quantity ?? line.quantity
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > line.quantity)
    throw wrong(`The quantity must be a whole number from 1 to ${line.quantity}.`)
  const said: string[] = []
  // Stripe alone: what the units cost, without their tax, as a payment app's partial refund.
  let amount = minorOf(line.unitPrice, found.currency) * quantity
  if (input.only !== 'stripe') {
    const units = [{ line: input.line - 1, quantity }]
    const made = await admin<{ refund: { amount: string } }>(at, shop, 'refund', {
      orderId: found.id,
      lines: units,
    })
    amount = minorOf(made.refund.amount, found.currency)
    said.push(
      `${shop} refunded ${quantity} × ${line.title} of ${found.name} in Shopify (${money(amount, found.currency)}).`,
    )
  }
  if (input.only !== 'shopify') {
    if (!found.paymentIntent)
      throw new Refusal(
        'business_rule',
        `${found.name} was not paid through Stripe: it has no charge to refund.`,
      )
    await stripe(at, '/v1/refunds', {
      payment_intent: found.paymentIntent,
      amount: String(amount),
    })
    said.push(
      `Its payment app refunded ${money(amount, found.currency)} of ${found.paymentIntent} in Stripe.`,
    )
  }
  return said.join('\n')
}

async function cancel(at: SandboxEmulators, input: Extract<SandboxAction, { action: 'cancel' }>) {
  const { shop, order: found } = await creatorOrder(at, input.order)
  const orderId = found.id
  const before = (await admin<{ refunds: unknown[] }>(at, shop, 'refunds', { orderId })).refunds
  const after = (await admin<{ refunds: { amount: string }[] }>(at, shop, 'cancel', { orderId }))
    .refunds
  const said = [
    `${shop} cancelled ${found.name} in Shopify, refunding and restocking what was left.`,
  ]
  const made = after.length > before.length ? minorOf(after.at(-1)!.amount, found.currency) : 0
  if (made > 0 && found.paymentIntent) {
    await stripe(at, '/v1/refunds', { payment_intent: found.paymentIntent, amount: String(made) })
    said.push(
      `Its payment app refunded ${money(made, found.currency)} of ${found.paymentIntent} in Stripe.`,
    )
  }
  return said.join('\n')
}

async function dataRequest(
  at: SandboxEmulators,
  input: Extract<SandboxAction, { action: 'data-request' }>,
) {
  const { shop, order: found } = await creatorOrder(at, input.order)
  const { dataRequest: sent } = await admin<{ dataRequest: CustomerDataRequestPayload }>(
    at,
    shop,
    'data-request',
    { orderId: found.id },
  )
  const orders = sent.orders_requested.map((id) => `#${id}`).join(', ')
  return (
    `A customer of ${found.name} (${sent.customer.email ?? `customer ${sent.customer.id}`}) asked ` +
    `${shop} for their data: Shopify sent Tandem customers/data_request ${sent.data_request.id} ` +
    `about orders ${orders}. An administrator downloads what Tandem holds on them under ` +
    'Activity → Data requests.'
  )
}

async function ship(at: SandboxEmulators, input: Extract<SandboxAction, { action: 'ship' }>) {
  const brand = storeOf(input.brand, 'BRAND')
  if (!input.tracking) throw wrong("The tracking number is required: the shipment's.")
  const { number } = await creatorOrder(at, input.order)
  const found = await brandOrder(at, brand, number)
  const company = input.carrier || 'UPS'
  await admin(at, brand, 'fulfill', { orderId: found.id, tracking: input.tracking, company })
  return (
    `${brand} shipped its order ${found.name} of creator order #${number} with ${company} ` +
    `tracking ${input.tracking}. Tandem copies it to the creator's order once ` +
    'fulfillments/create reaches it.'
  )
}

async function hold(at: SandboxEmulators, input: Extract<SandboxAction, { action: 'hold' }>) {
  const brand = storeOf(input.brand, 'BRAND')
  const { number } = await creatorOrder(at, input.order)
  const found = await brandOrder(at, brand, number)
  await admin(at, brand, 'hold', { orderId: found.id, notes: 'Held in the sandbox' })
  return `${brand} put its order ${found.name} of creator order #${number} on hold.`
}

async function reprice(at: SandboxEmulators, input: Extract<SandboxAction, { action: 'reprice' }>) {
  const shop = storeOf(input.store)
  const variantId = variantOf(shop, input.product)
  const minor = minorOf(input.price, 'USD')
  await admin(at, shop, 'edit-variant', { variantId, priceMinor: minor })
  const said = `${shop} now sells ${input.product} at ${formatMinorUnits(minor, 'USD')} USD.`
  // What Tandem does with products/update (docs/integrations.md): a brand's change reaches the
  // creators' listings of the product; a creator's, the copy Tandem listed there.
  const follows =
    STORES.find((store) => store.shop === shop)?.shopType === 'BRAND'
      ? "Tandem hears it on products/update and brings every creator's listing of it to the new " +
        "price (Listings on the creator's store page); a product no creator lists changes nothing in Tandem."
      : "Tandem hears it on products/update and puts a product it listed there back to its listing's " +
        'price; a product of the store itself changes nothing in Tandem.'
  return `${said}\n${follows}`
}

async function stock(at: SandboxEmulators, input: Extract<SandboxAction, { action: 'stock' }>) {
  const shop = storeOf(input.store)
  if (!Number.isInteger(input.count) || input.count < 0)
    throw wrong(`"${input.count}" is not a stock count: a whole number from 0.`)
  const variantId = variantOf(shop, input.product)
  await admin(at, shop, 'set-stock', { variantId, available: input.count })
  return `${shop} has ${input.count} of ${input.product} in stock. Tandem hears it on inventory_levels/update.`
}

/** Does the action through the emulators; answers what was done, one sentence a line. */
export function runSandboxAction(at: SandboxEmulators, input: SandboxAction): Promise<string> {
  switch (input.action) {
    case 'order':
      return order(at, input)
    case 'refund':
      return refund(at, input)
    case 'cancel':
      return cancel(at, input)
    case 'data-request':
      return dataRequest(at, input)
    case 'ship':
      return ship(at, input)
    case 'hold':
      return hold(at, input)
    case 'reprice':
      return reprice(at, input)
    case 'stock':
      return stock(at, input)
  }
}
