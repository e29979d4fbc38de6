import { createHmac } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startShopifyEmulator, type ShopifyEmulator } from '../../emulators/shopify/emulator'
import { sandboxApp } from '../../server/src/seed/sandbox-data'

// The Shopify emulator as a caller sees it over HTTP: the answers, statuses and figures Tandem's
// Shopify adapter relies on, and the failures a test can script.

const BRAND = 'northwind-apparel.myshopify.com'
const CREATOR = 'maya-makes.myshopify.com'
const variant = (n: number) => `gid://shopify/ProductVariant/${n}`
const OVERSHIRT = variant(201)

const ORDER_CREATE = `mutation ($order: OrderCreateOrderInput!) {
  orderCreate(order: $order, options: { inventoryBehaviour: DECREMENT_OBEYING_POLICY }) {
    order { id name } userErrors { field message code }
  }
}`
const transferOrder = (...lines: [variantId: string, quantity: number][]) => ({
  order: {
    currency: 'USD',
    lineItems: lines.map(([variantId, quantity]) => ({ variantId, quantity })),
    tags: ['tandem', 'tandem-transfer-1001'],
  },
})
/** A JSON answer, shaped by what each test asserts of it (as Fastify's inject().json() is). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
const json = (response: Response): Promise<Json> => response.json()

const INVALID_TOKEN = '[API] Invalid API key or access token (unrecognized login or wrong password)'

let emulator: ShopifyEmulator
beforeEach(async () => {
  emulator = await startShopifyEmulator({ imageBaseUrl: 'http://tandem.test' })
})
afterEach(() => emulator.close())

const credentials = (shop: string) => ({
  client_id: sandboxApp(shop).clientId,
  client_secret: sandboxApp(shop).clientSecret,
})
const clientCredentials = (shop: string) => ({
  grant_type: 'client_credentials',
  ...credentials(shop),
})

function postToken(shop: string, params: Record<string, string>, form = false) {
  return fetch(`${emulator.url}/${shop}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(params).toString() : JSON.stringify(params),
  })
}

async function token(shop: string): Promise<string> {
  return (await json(await postToken(shop, clientCredentials(shop)))).access_token
}

/** POSTs a GraphQL request to the shop's Admin API; a fresh token unless one is given. */
async function admin(shop: string, query: string, variables = {}, accessToken?: string) {
  const response = await fetch(`${emulator.url}/${shop}/admin/api/2026-10/graphql.json`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Shopify-Access-Token': accessToken ?? (await token(shop)),
    },
    body: JSON.stringify({ query, variables }),
  })
  return { status: response.status, headers: response.headers, body: await json(response) }
}

const data = async (shop: string, query: string, variables = {}) =>
  (await admin(shop, query, variables)).body.data

const orderCreate = async (...lines: [variantId: string, quantity: number][]) =>
  (await data(BRAND, ORDER_CREATE, transferOrder(...lines))).orderCreate

/** Shopify's query signature: the other parameters sorted, `k=v` joined by &, hex HMAC-SHA256. */
/** Shopify's app library's check: the other parameters sorted, form-encoded as a query. */
function hasValidHmac(params: URLSearchParams, secret: string): boolean {
  const message = new URLSearchParams(
    [...params].filter(([key]) => key !== 'hmac').sort(([a], [b]) => a.localeCompare(b)),
  ).toString()
  return createHmac('sha256', secret).update(message).digest('hex') === params.get('hmac')
}

/**
 * A webhook receiver on a free port: what reached it, each answered with `status(nth)` (1 for the
 * first delivery).
 */
