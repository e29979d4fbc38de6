import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  UNVERIFIED_BODY_DEADLINE_MS,
  UNVERIFIED_BYTES_BUDGET,
  UNVERIFIED_BYTES_PER_CLIENT,
  WEBHOOK_BODY_LIMIT,
} from '../../server/src/routes/shopify-webhooks'
import { createSecretBox } from '../../server/src/secrets'
import { sandboxApp } from '../../server/src/seed/sandbox-data'
import { NORTHWIND } from '../support/sandbox-figures'
import { orderInShop } from './support/order-in-shop'
import {
  startListeningServer,
  startServerUnderTest,
  syncProducts,
  type ServerOptions,
  type ServerUnderTest,
} from './support/server-under-test'

// POST /webhooks/shopify as an attacker meets it: anyone can post there, and Shopify's signature
// covers the body only. Unsigned or unknown callers are refused before their body is read, bodies
// are bounded alone and together, a signed body is believed only for its own topic, and an
// uninstall only once Shopify confirms it.

const MAYA = 'maya-makes.myshopify.com'
const MAYA_SECRET = sandboxApp(MAYA).clientSecret
const NORTHWIND_SECRET = sandboxApp(NORTHWIND).clientSecret

let server: ServerUnderTest
afterEach(() => server.close())

/** A listening server, so that the emulator's webhooks reach it: its port. */
async function startListening(options: ServerOptions = {}) {
  const listening = await startListeningServer(options)
  server = listening
  return listening.port
}

/** Where Shopify's deliveries come from in these tests; attackers post from the loopback. */
const SHOPIFY_ADDRESS = '203.0.113.10'

const sign = (body: string, secret: string) =>
  createHmac('sha256', secret).update(body).digest('base64')

/**
 * A delivery signed with the shop's client secret, as Shopify signs it, from Shopify's address or
 * through a proxy on the loopback that names it (X-Forwarded-For).
 */
function webhook(
  shop: string,
  topic: string,
  payload: object | string,
  secret = MAYA_SECRET,
  { id = randomUUID(), throughProxy = false } = {},
) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload)
  return server.app.inject({
    method: 'POST',
    url: '/webhooks/shopify',
    remoteAddress: throughProxy ? '127.0.0.1' : SHOPIFY_ADDRESS,
    headers: {
      ...(throughProxy ? { 'x-forwarded-for': SHOPIFY_ADDRESS } : {}),
      'content-type': 'application/json',
      'x-shopify-shop-domain': shop,
      'x-shopify-topic': topic,
      'x-shopify-webhook-id': id,
      'x-shopify-hmac-sha256': sign(body, secret),
    },
    payload: body,
  })
}

const connection = async (shop: string) =>
  (
    await server.app.inject({ url: `/admin-shop-connection?shop=${shop}`, headers: server.asAdmin })
  ).json()

const testConnection = async (shop: string) =>
  (
    await server.app.inject({
      method: 'POST',
      url: '/admin-test-shop-connection',
      headers: server.asAdmin,
      payload: { shop },
    })
  ).json()

// Bodies as Shopify sends them for each topic (the emulator's, trimmed).
const PAID_ORDER = {
  id: 5001,
  admin_graphql_api_id: 'gid://shopify/Order/5001',
  name: '#5001',
  created_at: '2026-11-20T10:00:00Z',
  currency: 'USD',
  total_price: '12.00',
  line_items: [],
}
const MAYA_SHOP = { id: 2, domain: MAYA, myshopify_domain: MAYA, name: 'Maya Makes' }
const PRODUCT = {
  id: 101,
  admin_graphql_api_id: 'gid://shopify/Product/101',
  title: 'Linen Overshirt II',
  updated_at: '2026-11-20T10:00:00-05:00',
  status: 'active',
  variants: [{ price: '1.00' }],
}
const fits = (topic: string, sent: string) =>
  `The webhook body does not fit its topic ${topic}: Shopify sends ${sent}`
