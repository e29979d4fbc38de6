import { parseArgs } from 'node:util'
import { formatMinor, parseMinor } from '../emulators/shopify/money'
import { SANDBOX_STRIPE_SECRET_KEY } from '../emulators/stripe/emulator'
import { PAYMENT_INTENT_METADATA } from '../server/src/adapters/payments/payments-port'
import {
  BRAND_PRODUCTS,
  brandVariantId,
  CREATOR_OWN_PRODUCT,
  creatorVariantId,
  STORES,
} from '../server/src/seed/sandbox-data'
import { CliError, runCommand, type Env } from '../server/src/cli/command-line'

// `npm run sandbox -- <command>`: the local stack's customer, creator, brand and payment app, for
// seeing what Tandem does after the sale. Each command goes through the emulators' own APIs (the
// Shopify emulator's admin controls, the Stripe emulator's HTTP API), so Tandem hears of it as it
// would of the real thing: by Shopify's webhooks, and by reading Stripe. Refused in production.

const USAGE = `Usage: npm run sandbox -- <command>
  order <creator> <product>[:quantity]...    a customer orders and pays through Stripe
                                             (e.g. order maya-makes linen-overshirt:2)
  refund <order> --line N [--quantity Q] [--shopify-only | --stripe-only]
                                             the creator refunds line N (1 for the first) in
                                             Shopify, and its payment app the customer in Stripe
  cancel <order>                             the creator cancels the order, refunding it all
  ship <order> --brand <brand> --tracking <number> [--carrier <name>]
                                             the brand ships its order of the creator order
  hold <order> --brand <brand>               the brand holds its order of the creator order
  reprice <store> <product> <price>          the store changes the product's price
  stock <store> <product> <count>            the store sets the product's stock

<order> is a creator order's number (1001); <store>, <creator> and <brand> are sandbox stores
(maya-makes, northwind-apparel); <product> is a sandbox product (${[...BRAND_PRODUCTS, CREATOR_OWN_PRODUCT].map((p) => p.key).join(', ')}).
Against the local stack's emulators: TANDEM_SHOPIFY_ENDPOINT (else 127.0.0.1:TANDEM_SHOPIFY_PORT
or 8788) and TANDEM_STRIPE_ENDPOINT (else 127.0.0.1:TANDEM_STRIPE_PORT or 8789).`

interface SandboxOrder {
  id: string
  name: string
  tags: string[]
  currency: string
  totalMinor: number
  paymentIntent: string | null
  lines: { title: string; quantity: number; unitPrice: string }[]
}

const local = (port: string | undefined, fallback: number) =>
  `http://127.0.0.1:${Number(port || fallback)}`

function sandboxOnly(env: Env) {
  if ((env.TANDEM_MODE || 'sandbox') !== 'sandbox')
    throw new CliError(
      `npm run sandbox acts on the sandbox's emulators only; TANDEM_MODE is "${env.TANDEM_MODE}". ` +
        'Run it beside the local stack (npm run start:web), where TANDEM_MODE is unset.',
    )
  const key = env.STRIPE_SECRET_KEY || SANDBOX_STRIPE_SECRET_KEY
  if (!key.startsWith('sk_test_'))
    throw new CliError(
      'npm run sandbox never uses a live Stripe key: STRIPE_SECRET_KEY must start with sk_test_.',
    )
  return {
    shopify: env.TANDEM_SHOPIFY_ENDPOINT || local(env.TANDEM_SHOPIFY_PORT, 8788),
    stripe: env.TANDEM_STRIPE_ENDPOINT || local(env.TANDEM_STRIPE_PORT, 8789),
    key,
  }
}

type Endpoints = ReturnType<typeof sandboxOnly>

async function reach(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch {
    throw new CliError(
      `${what} does not answer at ${new URL(url).origin}: is the local stack running (npm run start:web)?`,
    )
  }
}

/** A Shopify admin control of the shop (emulators/shopify/admin-controls.ts). */
async function admin<T>(
  at: Endpoints,
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
  if (!answer.ok) throw new CliError(`Shopify refused: ${json.errors}`)
  return json
}

/** A Stripe API call with the platform's key, as stripe-node sends it (a form body). */
async function stripe<T>(at: Endpoints, path: string, form: Record<string, string>): Promise<T> {
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
  if (!answer.ok) throw new CliError(`Stripe refused: ${json.error?.message}`)
  return json
}

/** A sandbox store's shop domain, from its name or domain. */
function storeOf(name: string | undefined, type?: 'BRAND' | 'CREATOR'): string {
  const shop = name?.endsWith('.myshopify.com') ? name : `${name}.myshopify.com`
  const store = STORES.find((candidate) => candidate.shop === shop)
  if (!store || (type && store.shopType !== type)) {
    const names = STORES.filter((s) => !type || s.shopType === type).map((s) =>
      s.shop.replace('.myshopify.com', ''),
    )
    throw new CliError(
      `"${name ?? ''}" is not a sandbox ${type === 'BRAND' ? 'brand' : type === 'CREATOR' ? 'creator' : 'store'}: one of ${names.join(', ')}.`,
      2,
    )
  }
  return shop
}