async function webhookReceiver(status: (nth: number) => number = () => 200) {
  const received: { headers: IncomingHttpHeaders; body: string }[] = []
  const receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      response.writeHead(status(received.length)).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const uri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/shopify`
  return { received, uri, close: () => new Promise((resolve) => receiver.close(resolve)) }
}

/** Polls until `check` answers something. */
async function until<T>(check: () => Promise<T | false | undefined> | T | undefined): Promise<T> {
  for (let value = await check(); ; value = await check()) {
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('Shopify emulator', () => {
  it("grants client-credentials tokens to the shop's own app only", async () => {
    const granted = await postToken(BRAND, clientCredentials(BRAND))
    expect(await json(granted)).toEqual({
      access_token: expect.stringMatching(/^shpat_[0-9a-f]{32}$/),
      scope:
        'read_products,write_products,read_orders,read_all_orders,write_orders,read_inventory,write_inventory,read_locations,' +
        'read_fulfillments,write_fulfillments,' +
        'read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,' +
        'read_third_party_fulfillment_orders',
      expires_in: 86399,
    })
    expect((await postToken(BRAND, clientCredentials(BRAND), true)).status).toBe(200)
    const wrong = await postToken(BRAND, { ...clientCredentials(BRAND), client_secret: 'guess' })
    expect([wrong.status, (await json(wrong)).error]).toEqual([400, 'invalid_client'])

    emulator.setGrant(BRAND, 'refuse')
    const refused = await postToken(BRAND, clientCredentials(BRAND))
    expect(refused.status).toBe(400)
    expect(await json(refused)).toEqual({
      error: 'shop_not_permitted',
      error_description: 'Client credentials cannot be performed on this shop.',
    })
    expect((await postToken('nowhere.myshopify.com', clientCredentials(BRAND))).status).toBe(404)
    expect(emulator.calls(BRAND, 'access_token')).toBe(4)
  })

  it('revokes an uninstalled app’s tokens and refuses it a new one until it is approved again', async () => {
    const live = await token(BRAND)
    await emulator.uninstall(BRAND)
    expect((await admin(BRAND, '{ shop { name } }', {}, live)).status).toBe(401)
    const refused = await postToken(BRAND, clientCredentials(BRAND))
    expect(refused.status).toBe(400)
    expect(await json(refused)).toEqual({
      error: 'app_not_installed',
      error_description: 'The application is not installed on this shop.',
    })
    // The merchant approves the app again: it is installed, and the grant works again.
    const { clientId } = sandboxApp(BRAND)
    const approve = new URLSearchParams({ client_id: clientId, redirect_uri: 'https://t.test/cb' })
    const approved = await fetch(`${emulator.url}/${BRAND}/admin/oauth/authorize?${approve}`, {
      redirect: 'manual',
    })
    expect(approved.status).toBe(302)
    expect((await postToken(BRAND, clientCredentials(BRAND))).status).toBe(200)
  })

  it('answers 401 to a missing or expired token and 404 to another API version', async () => {
    const unauthorized = { status: 401, body: { errors: INVALID_TOKEN } }
    expect(await admin(BRAND, '{ shop { name } }', {}, '')).toMatchObject(unauthorized)
    const live = await token(BRAND)
    expect((await admin(BRAND, '{ shop { name } }', {}, live)).status).toBe(200)
    emulator.expireTokens(BRAND)
    expect(await admin(BRAND, '{ shop { name } }', {}, live)).toMatchObject(unauthorized)

    const old = `${emulator.url}/${BRAND}/admin/api/2025-01/graphql.json`
    expect((await fetch(old, { method: 'POST' })).status).toBe(404)
  })

  it('redirects an install with a signed query, then exchanges its code once', async () => {
    const { clientId, clientSecret } = sandboxApp(BRAND)
    const callback = 'https://tandem.test/shopify/brand/auth/callback'
    const authorize = (params: Record<string, string>) =>
      fetch(`${emulator.url}/${BRAND}/admin/oauth/authorize?${new URLSearchParams(params)}`, {
        redirect: 'manual',
      })
    const redirect = await authorize({
      client_id: clientId,
      scope: 'read_products',
      redirect_uri: callback,
      state: 'nonce-1',
    })
    expect(redirect.status).toBe(302)
    const location = new URL(redirect.headers.get('location') ?? '')
    expect(`${location.origin}${location.pathname}`).toBe(callback)
    const keys = ['code', 'hmac', 'host', 'shop', 'state', 'timestamp']
    expect([...location.searchParams.keys()]).toEqual(keys)
    expect(location.searchParams.get('host')).toBe(btoa(`${BRAND}/admin`))
    expect(hasValidHmac(location.searchParams, clientSecret)).toBe(true)
    expect(hasValidHmac(emulator.signedAppLaunch(BRAND), clientSecret)).toBe(true)

    const code = location.searchParams.get('code') ?? ''
    const exchange = { ...credentials(BRAND), code, expiring: '1' }
    const tokens = await json(await postToken(BRAND, exchange))
    expect(tokens).toEqual({
      access_token: expect.stringMatching(/^shpat_/),
      scope: 'read_products',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 7776000,
    })
    expect(await json(await postToken(BRAND, exchange))).toEqual({
      error: 'invalid_request',
      error_description: 'The authorization code was not found or was already used',
    })
    // The refresh token is single-use; what it buys carries the approved scopes.
    const refresh = { ...credentials(BRAND), grant_type: 'refresh_token', ...tokens }
    const renewed = await json(await postToken(BRAND, refresh))
    expect((await postToken(BRAND, refresh)).status).toBe(400)
    const scopes = '{ currentAppInstallation { accessScopes { handle } } }'
    const installation = (await admin(BRAND, scopes, {}, renewed.access_token)).body.data
    expect(installation.currentAppInstallation.accessScopes).toEqual([{ handle: 'read_products' }])
    expect((await authorize({ client_id: 'stranger', redirect_uri: callback })).status).toBe(400)
  })

  it('pages the seeded catalogue with pageInfo and Shopify cost figures', async () => {
    const query = `query ($after: String) {
      products(first: 1, after: $after) {
        nodes {
          id title featuredMedia { preview { image { url } } }
          variants(first: 5) { nodes { id price inventoryQuantity inventoryPolicy } }
        }
        pageInfo { hasNextPage hasPreviousPage endCursor }
      }
    }`
    const first = await admin(BRAND, query)
    const { nodes, pageInfo } = first.body.data.products
    const [product] = nodes
    expect(product).toMatchObject({ id: 'gid://shopify/Product/101', title: 'Linen Overshirt' })
    const image = 'http://tandem.test/images/products/linen-overshirt.svg'
    expect(product.featuredMedia.preview.image.url).toBe(image)
    const stock = { inventoryQuantity: 100, inventoryPolicy: 'DENY' }
    expect(product.variants.nodes).toEqual([{ id: OVERSHIRT, price: '68.00', ...stock }])
    expect(pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    // 2 + 1 × (product 1 + media 3 + variants 2 + 5 × 1) requested; 1 variant came back, not 5.
    const { cost } = first.body.extensions
    expect(cost).toMatchObject({ requestedQueryCost: 13, actualQueryCost: 9 })
    expect(cost.throttleStatus).toMatchObject({ maximumAvailable: 2000, restoreRate: 100 })
    expect(cost.throttleStatus.currentlyAvailable).toBeGreaterThanOrEqual(2000 - 9)

    const second = (await data(BRAND, query, { after: pageInfo.endCursor })).products
    expect(second.nodes[0].id).toBe('gid://shopify/Product/102')
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
  })

  it("holds a creator's copies of the brand variants and totals the seeded orders", async () => {
    const prices = `{ productVariants(first: 10) { nodes { id price product { title } } } }`
    const copies = (await data(CREATOR, prices)).productVariants.nodes
    expect(copies).toHaveLength(6)
    expect(copies[0]).toEqual({
      id: variant(401),
      price: '68.00',
      product: { title: 'Linen Overshirt' },
    })
    expect(copies[5]).toEqual({
      id: variant(406),
      price: '5.00',
      product: { title: 'Sticker Pack' },
    })

    const amount = '{ shopMoney { amount } }'
    const { order } = await data(
      CREATOR,
      `{ order(id: "gid://shopify/Order/1001") { name displayFinancialStatus tags
          subtotalPriceSet ${amount} totalPriceSet ${amount} shippingAddress { city countryCodeV2 }
          lineItems(first: 5) { nodes { id quantity variant { id } } } } }`,
    )
    // 2 × 68.00 + 34.50 + 5.00, then tax 14.04 and shipping 8.00.
    expect(order).toMatchObject({
      name: '#1001',
      displayFinancialStatus: 'PAID',
      tags: [],
      subtotalPriceSet: { shopMoney: { amount: '175.50' } },
      totalPriceSet: { shopMoney: { amount: '197.54' } },
      shippingAddress: { city: 'Portland', countryCodeV2: 'US' },
    })
    const line = { id: 'gid://shopify/LineItem/10011', quantity: 2, variant: { id: variant(401) } }
    expect(order.lineItems.nodes[0]).toEqual(line)
  })

  it('refuses a query over the cost limit or without a page size, running nothing', async () => {
    const nested = '{ products(first: 250) { nodes { id variants(first: 250) { nodes { id } } } } }'
    const tooBig = (await admin(BRAND, nested)).body
    expect(tooBig.data).toBeUndefined()
    expect(tooBig.errors).toEqual([
      {
        message: 'Query cost is 63252, which exceeds the single query max cost limit (1000).',
        extensions: { code: 'MAX_COST_EXCEEDED', cost: 63252, maxCost: 1000 },
      },
    ])
    const unbounded = (await admin(BRAND, '{ products { nodes { id } } }')).body
    expect(unbounded.errors[0].message).toBe('you must provide one of first or last')
  })

  it('runs a bulk query over 10,000 products into JSONL, children naming parents', async () => {
    emulator.addProducts(BRAND, 10_000)
    const run = `mutation ($query: String!) { bulkOperationRunQuery(query: $query) {
      bulkOperation { id status } userErrors { field message } } }`
    const query =
      '{ products { edges { node { id title variants { edges { node { id price } } } } } } }'
    const started = (await data(BRAND, run, { query })).bulkOperationRunQuery
    const { id } = started.bulkOperation
    expect(started).toEqual({ bulkOperation: { id, status: 'CREATED' }, userErrors: [] })

    const accessToken = await token(BRAND)
    const current = '{ currentBulkOperation { id status objectCount rootObjectCount url } }'
    const done = await until(async () => {
      const operation = (await admin(BRAND, current, {}, accessToken)).body.data
        .currentBulkOperation
      return operation.status === 'COMPLETED' && operation
    })
    expect(done).toMatchObject({ id, objectCount: '20004', rootObjectCount: '10002' })
    const file = (await (await fetch(done.url)).text()).trimEnd().split('\n')
    expect(file).toHaveLength(20_004)
    const [product, child] = file.map((line) => JSON.parse(line))
    expect(product).toEqual({ id: 'gid://shopify/Product/101', title: 'Linen Overshirt' })
    expect(child).toEqual({ id: OVERSHIRT, price: '68.00', __parentId: product.id })
  })

  it('runs up to five bulk queries of a shop at once, as API 2026-01 and later do', async () => {
    // Slow enough that none of the five is done before the sixth is asked for, however busy the
    // machine is.
    await emulator.close()
    emulator = await startShopifyEmulator({
      imageBaseUrl: 'http://tandem.test',
      bulkObjectsPerSecond: 0.01,
    })
    const run = `mutation ($query: String!) { bulkOperationRunQuery(query: $query) {
      bulkOperation { id } userErrors { field message } } }`
    const query = '{ products { edges { node { id } } } }'
    for (let i = 0; i < 5; i++) {
      expect((await data(BRAND, run, { query })).bulkOperationRunQuery.userErrors).toEqual([])
    }
    expect((await data(BRAND, run, { query })).bulkOperationRunQuery).toEqual({
      bulkOperation: null,
      userErrors: [
        {
          field: null,
          message: 'There are already 5 bulk query operations in progress for this app and shop.',
        },
      ],
    })
  })

  it('claims stock all or nothing, and makes two orders of one input sent twice', async () => {
    expect(await orderCreate([OVERSHIRT, 1], [variant(202), 101])).toEqual({
      order: null,
      userErrors: [
        {
          field: ['order', 'lineItems', '1'],
          message: 'Merino Crew Socks is out of stock',
          code: 'INVENTORY_CLAIM_FAILED',
        },
      ],
    })
    expect(emulator.stockOf(OVERSHIRT)).toBe(100)

    expect((await orderCreate([OVERSHIRT, 2])).order.name).toBe('#1006')
    expect((await orderCreate([OVERSHIRT, 2])).order.name).toBe('#1007')
    expect(emulator.stockOf(OVERSHIRT)).toBe(96)
    expect(emulator.orders(BRAND)[0]).toMatchObject({
      displayFinancialStatus: 'PENDING',
      lines: [{ variantId: OVERSHIRT, quantity: 2, unitPrice: '68.00' }],
    })
  })

  it('throttles a request its bucket cannot pay for, and executes none of it', async () => {
    emulator.setThrottle(BRAND, { maximumAvailable: 20, restoreRate: 1 })
    expect((await orderCreate([OVERSHIRT, 1])).userErrors).toEqual([])
    const throttled = await admin(BRAND, ORDER_CREATE, transferOrder([OVERSHIRT, 1]))
    const documentation = 'https://shopify.dev/api/usage/rate-limits'
    expect(throttled.status).toBe(200)
    expect(throttled.body).toEqual({
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation } }],
      // orderCreate 10 + order 1 + userErrors 1; the first call left 20 − 12.
      extensions: {
        cost: {
          requestedQueryCost: 12,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 20, currentlyAvailable: 8, restoreRate: 1 },
        },
      },
    })
    expect(emulator.orders(BRAND)).toHaveLength(1)
    expect(emulator.stockOf(OVERSHIRT)).toBe(99)
    expect(emulator.calls(BRAND, 'orderCreate')).toBe(2)
  })

  it('answers scripted faults: 5xx, 429 with Retry-After, a lost answer to a write', async () => {
    const accessToken = await token(BRAND)
    const products = () => admin(BRAND, '{ products(first: 1) { nodes { id } } }', {}, accessToken)
    emulator.script({ operation: 'products', mode: 'error' })
    emulator.script({ operation: 'products', mode: 'throttle429', retryAfterSeconds: 2 })
    expect(await products()).toMatchObject({ status: 503, body: { errors: 'Service Unavailable' } })
    const limited = await products()
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '2'])
    expect((await products()).status).toBe(200)

    emulator.script({ operation: 'orderCreate', shop: BRAND, mode: 'drop_after_write' })
    const lost = admin(BRAND, ORDER_CREATE, transferOrder([OVERSHIRT, 1]), accessToken)
    await expect(lost).rejects.toThrow()
    const made = [{ name: '#1006', tags: ['tandem', 'tandem-transfer-1001'] }]
    expect(emulator.orders(BRAND)).toMatchObject(made)

    const search = 'query ($q: String) { orders(first: 5, query: $q) { nodes { name } } }'
    const found = async (q: string) => (await data(BRAND, search, { q })).orders.nodes
    expect(await found("tag:'tandem-transfer-1001'")).toEqual([{ name: '#1006' }])
    expect(await found('tag:tandem-transfer-100')).toEqual([])
    expect(await found('name:#1006')).toEqual([{ name: '#1006' }])
  })

  it('finds a new order by search only once its lag has passed, as Shopify’s index does', async () => {
    const lagging = await startShopifyEmulator({
      imageBaseUrl: 'http://tandem.test',
      searchLagMs: 1500,
    })
    try {
      const tokenOf = await fetch(`${lagging.url}/${BRAND}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(clientCredentials(BRAND)),
      })
      const accessToken = (await json(tokenOf)).access_token as string
      const ask = (query: string, variables = {}) =>
        fetch(`${lagging.url}/${BRAND}/admin/api/2026-10/graphql.json`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': accessToken },
          body: JSON.stringify({ query, variables }),
        }).then(json)
      await ask(ORDER_CREATE, transferOrder([OVERSHIRT, 1]))
      const search = `{ orders(first: 5, query: "tag:'tandem-transfer-1001'") { nodes { name } } }`
      // Listed at once, but not yet found by a search.
      expect((await ask('{ orders(first: 5) { nodes { name } } }')).data.orders.nodes).toEqual([
        { name: '#1006' },
      ])
      expect((await ask(search)).data.orders.nodes).toEqual([])
      await expect
        .poll(async () => (await ask(search)).data.orders.nodes, { timeout: 6000 })
        .toEqual([{ name: '#1006' }])
    } finally {
      await lagging.close()
    }
  })

  it('finds the orders changed after a quoted moment by updated_at, oldest change first', async () => {
    const changed = `query ($query: String!) {
      orders(first: 10, query: $query, sortKey: UPDATED_AT) { nodes { name updatedAt } } }`
    const later = () => new Promise((resolve) => setTimeout(resolve, 5))
    const since = new Date().toISOString()
    await later()
    await emulator.refund(CREATOR, 'gid://shopify/Order/1005', [{ line: 0, quantity: 1 }])
    await later()
    await emulator.cancel(CREATOR, 'gid://shopify/Order/1003')
    const after = await data(CREATOR, changed, { query: `updated_at:>'${since}'` })
    expect(after.orders.nodes.map((order: Json) => order.name)).toEqual(['#1005', '#1003'])
    expect(after.orders.nodes[0].updatedAt > since).toBe(true)
    // The seeded orders not changed since, by :<=; a date not in quotes is no date.
    const before = await data(CREATOR, changed, { query: `updated_at:<='${since}'` })
    expect(before.orders.nodes.map((order: Json) => order.name)).toEqual(['#1001'])
    const unquoted = await data(CREATOR, changed, { query: `updated_at:>${since}` })
    expect(unquoted.orders.nodes).toEqual([])
  })

  it('marks a pending order paid once and refuses it after', async () => {
    const { id } = (await orderCreate([OVERSHIRT, 1])).order
    const markPaid = `mutation ($id: ID!) { orderMarkAsPaid(input: { id: $id }) {
      order { displayFinancialStatus } userErrors { field message } } }`
    const paid = (await data(BRAND, markPaid, { id })).orderMarkAsPaid
    expect(paid).toEqual({ order: { displayFinancialStatus: 'PAID' }, userErrors: [] })
    const again = (await data(BRAND, markPaid, { id })).orderMarkAsPaid.userErrors
    expect(again).toEqual([{ field: ['id'], message: 'Order cannot be marked as paid.' }])
    const unknown = await data(BRAND, markPaid, { id: 'gid://shopify/Order/999' })
    const notFound = [{ field: ['id'], message: 'Order does not exist' }]
    expect(unknown.orderMarkAsPaid.userErrors).toEqual(notFound)
  })

  it('delivers signed webhooks, retrying a failing receiver with the same webhook id', async () => {
    // The first attempt fails.
    const { received, uri, close } = await webhookReceiver((nth) => (nth === 1 ? 500 : 200))
    const subscribe = `mutation ($uri: String!) { webhookSubscriptionCreate(topic: ORDERS_PAID,
      webhookSubscription: { uri: $uri, format: JSON }) {
        webhookSubscription { topic uri } userErrors { message } } }`
    const created = (await data(CREATOR, subscribe, { uri })).webhookSubscriptionCreate
    expect(created).toEqual({ webhookSubscription: { topic: 'ORDERS_PAID', uri }, userErrors: [] })
    const taken = (await data(CREATOR, subscribe, { uri })).webhookSubscriptionCreate.userErrors
    expect(taken).toEqual([{ message: 'Address for this topic has already been taken' }])
    const subscriptions = [{ id: expect.any(String), topic: 'ORDERS_PAID', uri }]
    expect(emulator.webhookSubscriptions(CREATOR)).toEqual(subscriptions)

    const lines = [
      { variantId: variant(401), quantity: 1 },
      { variantId: variant(403), quantity: 2 },
    ]
    const discount = { code: 'SPRING10', amountMinor: 1000 }
    const id = await emulator.createPaidOrder(CREATOR, { lines, discount })
    const [first] = received
    const secret = sandboxApp(CREATOR).clientSecret
    expect(first?.headers).toMatchObject({
      'x-shopify-topic': 'orders/paid',
      'x-shopify-shop-domain': CREATOR,
      'x-shopify-api-version': '2026-10',
      'x-shopify-hmac-sha256': createHmac('sha256', secret)
        .update(first?.body ?? '')
        .digest('base64'),
    })
    const payload = JSON.parse(first?.body ?? '')
    // Both money sets, as Shopify sends them; the code's 10.00 split 68 : 69 by line totals
    // (4.96 and 5.03 rounded down, the cent left over to the first line).
    const usd = (amount: string) => ({
      shop_money: { amount, currency_code: 'USD' },
      presentment_money: { amount, currency_code: 'USD' },
    })
    expect(payload).toMatchObject({
      admin_graphql_api_id: id,
      financial_status: 'paid',
      cancelled_at: null,
      total_price: '127.00',
      total_price_set: usd('127.00'),
      subtotal_price_set: usd('127.00'),
      total_discounts_set: usd('10.00'),
      discount_codes: [{ code: 'SPRING10', amount: '10.00', type: 'fixed_amount' }],
      line_items: [
        {
          quantity: 1,
          current_quantity: 1,
          price_set: usd('68.00'),
          discount_allocations: [{ amount: '4.97', amount_set: usd('4.97') }],
        },
        {
          quantity: 2,
          current_quantity: 2,
          price_set: usd('34.50'),
          discount_allocations: [{ amount: '5.03', amount_set: usd('5.03') }],
        },
      ],
    })
    const retried = await until(() => received[1])
    const webhookId = first?.headers['x-shopify-webhook-id']
    expect(retried.headers['x-shopify-webhook-id']).toBe(webhookId)

    // The app deletes its subscription: the next order is delivered to nobody.
    const remove = `mutation ($id: ID!) { webhookSubscriptionDelete(id: $id) {
      deletedWebhookSubscriptionId userErrors { field message } } }`
    const subscriptionId = emulator.webhookSubscriptions(CREATOR)[0]!.id
    expect((await data(CREATOR, remove, { id: subscriptionId })).webhookSubscriptionDelete).toEqual(
      { deletedWebhookSubscriptionId: subscriptionId, userErrors: [] },
    )
    expect(emulator.webhookSubscriptions(CREATOR)).toEqual([])
    expect((await data(CREATOR, remove, { id: subscriptionId })).webhookSubscriptionDelete).toEqual(
      {
        deletedWebhookSubscriptionId: null,
        userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }],
      },
    )
    await emulator.createPaidOrder(CREATOR, { lines })
    expect(received).toHaveLength(2)
    await close()
  })

  it("sends customers/data_request, signed, to the app configuration's address only", async () => {
    const { received, uri: complianceUri, close } = await webhookReceiver()
    // Without the configuration's address there is nowhere to send it: refused, saying so.
    await expect(emulator.requestCustomerData(CREATOR, 'gid://shopify/Order/1001')).rejects.toThrow(
      "The app's configuration names no address for compliance webhooks",
    )
    const configured = await startShopifyEmulator({
      imageBaseUrl: 'http://tandem.test',
      complianceUri,
    })
    try {
      // Jane's second order on the shop: the request names both, as it is about the customer.
      const second = await configured.createPaidOrder(CREATOR, {
        lines: [{ variantId: variant(401), quantity: 1 }],
        email: 'jane@example.com',
      })
      const control = await fetch(`${configured.url}/_admin/${CREATOR}/data-request`, {
        method: 'POST',
        body: JSON.stringify({ orderId: 'gid://shopify/Order/1001' }),
      })
      const { dataRequest } = await json(control)
      expect(received).toHaveLength(1)
      const [delivery] = received
      expect(delivery?.headers).toMatchObject({
        'x-shopify-topic': 'customers/data_request',
        'x-shopify-shop-domain': CREATOR,
        'x-shopify-hmac-sha256': createHmac('sha256', sandboxApp(CREATOR).clientSecret)
          .update(delivery?.body ?? '')
          .digest('base64'),
      })
      const shopId = JSON.parse(delivery?.body ?? '').shop_id
      expect(JSON.parse(delivery?.body ?? '')).toEqual({
        shop_id: expect.any(Number),
        shop_domain: CREATOR,
        orders_requested: [1001, Number(second.split('/').pop())],
        customer: { id: shopId * 100_000 + 1, email: 'jane@example.com', phone: null },
        data_request: { id: 1 },
      })
      expect(dataRequest).toEqual(JSON.parse(delivery?.body ?? ''))
      // Another customer's request is another customer, and the next request id.
      const other = await configured.requestCustomerData(CREATOR, 'gid://shopify/Order/1003')
      expect(other).toMatchObject({
        orders_requested: [1003],
        customer: { id: shopId * 100_000 + 2 },
        data_request: { id: 2 },
      })
    } finally {
      await configured.close()
      await close()
    }
  })

  it('keeps what became of an order: edits, refunds, cancellation, and each line’s discounts', async () => {
    const id = await emulator.createCustomerOrder(CREATOR, {
      lines: [
        { variantId: variant(401), quantity: 2 },
        { variantId: variant(403), quantity: 1 },
      ],
      discount: { code: 'SPRING10', amountMinor: 1000 },
    })
    const query = `query ($id: ID!) { order(id: $id) {
      displayFinancialStatus cancelledAt discountCodes
      totalPriceSet { shopMoney { amount } } totalRefundedSet { presentmentMoney { amount } }
      refunds { totalRefundedSet { presentmentMoney { amount } } }
      lineItems(first: 5) { nodes { quantity currentQuantity
        discountedTotalSet { presentmentMoney { amount } }
        discountAllocations { allocatedAmountSet { shopMoney { amount currencyCode } } } } } } }`
    const order = async () => (await data(CREATOR, query, { id })).order
    const allocation = (amount: string) => ({
      allocatedAmountSet: { shopMoney: { amount, currencyCode: 'USD' } },
    })
    expect(await order()).toEqual({
      displayFinancialStatus: 'PAID',
      cancelledAt: null,
      discountCodes: ['SPRING10'],
      totalPriceSet: { shopMoney: { amount: '160.50' } },
      totalRefundedSet: { presentmentMoney: { amount: '0.00' } },
      refunds: [],
      lineItems: {
        nodes: [
          // An order-level code is left out of discountedTotalSet: only its allocations show it.
          {
            quantity: 2,
            currentQuantity: 2,
            discountedTotalSet: { presentmentMoney: { amount: '136.00' } },
            discountAllocations: [allocation('7.98')],
          },
          {
            quantity: 1,
            currentQuantity: 1,
            discountedTotalSet: { presentmentMoney: { amount: '34.50' } },
            discountAllocations: [allocation('2.02')],
          },
        ],
      },
    })

    // One overshirt refunded: what the customer paid for it, (136.00 − 7.98) ÷ 2 = 64.01.
    emulator.refund(CREATOR, id, [{ line: 0, quantity: 1 }])
    expect(await order()).toMatchObject({
      displayFinancialStatus: 'PARTIALLY_REFUNDED',
      totalRefundedSet: { presentmentMoney: { amount: '64.01' } },
      refunds: [{ totalRefundedSet: { presentmentMoney: { amount: '64.01' } } }],
      lineItems: { nodes: [{ currentQuantity: 1 }, { currentQuantity: 1 }] },
    })
    // An edit takes the face oil off without a refund.
    emulator.removeUnits(CREATOR, id, [{ line: 1, quantity: 1 }])
    expect((await order()).lineItems.nodes.map((line: Json) => line.currentQuantity)).toEqual([
      1, 0,
    ])
    expect(() => emulator.removeUnits(CREATOR, id, [{ line: 1, quantity: 1 }])).toThrow(
      'has 0 units left, not 1',
    )
    // The last overshirt refunded: everything paid is back.
    emulator.refund(CREATOR, id, [{ line: 0, quantity: 1 }])
    expect(await order()).toMatchObject({
      displayFinancialStatus: 'REFUNDED',
      totalRefundedSet: { presentmentMoney: { amount: '160.50' } },
    })
    emulator.cancel(CREATOR, id)
    expect((await order()).cancelledAt).toMatch(/^\d{4}-\d\d-\d\dT/)

    // A pending order is not announced, and stays pending until marked paid.
    const pending = await emulator.createCustomerOrder(CREATOR, {
      lines: [{ variantId: variant(401), quantity: 1 }],
      financialStatus: 'PENDING',
    })
    expect((await data(CREATOR, query, { id: pending })).order.displayFinancialStatus).toBe(
      'PENDING',
    )
  })

  it('leaves a balance on a paid order a line was added to, which marking it paid settles by hand', async () => {
    const id = await emulator.createCustomerOrder(CREATOR, {
      lines: [{ variantId: variant(401), quantity: 1 }],
    })
    const query = `query ($id: ID!) { order(id: $id) {
      displayFinancialStatus totalPriceSet { shopMoney { amount } }
      totalReceivedSet { shopMoney { amount } }
      transactions { kind gateway manualPaymentGateway amountSet { shopMoney { amount } } }
      lineItems(first: 5) { nodes { quantity currentQuantity } }
      fulfillmentOrders(first: 5) { nodes { lineItems(first: 5) { nodes { totalQuantity } } } } } }`
    const order = async () => (await data(CREATOR, query, { id })).order
    const amount = (value: string) => ({ shopMoney: { amount: value } })

    emulator.addUnits(CREATOR, id, variant(402), 2)
    expect(await order()).toMatchObject({
      displayFinancialStatus: 'PARTIALLY_PAID',
      totalPriceSet: amount('104.00'),
      totalReceivedSet: amount('68.00'),
      lineItems: { nodes: [{ quantity: 1 }, { quantity: 2, currentQuantity: 2 }] },
      fulfillmentOrders: {
        nodes: [
          { lineItems: { nodes: [{ totalQuantity: 1 }] } },
          { lineItems: { nodes: [{ totalQuantity: 2 }] } },
        ],
      },
    })
    await emulator.markAsPaid(CREATOR, id)
    expect(await order()).toMatchObject({
      displayFinancialStatus: 'PAID',
      totalReceivedSet: amount('104.00'),
      transactions: [
        { kind: 'SALE', manualPaymentGateway: false, amountSet: amount('68.00') },
        { kind: 'SALE', manualPaymentGateway: true, amountSet: amount('36.00') },
      ],
    })
    await expect(emulator.markAsPaid(CREATOR, id)).rejects.toThrow(
      'Order cannot be marked as paid.',
    )
  })

  it('edits an order as orderEditBegin, orderEditAddVariant and orderEditCommit do, for an app with write_order_edits', async () => {
    const id = await emulator.createCustomerOrder(CREATOR, {
      lines: [{ variantId: variant(401), quantity: 1 }],
    })
    const begin = `mutation ($id: ID!) { orderEditBegin(id: $id) {
      calculatedOrder { id } orderEditSession { id } userErrors { field message } } }`
    const add = `mutation ($id: ID!, $variantId: ID!, $quantity: Int!) {
      orderEditAddVariant(id: $id, variantId: $variantId, quantity: $quantity) {
        calculatedLineItem { title quantity originalUnitPriceSet { shopMoney { amount } } }
        calculatedOrder { totalPriceSet { shopMoney { amount } }
          totalOutstandingSet { shopMoney { amount } } }
        userErrors { field message } } }`
    const commit = `mutation ($id: ID!) { orderEditCommit(id: $id, notifyCustomer: false) {
      order { displayFinancialStatus totalPriceSet { shopMoney { amount } }
        lineItems(first: 5) { nodes { title quantity } } }
      successMessages userErrors { field message } } }`

    const denied = await admin(CREATOR, begin, { id })
    expect(denied.body.errors[0].extensions.code).toBe('ACCESS_DENIED')
    emulator.setScopes(CREATOR, 'read_products,read_orders,write_orders,write_order_edits')
    const opened = (await data(CREATOR, begin, { id })).orderEditBegin
    expect(opened.userErrors).toEqual([])
    const editId = opened.calculatedOrder.id
    expect(
      (await data(CREATOR, add, { id: editId, variantId: variant(401), quantity: 1 }))
        .orderEditAddVariant.userErrors,
    ).toEqual([{ field: ['variantId'], message: 'The variant is on the order already.' }])
    expect(
      (
        await data(CREATOR, add, {
          id: opened.orderEditSession.id,
          variantId: variant(402),
          quantity: 2,
        })
      ).orderEditAddVariant,
    ).toEqual({
      calculatedLineItem: {
        title: 'Merino Crew Socks',
        quantity: 2,
        originalUnitPriceSet: { shopMoney: { amount: '18.00' } },
      },
      calculatedOrder: {
        totalPriceSet: { shopMoney: { amount: '104.00' } },
        totalOutstandingSet: { shopMoney: { amount: '36.00' } },
      },
      userErrors: [],
    })
    expect((await data(CREATOR, commit, { id: editId })).orderEditCommit).toEqual({
      order: {
        displayFinancialStatus: 'PARTIALLY_PAID',
        totalPriceSet: { shopMoney: { amount: '104.00' } },
        lineItems: {
          nodes: [
            { title: 'Linen Overshirt', quantity: 1 },
            { title: 'Merino Crew Socks', quantity: 2 },
          ],
        },
      },
      successMessages: ['Order updated'],
      userErrors: [],
    })
    expect((await data(CREATOR, commit, { id: editId })).orderEditCommit.userErrors).toEqual([
      { field: ['id'], message: 'The order edit does not exist or was committed already.' },
    ])
  })

  it('hides orders older than 60 days from an app without read_all_orders', async () => {
    const old = await emulator.createCustomerOrder(CREATOR, {
      lines: [{ variantId: variant(401), quantity: 1 }],
      createdAt: new Date(Date.now() - 61 * 24 * 60 * 60 * 1000).toISOString(),
    })
    const recent = await emulator.createCustomerOrder(CREATOR, {
      lines: [{ variantId: variant(401), quantity: 1 }],
    })
    const query = `query ($id: ID!) { order(id: $id) { id }
      orders(first: 50, sortKey: CREATED_AT, reverse: true) { nodes { id } } }`
    const seen = async (id: string) => {
      const answer = await data(CREATOR, query, { id })
      return { order: answer.order, listed: answer.orders.nodes.some((o: Json) => o.id === id) }
    }
    expect(await seen(old)).toEqual({ order: { id: old }, listed: true })
    emulator.setScopes(CREATOR, 'read_products,read_orders,write_orders')
    expect(await seen(old)).toEqual({ order: null, listed: false })
    expect(await seen(recent)).toEqual({ order: { id: recent }, listed: true })
  })

  it('keeps its state in its file across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shopify-emulator-'))
    const options = { imageBaseUrl: 'http://tandem.test', stateFile: join(dir, 'state.json') }
    try {
      const first = await startShopifyEmulator(options)
      const lines = [{ variantId: variant(406), quantity: 3 }]
      const id = await first.createPaidOrder(CREATOR, { lines })
      await first.close()
      // As a file written before orders kept their edits, refunds, cancellation and discounts.
      const saved = JSON.parse(readFileSync(options.stateFile, 'utf8'))
      for (const order of saved.shops[CREATOR].orders) {
        delete order.cancelledAt
        delete order.discountCodes
        delete order.refunds
        for (const line of order.lines) {
          delete line.removedQuantity
          delete line.discountAllocations
        }
      }
      writeFileSync(options.stateFile, JSON.stringify(saved))
      const second = await startShopifyEmulator(options)
      const kept = { id, cancelledAt: null, lines: [{ quantity: 3, unitPrice: '5.00' }] }
      expect(second.orders(CREATOR).at(-1)).toMatchObject(kept)
      expect(second.stockOf(variant(406))).toBe(97)
      second.refund(CREATOR, id, [{ line: 0, quantity: 1 }])
      expect(second.orders(CREATOR).at(-1)?.displayFinancialStatus).toBe('PARTIALLY_REFUNDED')
      await second.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('Order.risk', () => {
  const RISK = `query ($id: ID!) { order(id: $id) { risk { recommendation
    assessments { riskLevel provider { title } facts { description sentiment } } } } }`
  const ORDER_1001 = 'gid://shopify/Order/1001'
  const riskOf1001 = async () => (await data(CREATOR, RISK, { id: ORDER_1001 })).order.risk

  it('answers no assessment and NONE, then the most severe assessment’s recommendation', async () => {
    expect(await riskOf1001()).toEqual({ recommendation: 'NONE', assessments: [] })
    const fact = {
      description: 'Shipping and billing countries differ',
      sentiment: 'NEGATIVE' as const,
    }
    emulator.assessRisk(CREATOR, ORDER_1001, { riskLevel: 'LOW', provider: null, facts: [] })
    expect((await riskOf1001()).recommendation).toBe('ACCEPT')
    emulator.assessRisk(CREATOR, ORDER_1001, {
      riskLevel: 'MEDIUM',
      provider: 'Fraud Filter',
      facts: [fact],
    })
    expect(await riskOf1001()).toEqual({
      recommendation: 'INVESTIGATE',
      assessments: [
        { riskLevel: 'LOW', provider: null, facts: [] },
        { riskLevel: 'MEDIUM', provider: { title: 'Fraud Filter' }, facts: [fact] },
      ],
    })
    emulator.assessRisk(CREATOR, ORDER_1001, { riskLevel: 'HIGH', provider: null, facts: [] })
    expect((await riskOf1001()).recommendation).toBe('CANCEL')
  })

  it('needs read_orders, as the order does', async () => {
    emulator.setScopes(CREATOR, 'read_products')
    const { body } = await admin(CREATOR, RISK, { id: ORDER_1001 })
    expect(body.errors).toEqual([
      expect.objectContaining({
        path: ['order'],
        extensions: expect.objectContaining({ code: 'ACCESS_DENIED' }),
      }),
    ])
  })
})