const UNINSTALL_REFUSAL = fits(
  'app/uninstalled',
  `the shop object, whose myshopify_domain is ${MAYA}`,
)
const PAID_REFUSAL = fits(
  'orders/paid',
  'an order, whose admin_graphql_api_id is gid://shopify/Order/{its id}',
)
const UPDATE_REFUSAL = fits(
  'products/update',
  'a product (title, status, variants, updated_at), whose admin_graphql_api_id is gid://shopify/Product/{its id}',
)
const DELETE_REFUSAL = fits('products/delete', 'the deleted product’s id and nothing else')

/** What a webhook may change: the connections, the order index, the brands' products. */
const state = async () => ({
  connections: await server.db
    .selectFrom('shop_connections')
    .select(['shop', 'error'])
    .orderBy('shop')
    .execute(),
  index: await server.db
    .selectFrom('creator_order_index')
    .select(['order_id', 'store_shop'])
    .orderBy('order_id')
    .execute(),
  products: await server.db
    .selectFrom('store_products')
    .select(['store_shop', 'product_id', 'title', 'status', 'min_price_minor'])
    .orderBy('product_id')
    .execute(),
  deliveries: await server.db.selectFrom('webhook_deliveries').select('webhook_id').execute(),
})

describe('a signed body under another topic', () => {
  it('answers an orders/paid body relabelled app/uninstalled 400, and the shop stays connected', async () => {
    server = await startServerUnderTest()
    expect(await testConnection(MAYA)).toMatchObject({ state: 'CONNECTED' })
    const before = await state()

    const relabelled = await webhook(MAYA, 'app/uninstalled', PAID_ORDER)
    expect(relabelled.statusCode).toBe(400)
    expect(relabelled.json()).toEqual({ error: 'invalid_input', message: UNINSTALL_REFUSAL })
    // Another shop's uninstall body, signed by Maya's app, is not Maya's either.
    const otherShop = { ...MAYA_SHOP, myshopify_domain: NORTHWIND, domain: NORTHWIND }
    expect((await webhook(MAYA, 'app/uninstalled', otherShop)).json().message).toBe(
      UNINSTALL_REFUSAL,
    )
    expect(await state()).toEqual(before)
    expect(await connection(MAYA)).toMatchObject({ state: 'CONNECTED' })
  })

  it.each([
    ['an order as a product update', NORTHWIND, 'products/update', PAID_ORDER, UPDATE_REFUSAL],
    ['an order as a product deletion', NORTHWIND, 'products/delete', PAID_ORDER, DELETE_REFUSAL],
    ['a product as a deletion', NORTHWIND, 'products/delete', PRODUCT, DELETE_REFUSAL],
    ['a shop as a product deletion', NORTHWIND, 'products/delete', MAYA_SHOP, DELETE_REFUSAL],
    ['a product as a paid order', MAYA, 'orders/paid', PRODUCT, PAID_REFUSAL],
    ['a shop as a paid order', MAYA, 'orders/paid', MAYA_SHOP, PAID_REFUSAL],
    [
      'an order whose GID is another order’s',
      MAYA,
      'orders/paid',
      { ...PAID_ORDER, admin_graphql_api_id: 'gid://shopify/Order/1001' },
      PAID_REFUSAL,
    ],
    [
      'a product whose price is not an amount',
      NORTHWIND,
      'products/update',
      { ...PRODUCT, variants: [{ price: '1e9' }] },
      UPDATE_REFUSAL,
    ],
    [
      'a product without variants',
      NORTHWIND,
      'products/update',
      { ...PRODUCT, variants: null },
      UPDATE_REFUSAL,
    ],
  ])('refuses %s with 400 and changes nothing', async (_name, shop, topic, body, message) => {
    server = await startServerUnderTest()
    const sync = await syncProducts(server, NORTHWIND)
    expect(sync.statusCode).toBe(200)
    const before = await state()
    const secret = shop === MAYA ? MAYA_SECRET : NORTHWIND_SECRET
    const response = await webhook(shop, topic, body, secret)
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe(message)
    expect(await state()).toEqual(before)
  })

  it('answers 400 to a signed body that is not JSON, or a topic Tandem never subscribed to', async () => {
    server = await startServerUnderTest()
    const before = await state()
    const broken = await webhook(MAYA, 'orders/paid', '{"id": 5001,')
    expect(broken.statusCode).toBe(400)
    expect(broken.json().message).toBe('The webhook body is not valid JSON')
    const unknown = await webhook(MAYA, 'orders/create', PAID_ORDER)
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().message).toBe(
      'Tandem does not subscribe creator shops to orders/create (X-Shopify-Topic)',
    )
    // A creator holds its app's secret: a brand's topic it signs is none Shopify sends Tandem.
    const creatorProduct = await webhook(MAYA, 'products/delete', { id: 101 })
    expect(creatorProduct.statusCode).toBe(400)
    expect(creatorProduct.json().message).toBe(
      'Tandem does not subscribe creator shops to products/delete (X-Shopify-Topic)',
    )
    expect(await state()).toEqual(before)
  })

  it('leaves an order another creator signs for where Tandem knows it is', async () => {
    server = await startServerUnderTest()
    const urban = 'urban-trail-edits.myshopify.com'
    const owner = () =>
      server.db
        .selectFrom('creator_order_index')
        .select(['store_shop', 'name'])
        .where('order_id', '=', 1005)
        .executeTakeFirst()
    const before = await owner()
    expect(before?.store_shop).toBe(MAYA)
    const claimed = { ...PAID_ORDER, id: 1005, admin_graphql_api_id: 'gid://shopify/Order/1005' }
    const signedByUrban = await webhook(
      urban,
      'orders/paid',
      claimed,
      sandboxApp(urban).clientSecret,
    )
    expect(signedByUrban.statusCode).toBe(200)
    // Acted on after the answer; its own new order, sent next, shows that Tandem got that far.
    await orderInShop(server, urban, 7001)
    const own = { ...PAID_ORDER, id: 7001, admin_graphql_api_id: 'gid://shopify/Order/7001' }
    await webhook(urban, 'orders/paid', own, sandboxApp(urban).clientSecret)
    await expect
      .poll(() => state().then((now) => now.index.find((row) => row.order_id === 7001)))
      .toEqual({ order_id: 7001, store_shop: urban })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await owner()).toEqual(before)
  })
})