/** The product's variant on the store: a brand's own, or a creator's copy or sticker pack. */
function variantOf(shop: string, key: string | undefined): string {
  const creator = STORES.find((s) => s.shop === shop)?.shopType === 'CREATOR'
  if (creator && key === CREATOR_OWN_PRODUCT.key)
    return creatorVariantId(shop, BRAND_PRODUCTS.length)
  const index = BRAND_PRODUCTS.findIndex((p) => p.key === key && (creator || p.brand === shop))
  if (index < 0) throw new CliError(`${shop} sells no product "${key ?? ''}".`, 2)
  return creator ? creatorVariantId(shop, index) : brandVariantId(index)
}

/** The creator order of that number (1001 or #1001), on whichever creator store has it. */
async function creatorOrder(at: Endpoints, name: string | undefined) {
  const wanted = `#${(name ?? '').replace(/^#/, '')}`
  for (const store of STORES.filter((s) => s.shopType === 'CREATOR')) {
    const { orders } = await admin<{ orders: SandboxOrder[] }>(at, store.shop, 'orders')
    const order = orders.find((candidate) => candidate.name === wanted)
    if (order) return { shop: store.shop, order, number: order.id.split('/').pop()! }
  }
  throw new CliError(`No creator store has order ${wanted}.`, 2)
}

/** The brand's order of the creator order, which Tandem placed when it processed it. */
async function brandOrder(at: Endpoints, brand: string, creatorNumber: string) {
  const { orders } = await admin<{ orders: SandboxOrder[] }>(at, brand, 'orders')
  const order = orders.find((candidate) =>
    candidate.tags.includes(`tandem-transfer-${creatorNumber}`),
  )
  if (!order)
    throw new CliError(
      `${brand} has no order of creator order ${creatorNumber} yet: process the creator order in the console first.`,
    )
  return order
}

const money = (minor: number, currency: string) => `${formatMinor(minor, currency)} ${currency}`

async function order(at: Endpoints, args: string[]) {
  const [creator, ...items] = args
  const shop = storeOf(creator, 'CREATOR')
  if (items.length === 0) throw new CliError('Name at least one product to order.', 2)
  const lines = items.map((item) => {
    const [key, count = '1'] = item.split(':')
    if (!/^[1-9]\d*$/.test(count))
      throw new CliError(`"${count}" is not a quantity: a whole number from 1.`, 2)
    return { variantId: variantOf(shop, key), quantity: Number(count) }
  })
  // As the platform's checkout pays: the order, then its PaymentIntent naming it (metadata only
  // the platform writes), then the order names the intent and is paid (orders/paid).
  const placed = (await admin<{ order: SandboxOrder }>(at, shop, 'create-order', { lines })).order
  const number = placed.id.split('/').pop()!
  const intent = await stripe<{ id: string }>(at, '/v1/payment_intents', {
    amount: String(placed.totalMinor),
    currency: placed.currency.toLowerCase(),
    confirm: 'true',
    payment_method: 'pm_card_visa',
    [`metadata[${PAYMENT_INTENT_METADATA.creatorShop}]`]: shop,
    [`metadata[${PAYMENT_INTENT_METADATA.creatorOrderId}]`]: number,
  })
  await admin(at, shop, 'pay', { orderId: placed.id, paymentIntent: intent.id })
  return `Order ${placed.name} placed on ${shop} and paid through Stripe (${intent.id}, ${money(placed.totalMinor, placed.currency)}). Tandem lists it once Shopify's orders/paid reaches it.`
}

async function refund(at: Endpoints, args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      line: { type: 'string' },
      quantity: { type: 'string' },
      'shopify-only': { type: 'boolean' },
      'stripe-only': { type: 'boolean' },
    },
  })
  if (values['shopify-only'] && values['stripe-only'])
    throw new CliError(
      '--shopify-only and --stripe-only exclude each other: give one or neither.',
      2,
    )
  const { shop, order: found } = await creatorOrder(at, positionals[0])
  const position = Number(values.line)
  const line = found.lines[position - 1]
  if (!Number.isInteger(position) || !line)
    throw new CliError(`--line must be a line of ${found.name}: 1 to ${found.lines.length}.`, 2)
  const quantity = values.quantity === undefined ? line.quantity : Number(values.quantity)
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > line.quantity)
    throw new CliError(`--quantity must be a whole number from 1 to ${line.quantity}.`, 2)
  const said: string[] = []
  let amount = (parseMinor(line.unitPrice, found.currency) ?? 0) * quantity
  if (!values['stripe-only']) {
    const units = [{ line: position - 1, quantity }]
    const made = await admin<{ refund: { amount: string } }>(at, shop, 'refund', {
      orderId: found.id,
      lines: units,
    })
    amount = parseMinor(made.refund.amount, found.currency)!
    said.push(
      `${shop} refunded ${quantity} × ${line.title} of ${found.name} in Shopify (${money(amount, found.currency)}).`,
    )
  }
  if (!values['shopify-only']) {
    if (!found.paymentIntent)
      throw new CliError(`${found.name} was not paid through Stripe: it has no charge to refund.`)
    await stripe(at, '/v1/refunds', { payment_intent: found.paymentIntent, amount: String(amount) })
    said.push(
      `Its payment app refunded ${money(amount, found.currency)} of ${found.paymentIntent} in Stripe.`,
    )
  }
  return said.join('\n')
}