describe('app/uninstalled', () => {
  /** The shop's uninstall deliveries, and whether each was acted on. */
  const uninstalls = () =>
    server.db
      .selectFrom('webhook_deliveries')
      .select(['shop', 'topic'])
      .select((eb) => eb('done_at', 'is not', null).as('done'))
      .where('topic', '=', 'app/uninstalled')
      .execute()
      .then((rows) => rows.map((row) => ({ ...row, done: Boolean(row.done) })))

  it('is confirmed with Shopify: a signed uninstall body of a shop still installed changes nothing', async () => {
    server = await startServerUnderTest()
    expect(await testConnection(MAYA)).toMatchObject({ state: 'CONNECTED' })
    const asked = server.shopify.calls(MAYA, 'currentAppInstallation')
    // A genuine body from an earlier uninstall, sent again under a new webhook id.
    const replayed = await webhook(MAYA, 'app/uninstalled', MAYA_SHOP)
    expect(replayed.statusCode).toBe(200)
    await expect.poll(uninstalls).toEqual([{ shop: MAYA, topic: 'app/uninstalled', done: true }])
    // Its job asked Shopify, which said that the app is installed, and Tandem kept the shop.
    expect(server.shopify.calls(MAYA, 'currentAppInstallation')).toBe(asked + 1)
    expect(await connection(MAYA)).toMatchObject({ state: 'CONNECTED', message: null })
  })

  it('disconnects the shop when Shopify uninstalled the app, which then refuses it a token', async () => {
    await startListening()
    expect(await testConnection(MAYA)).toMatchObject({ state: 'CONNECTED' })
    await expect.poll(() => server.shopify.webhookSubscriptions(MAYA).length).toBe(5)
    await server.shopify.uninstall(MAYA)
    await expect.poll(() => connection(MAYA)).toMatchObject({ state: 'NOT_CONNECTED' })
    expect(await testConnection(MAYA)).toMatchObject({
      state: 'ERROR',
      message: `Shopify refused a token for ${MAYA}: The application is not installed on this shop.`,
    })
  })

  /** A listening server whose Shopify emulator's log (its webhook attempts) the test reads. */
  async function startLogged() {
    const logged: string[] = []
    await startListening({ shopifyEmulator: { log: (line) => logged.push(line) } })
    expect(await testConnection(MAYA)).toMatchObject({ state: 'CONNECTED' })
    await expect.poll(() => server.shopify.webhookSubscriptions(MAYA).length).toBe(5)
    return logged
  }

  const tokenHeld = async () =>
    Boolean(
      (
        await server.db
          .selectFrom('shop_connections')
          .select('access_token_sealed')
          .where('shop', '=', MAYA)
          .executeTakeFirst()
      )?.access_token_sealed,
    )

  it.each([
    ['fails three times (503)', { mode: 'error', status: 503, times: 3 } as const],
    ['limits it (429) again and again', { mode: 'throttle429', times: 4 } as const],
  ])(
    'is taken at once while Shopify’s token endpoint %s, and its job disconnects the shop once Shopify confirms',
    async (_name, trouble) => {
      const logged = await startLogged()
      // Shopify's token endpoint has a bad moment just as the merchant uninstalls the app.
      server.shopify.script({ operation: 'access_token', ...trouble })
      await server.shopify.uninstall(MAYA)
      // Answered at once: Shopify never had to send it again.
      await expect.poll(uninstalls).toHaveLength(1)
      expect(logged.filter((line) => line.startsWith('webhook app/uninstalled'))).toEqual([])
      // The job could not confirm it, said so, and asked again later until Shopify answered.
      await expect
        .poll(uninstalls, { timeout: 45_000 })
        .toEqual([{ shop: MAYA, topic: 'app/uninstalled', done: true }])
      expect(await connection(MAYA)).toMatchObject({ state: 'NOT_CONNECTED' })
      expect(await tokenHeld()).toBe(false)
      const retried = server.jobLog.filter(
        (line) => line.message === 'a shopify-webhook job failed: it will be retried',
      )
      // A 503 is not Shopify's word on the shop: each one failed an attempt of the job, which
      // then succeeded once (429s are partly waited out within an attempt, by Retry-After).
      if (trouble.mode === 'error') expect(retried).toHaveLength(3)
      else expect(retried.length).toBeGreaterThan(0)
      expect(retried[0]!.details).toMatchObject({
        err: expect.objectContaining({ message: expect.stringContaining('Shopify') }),
      })
      expect(await server.jobs.troubled()).toEqual([])
    },
    // Four failed attempts wait up to 2 + 4 + 8 + 16 s between them (pg-boss doubles with jitter).
    60_000,
  )

  it('asks nothing of a shop Tandem never connected, which stays unconnected', async () => {
    server = await startServerUnderTest()
    const northwindShop = { ...MAYA_SHOP, domain: NORTHWIND, myshopify_domain: NORTHWIND }
    const uninstalled = await webhook(NORTHWIND, 'app/uninstalled', northwindShop, NORTHWIND_SECRET)
    expect(uninstalled.statusCode).toBe(200)
    await expect
      .poll(uninstalls)
      .toEqual([{ shop: NORTHWIND, topic: 'app/uninstalled', done: true }])
    expect(server.shopify.calls(NORTHWIND, 'access_token')).toBe(0)
    expect(await connection(NORTHWIND)).toMatchObject({ state: 'NOT_CONNECTED' })
  })
})

describe('a caller that is not a configured shop’s Shopify', () => {
  it('answers 503 without the reason when the shop’s stored secret does not open', async () => {
    server = await startServerUnderTest()
    // Sealed under a key this server does not hold (one since removed from its settings).
    const otherBox = createSecretBox(randomBytes(32))
    await server.db
      .updateTable('app_configs')
      .set({
        client_secret_sealed: otherBox.seal(MAYA_SECRET, { shop: MAYA, field: 'client secret' }),
      })
      .where('shop', '=', MAYA)
      .execute()
    const response = await webhook(MAYA, 'orders/paid', PAID_ORDER)
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({
      error: 'unavailable',
      message: 'Tandem cannot check Shopify’s signature for this shop right now: try again later',
    })
    expect((await state()).deliveries).toEqual([])
    // The app's launch, Shopify's other unsigned call, is answered the same way.
    const launch = await server.app.inject({
      url: `/shopify/creator?${server.shopify.signedAppLaunch(MAYA)}`,
    })
    expect(launch.statusCode).toBe(503)
    expect(launch.json()).toEqual(response.json())
  })

  /**
   * Sends the request's head and the first bytes of a body it says is `length` bytes long, from
   * `from` (any address of the loopback's 127.0.0.0/8).
   */
  function startRequest(
    port: number,
    headers: Record<string, string>,
    length: number,
    from = '127.0.0.1',
  ) {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from })
    const head = Object.entries({
      host: '127.0.0.1',
      'content-type': 'application/json',
      'content-length': String(length),
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    socket.write(`POST /webhooks/shopify HTTP/1.1\r\n${head}\r\n{"id":`)
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
    socket.on('error', () => {})
    return { socket, answer: () => answer }
  }

  const SIGNED_LOOKING = {
    'x-shopify-shop-domain': MAYA,
    'x-shopify-topic': 'orders/paid',
    'x-shopify-webhook-id': 'attack',
    'x-shopify-hmac-sha256': sign('anything', 'not the secret'),
  }

  it.each([
    ['no signature', { ...SIGNED_LOOKING, 'x-shopify-hmac-sha256': '' }, 401],
    ['no shop', { ...SIGNED_LOOKING, 'x-shopify-shop-domain': '' }, 401],
    [
      'a shop without an app config',
      { ...SIGNED_LOOKING, 'x-shopify-shop-domain': 'x.myshopify.com' },
      401,
    ],
    ['no topic', { ...SIGNED_LOOKING, 'x-shopify-topic': '' }, 400],
    ['a body over the limit', SIGNED_LOOKING, 413, WEBHOOK_BODY_LIMIT + 1],
  ])(
    'is answered before its body comes: %s',
    async (_name, headers, status, length = 3_000_000) => {
      const port = await startListening()
      const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''))
      const request = startRequest(port, sent, length)
      // The body never comes: only an answer made without it ends the wait.
      await expect.poll(request.answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
      // And the connection is closed after it, so that the rest of the body is never read.
      expect(request.answer()).toMatch(/\r\nconnection: close\r\n/i)
      request.socket.destroy()
    },
  )

  const BUSY =
    'Tandem is receiving too many webhook bodies at once: Shopify sends this one again later'
  const answered = (requests: { answer: () => string }[]) =>
    requests.filter((request) => request.answer() !== '')

  it('holds a share of the budget per client: one holding bodies it never sends keeps no one else out', async () => {
    const port = await startListening()
    // The attacker knows a public shop's domain, not its secret: heads, then no body.
    const requests = Array.from({ length: 8 }, () =>
      startRequest(port, SIGNED_LOOKING, WEBHOOK_BODY_LIMIT),
    )
    const share = Math.floor(UNVERIFIED_BYTES_PER_CLIENT / WEBHOOK_BODY_LIMIT)
    await expect.poll(() => answered(requests).length).toBe(8 - share)
    for (const request of answered(requests)) {
      expect(request.answer()).toMatch(/^HTTP\/1\.1 503 /)
      expect(request.answer()).toContain(BUSY)
    }
    // Northwind's genuine delivery, from Shopify, while the attacker holds its share.
    const genuine = await webhook(NORTHWIND, 'products/delete', { id: 9001 }, NORTHWIND_SECRET)
    expect(genuine.statusCode).toBe(200)
    expect(genuine.json()).toEqual({ received: true })
    for (const request of requests) request.socket.destroy()
  })

  it('counts a share by the client a trusted proxy names, not by the proxy', async () => {
    const listening = await startListeningServer({ trustedProxies: 'loopback' })
    server = listening
    // Posted through the proxy on the loopback, which names the attacker's address.
    const attacker = { ...SIGNED_LOOKING, 'x-forwarded-for': '198.51.100.7' }
    const requests = Array.from({ length: 8 }, () =>
      startRequest(listening.port, attacker, WEBHOOK_BODY_LIMIT),
    )
    const share = Math.floor(UNVERIFIED_BYTES_PER_CLIENT / WEBHOOK_BODY_LIMIT)
    await expect.poll(() => answered(requests).length).toBe(8 - share)
    const genuine = await webhook(NORTHWIND, 'products/delete', { id: 9001 }, NORTHWIND_SECRET, {
      throughProxy: true,
    })
    expect(genuine.statusCode).toBe(200)
    for (const request of requests) request.socket.destroy()
  })

  it('holds at most the budget of unverified bodies at once, whatever the clients; the rest are answered 503', async () => {
    const port = await startListening()
    const length = 3_900_000
    const fit = Math.floor(UNVERIFIED_BYTES_BUDGET / length)
    // Forty bodies from ten addresses: each address within its share, together over the budget.
    const requests = Array.from({ length: 40 }, (_, i) =>
      startRequest(port, SIGNED_LOOKING, length, `127.0.0.${10 + (i % 10)}`),
    )
    await expect.poll(() => answered(requests).length).toBe(40 - fit)
    for (const request of answered(requests)) {
      expect(request.answer()).toMatch(/^HTTP\/1\.1 503 /)
      expect(request.answer()).toContain(BUSY)
    }
    // Those held are freed when their callers give up; a real delivery then gets through.
    for (const request of requests) request.socket.destroy()
    await expect
      .poll(async () => (await webhook(MAYA, 'orders/paid', PAID_ORDER)).statusCode)
      .toBe(200)
  })

  it('drops a body still arriving when Shopify has stopped waiting for the answer', async () => {
    const port = await startListening()
    const started = Date.now()
    const requests = Array.from({ length: 2 }, () =>
      startRequest(port, SIGNED_LOOKING, WEBHOOK_BODY_LIMIT),
    )
    const closed = () => requests.filter((request) => request.socket.closed).length
    await expect.poll(closed, { timeout: 8000, interval: 100 }).toBe(2)
    // Closed without an answer after Shopify's 5 s, long before the server's request timeout.
    expect(Date.now() - started).toBeGreaterThanOrEqual(UNVERIFIED_BODY_DEADLINE_MS)
    expect(Date.now() - started).toBeLessThan(UNVERIFIED_BODY_DEADLINE_MS + 2000)
    expect(requests.map((request) => request.answer())).toEqual(['', ''])
    // The client's share is free again: two bodies at the limit are held, not answered 503.
    const next = Array.from({ length: 2 }, () =>
      startRequest(port, SIGNED_LOOKING, WEBHOOK_BODY_LIMIT),
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(answered(next)).toEqual([])
    for (const request of next) request.socket.destroy()
  }, 15_000)
})