async function cancel(at: Endpoints, args: string[]) {
  const { shop, order: found } = await creatorOrder(at, args[0])
  const before = (await admin<{ refunds: unknown[] }>(at, shop, 'refunds', { orderId: found.id }))
    .refunds
  const { refunds } = await admin<{ refunds: { amount: string }[] }>(at, shop, 'cancel', {
    orderId: found.id,
  })
  const said = [
    `${shop} cancelled ${found.name} in Shopify, refunding and restocking what was left.`,
  ]
  const made =
    refunds.length > before.length ? parseMinor(refunds.at(-1)!.amount, found.currency)! : 0
  if (made > 0 && found.paymentIntent) {
    await stripe(at, '/v1/refunds', { payment_intent: found.paymentIntent, amount: String(made) })
    said.push(
      `Its payment app refunded ${money(made, found.currency)} of ${found.paymentIntent} in Stripe.`,
    )
  }
  return said.join('\n')
}

function brandOptions(args: string[], extra: Record<string, { type: 'string' }> = {}) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { brand: { type: 'string' }, ...extra },
  })
  return {
    values: values as Record<string, string | undefined>,
    order: positionals[0],
    brand: storeOf(values.brand, 'BRAND'),
  }
}

async function ship(at: Endpoints, args: string[]) {
  const {
    values,
    order: name,
    brand,
  } = brandOptions(args, { tracking: { type: 'string' }, carrier: { type: 'string' } })
  if (!values.tracking)
    throw new CliError("--tracking is required: the shipment's tracking number.", 2)
  const { number } = await creatorOrder(at, name)
  const found = await brandOrder(at, brand, number)
  const company = values.carrier ?? 'UPS'
  await admin(at, brand, 'fulfill', { orderId: found.id, tracking: values.tracking, company })
  return `${brand} shipped its order ${found.name} of creator order #${number} with ${company} tracking ${values.tracking}. Tandem mirrors it on the creator's order once fulfillments/create reaches it.`
}

async function hold(at: Endpoints, args: string[]) {
  const { order: name, brand } = brandOptions(args)
  const { number } = await creatorOrder(at, name)
  const found = await brandOrder(at, brand, number)
  await admin(at, brand, 'hold', { orderId: found.id, notes: 'Held in the sandbox' })
  return `${brand} put its order ${found.name} of creator order #${number} on hold.`
}

async function reprice(at: Endpoints, args: string[]) {
  const [store, product, price] = args
  const shop = storeOf(store)
  const variantId = variantOf(shop, product)
  const minor = parseMinor(price ?? '', 'USD')
  if (minor === null || minor < 0)
    throw new CliError(`"${price ?? ''}" is not a price: an amount such as 72.00.`, 2)
  await admin(at, shop, 'edit-variant', { variantId, priceMinor: minor })
  return `${shop} now sells ${product} at ${formatMinor(minor, 'USD')}. Tandem hears it on products/update.`
}

async function stock(at: Endpoints, args: string[]) {
  const [store, product, count] = args
  const shop = storeOf(store)
  if (!/^\d+$/.test(count ?? ''))
    throw new CliError(`"${count ?? ''}" is not a stock count: a whole number from 0.`, 2)
  await admin(at, shop, 'set-stock', {
    variantId: variantOf(shop, product),
    available: Number(count),
  })
  return `${shop} has ${count} of ${product} in stock. Tandem hears it on inventory_levels/update.`
}

const COMMANDS: Record<string, (at: Endpoints, args: string[]) => Promise<string>> = {
  order,
  refund,
  cancel,
  ship,
  hold,
  reprice,
  stock,
}

async function main(argv: string[], env: Env): Promise<string> {
  const [name, ...args] = argv
  const command = name ? COMMANDS[name] : undefined
  if (!command) throw new CliError(USAGE, 2)
  const at = sandboxOnly(env)
  try {
    return await command(at, args)
  } catch (error) {
    // parseArgs' own refusals (an unknown option) are the command line's.
    if (error instanceof TypeError && 'code' in error)
      throw new CliError(`${error.message}\n\n${USAGE}`, 2)
    throw error
  }
}

runCommand(main(process.argv.slice(2), process.env))
