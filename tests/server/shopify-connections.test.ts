import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { signParams } from '../../emulators/shopify/oauth'
import { sandboxApp } from '../../server/src/seed/sandbox-data'
import { NORTHWIND } from '../support/sandbox-figures'
import {
  startListeningServer,
  startServerUnderTest,
  syncProducts,
  type ServerUnderTest,
} from './support/server-under-test'
import { orderInShop } from './support/order-in-shop'
import { postWebhook, signBody } from './support/signed-webhook'

// A shop's connection as an administrator sees it, the webhooks connected shops send, and the
// authorization-code install: the real server and adapter against the Shopify emulator.

const MAYA = 'maya-makes.myshopify.com'
const MAYA_SECRET = sandboxApp(MAYA).clientSecret
const NORTHWIND_SECRET = sandboxApp(NORTHWIND).clientSecret

let server: ServerUnderTest
afterEach(() => server.close())

const startListening = async () => {
  server = await startListeningServer()
}

const connection = async (shop: string) =>
  (
    await server.app.inject({
      url: `/admin-shop-connection?shop=${shop}`,
      headers: server.asAdmin,
    })
  ).json()

const testConnection = (shop: string) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-test-shop-connection',
    headers: server.asAdmin,
    payload: { shop },
  })

describe('a shop’s connection', () => {
  it('is NOT_CONNECTED until tested, then CONNECTED by client credentials with its scopes', async () => {
    server = await startServerUnderTest()
    expect(await connection(NORTHWIND)).toEqual({
      shop: NORTHWIND,
      state: 'NOT_CONNECTED',
      method: null,
      scopes: [],
      message: 'Tandem holds no access token for this shop yet: test the connection to get one',
    })
    const tested = await testConnection(NORTHWIND)
    expect(tested.statusCode).toBe(200)
    const connected = {
      shop: NORTHWIND,
      state: 'CONNECTED',
      method: 'CLIENT_CREDENTIALS',
      scopes: [
        'read_products',
        'write_products',
        'read_orders',
        'read_all_orders',
        'write_orders',
        'read_inventory',
        'write_inventory',
        'read_locations',
        'read_fulfillments',
        'write_fulfillments',
        'read_merchant_managed_fulfillment_orders',
        'write_merchant_managed_fulfillment_orders',
        'read_third_party_fulfillment_orders',
      ],
      message: null,
    }
    expect(tested.json()).toEqual(connected)
    expect(await connection(NORTHWIND)).toEqual(connected)
    // Connecting subscribed the brand shop to its topics, at the server's webhook address.
    await expect
      .poll(() =>
        server.shopify
          .webhookSubscriptions(NORTHWIND)
          .map((s) => s.topic)
          .sort(),
      )
      .toEqual([
        'APP_UNINSTALLED',
        'FULFILLMENTS_CREATE',
        'FULFILLMENTS_UPDATE',
        'FULFILLMENT_ORDERS_HOLD_RELEASED',
        'FULFILLMENT_ORDERS_PLACED_ON_HOLD',
        'INVENTORY_LEVELS_UPDATE',
        'ORDERS_CANCELLED',
        'PRODUCTS_DELETE',
        'PRODUCTS_UPDATE',
      ])
    expect(server.shopify.webhookSubscriptions(NORTHWIND)[0]?.uri).toBe(
      'http://127.0.0.1:8787/webhooks/shopify',
    )
  })

  it('is ERROR with Shopify’s reason when the grant is refused, until a test succeeds', async () => {
    server = await startServerUnderTest()
    server.shopify.setGrant(NORTHWIND, 'refuse')
    const reason = `Shopify refused a token for ${NORTHWIND}: Client credentials cannot be performed on this shop.`
    const refused = { shop: NORTHWIND, state: 'ERROR', method: null, scopes: [], message: reason }
    expect((await testConnection(NORTHWIND)).json()).toEqual(refused)
    expect(await connection(NORTHWIND)).toEqual(refused)
    server.shopify.setGrant(NORTHWIND, 'allow')
    expect((await testConnection(NORTHWIND)).json()).toMatchObject({ state: 'CONNECTED' })
  })

  it('says in words, with the fix, that Shopify has no shop at a mistyped domain', async () => {
    server = await startServerUnderTest()
    const shop = 'northwind-aparel.myshopify.com'
    const created = await server.app.inject({
      method: 'POST',
      url: '/create-app-config',
      headers: server.asAdmin,
      payload: { shop, ...sandboxApp(NORTHWIND), shopType: 'BRAND' },
    })
    expect(created.statusCode).toBe(201)
    expect((await testConnection(shop)).json()).toEqual({
      shop,
      state: 'ERROR',
      method: null,
      scopes: [],
      message:
        `Shopify refused a token for ${shop}: Shopify has no shop at this address: check the ` +
        "shop's .myshopify.com domain in its app config (HTTP 404)",
    })
  })

  it('makes a shop new to the marketplace one of its stores, of its app config’s type, once connected', async () => {
    server = await startServerUnderTest()
    const shop = 'harbor-goods.myshopify.com'
    server.shopify.addShop(shop)
    const created = await server.app.inject({
      method: 'POST',
      url: '/create-app-config',
      headers: server.asAdmin,
      payload: { shop, ...sandboxApp(shop), shopType: 'CREATOR' },
    })
    expect(created.statusCode).toBe(201)
    const stores = async () =>
      (await server.app.inject({ url: '/admin-all-stores', headers: server.asAdmin })).json()
    expect(await stores()).not.toContainEqual(expect.objectContaining({ shop }))
    expect((await testConnection(shop)).json()).toMatchObject({ state: 'CONNECTED' })
    // The store list is served from a reading at most a second old.
    await expect.poll(stores, { timeout: 3_000 }).toContainEqual({ shop, shopType: 'CREATOR' })
  })

  it('answers 404 for a shop without an app config', async () => {
    server = await startServerUnderTest()
    const response = await testConnection('nobody.myshopify.com')
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'No app config for nobody.myshopify.com',
    })
  })
})

/** A webhook as Shopify signs it, sent to the server without an admin token. */
function webhook(
  shop: string,
  topic: string,
  payload: object,
  options: { secret?: string; id?: string; signature?: string | null } = {},
) {
  const body = JSON.stringify(payload)
  const signature =
    options.signature === undefined
      ? signBody(body, options.secret ?? MAYA_SECRET)
      : options.signature
  return postWebhook(server, { shop, topic, body, signature, id: options.id })
}

/** An orders/paid body short of what the inbox lists: its id, as Shopify's REST order has it. */
const paidOrder = (id: number) => ({ id, admin_graphql_api_id: `gid://shopify/Order/${id}` })

/** Product 101 of Northwind as Tandem stores it. */
const product101 = () =>
  server.db
    .selectFrom('store_products')
    .select(['title', 'image_url'])
    .where('product_id', '=', 'gid://shopify/Product/101')
    .executeTakeFirstOrThrow()

/** How many of the shop's deliveries their jobs have acted on. */
const doneDeliveries = async (shop: string) =>
  (
    await server.db
      .selectFrom('webhook_deliveries')
      .select('webhook_id')
      .where('shop', '=', shop)
      .where('done_at', 'is not', null)
      .execute()
  ).length

/** What the creator-order index learnt beyond the sandbox's orders (caught up at start). */
const indexed = () =>
  server.db
    .selectFrom('creator_order_index')
    .select(['order_id', 'store_shop'])
    .where('order_id', '>', 1005)
    .orderBy('order_id')
    .execute()

describe('POST /webhooks/shopify', () => {
  it('indexes the paid orders the emulator sends, and forgets an uninstalled shop', async () => {
    await startListening()
    expect((await testConnection(MAYA)).json()).toMatchObject({ state: 'CONNECTED' })
    await expect.poll(() => server.shopify.webhookSubscriptions(MAYA).length).toBe(5)
    const order = await server.shopify.createPaidOrder(MAYA, {
      lines: [{ variantId: 'gid://shopify/ProductVariant/401', quantity: 1 }],
    })
    const id = Number(order.split('/').pop())
    await expect.poll(indexed).toEqual([{ order_id: id, store_shop: MAYA }])

    await server.shopify.uninstall(MAYA)
    await expect.poll(() => connection(MAYA)).toMatchObject({ state: 'NOT_CONNECTED' })
  })

  it('answers 401 to a wrong, missing or other shop’s signature, and changes nothing', async () => {
    server = await startServerUnderTest()
    const paid = { id: 5001 }
    for (const response of [
      await webhook(MAYA, 'orders/paid', paid, { signature: 'AAAA' }),
      await webhook(MAYA, 'orders/paid', paid, { signature: null }),
      await webhook(MAYA, 'orders/paid', paid, { secret: NORTHWIND_SECRET }),
      await webhook('nobody.myshopify.com', 'orders/paid', paid),
    ]) {
      expect(response.statusCode).toBe(401)
      expect(response.json().error).toBe('unauthenticated')
    }
    expect(await indexed()).toEqual([])
  })

  it('acts once on a delivery Shopify repeats', async () => {
    server = await startServerUnderTest()
    for (const order of [5001, 5002, 5003]) await orderInShop(server, MAYA, order)
    const id = randomUUID()
    expect((await webhook(MAYA, 'orders/paid', paidOrder(5001), { id })).statusCode).toBe(200)
    await expect.poll(indexed).toEqual([{ order_id: 5001, store_shop: MAYA }])
    // The same delivery again, even with another body, is answered and ignored.
    const again = await webhook(MAYA, 'orders/paid', paidOrder(5002), { id })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual({ received: 'again, ignored' })
    const other = await webhook(MAYA, 'orders/paid', paidOrder(5003))
    expect(other.json()).toEqual({ received: true })
    await expect
      .poll(() => indexed().then((rows) => rows.map((row) => row.order_id)))
      .toEqual([5001, 5003])
  })

  it('keeps a synced brand’s products in step with their updates and deletions', async () => {
    server = await startServerUnderTest()
    const sync = await syncProducts(server, NORTHWIND)
    expect(sync.statusCode).toBe(200)
    const brand = { secret: NORTHWIND_SECRET }
    const update = {
      id: 101,
      admin_graphql_api_id: 'gid://shopify/Product/101',
      title: 'Linen Overshirt II',
      status: 'draft',
      updated_at: '2026-11-20T10:00:00-05:00',
      variants: [{ price: '70.50' }, { price: '69.00' }],
    }
    expect((await webhook(NORTHWIND, 'products/update', update, brand)).statusCode).toBe(200)
    expect((await webhook(NORTHWIND, 'products/delete', { id: 102 }, brand)).statusCode).toBe(200)
    const products = () =>
      server.db
        .selectFrom('store_products')
        .select(['product_id', 'title', 'status', 'variant_count', 'min_price_minor'])
        .where('store_shop', '=', NORTHWIND)
        .execute()
    await expect.poll(products).toEqual([
      {
        product_id: 'gid://shopify/Product/101',
        title: 'Linen Overshirt II',
        status: 'DRAFT',
        variant_count: 2,
        min_price_minor: 6900,
      },
    ])
  })

  it('leaves a product as it is when an older version of it arrives after a newer one', async () => {
    server = await startServerUnderTest()
    expect((await syncProducts(server, NORTHWIND)).statusCode).toBe(200)
    const brand = { secret: NORTHWIND_SECRET }
    const version = (title: string, updatedAt: string) => ({
      id: 101,
      admin_graphql_api_id: 'gid://shopify/Product/101',
      title,
      status: 'active',
      updated_at: updatedAt,
      variants: [{ price: '68.00' }],
    })
    const titleOf101 = async () => (await product101()).title
    const newer = version('Linen Overshirt, third cut', '2026-11-21T09:00:00Z')
    // Shopify's own spelling of an earlier time (an offset): older, though its text sorts after.
    const older = version('Linen Overshirt, second cut', '2026-11-21T09:30:00+01:00')
    const before = version('Linen Overshirt, first cut', '2026-10-01T00:00:00Z')
    expect((await webhook(NORTHWIND, 'products/update', newer, brand)).statusCode).toBe(200)
    await expect.poll(titleOf101).toBe('Linen Overshirt, third cut')
    expect((await webhook(NORTHWIND, 'products/update', older, brand)).statusCode).toBe(200)
    // Older than what the sync read (the emulator's seed): changes nothing either.
    expect((await webhook(NORTHWIND, 'products/update', before, brand)).statusCode).toBe(200)
    await expect.poll(() => doneDeliveries(NORTHWIND)).toBe(3)
    expect(await titleOf101()).toBe('Linen Overshirt, third cut')
  })

  it('keeps a product’s featured image in step, and refuses one that is not a web address', async () => {
    server = await startServerUnderTest()
    expect((await syncProducts(server, NORTHWIND)).statusCode).toBe(200)
    const brand = { secret: NORTHWIND_SECRET }
    let version = 0
    const update = (image: { src: string } | null) => ({
      id: 101,
      admin_graphql_api_id: 'gid://shopify/Product/101',
      title: 'Linen Overshirt',
      status: 'active',
      // Each a minute after the one before.
      updated_at: new Date(Date.parse('2026-11-20T10:00:00Z') + ++version * 60_000).toISOString(),
      variants: [{ price: '68.00' }],
      image,
    })
    const imageOf101 = async () => (await product101()).image_url

    const cdn = 'https://cdn.shopify.com/s/files/1/overshirt.jpg'
    expect(
      (await webhook(NORTHWIND, 'products/update', update({ src: cdn }), brand)).statusCode,
    ).toBe(200)
    await expect.poll(imageOf101).toBe(cdn)

    const script = update({ src: 'javascript:alert(1)' })
    expect((await webhook(NORTHWIND, 'products/update', script, brand)).statusCode).toBe(400)
    expect(await imageOf101()).toBe(cdn)

    expect((await webhook(NORTHWIND, 'products/update', update(null), brand)).statusCode).toBe(200)
    await expect.poll(imageOf101).toBeNull()
  })
})

describe('the authorization-code install', () => {
  it('goes from the App URL through Shopify’s approval to an expiring token, once', async () => {
    await startListening()
    const launch = server.shopify.signedAppLaunch(NORTHWIND)
    const start = await server.app.inject({ url: `/shopify/brand?${launch}` })
    expect(start.statusCode).toBe(302)
    const authorize = new URL(start.headers.location as string)
    expect(
      authorize.href.startsWith(`${server.shopify.url}/${NORTHWIND}/admin/oauth/authorize?`),
    ).toBe(true)
    expect(authorize.searchParams.get('client_id')).toBe(sandboxApp(NORTHWIND).clientId)
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/\/shopify\/brand\/auth\/callback$/)

    // The merchant approves; Shopify sends them back to the callback with a signed code.
    const approved = await fetch(authorize, { redirect: 'manual' })
    const callback = new URL(approved.headers.get('location') ?? '')
    const done = await server.app.inject({ url: callback.pathname + callback.search })
    expect(done.statusCode).toBe(200)
    expect(done.body).toContain(`Tandem is connected to ${NORTHWIND}.`)
    expect(await connection(NORTHWIND)).toMatchObject({
      state: 'CONNECTED',
      method: 'AUTHORIZATION_CODE',
      scopes: [
        'read_products',
        'write_products',
        'read_inventory',
        'write_inventory',
        'read_locations',
        'read_orders',
        'read_all_orders',
        'write_orders',
        'write_fulfillments',
        'write_merchant_managed_fulfillment_orders',
        'read_third_party_fulfillment_orders',
      ],
    })
    // The token works, and the same callback again is refused: its state was used.
    expect((await testConnection(NORTHWIND)).json()).toMatchObject({ state: 'CONNECTED' })
    const replayed = await server.app.inject({ url: callback.pathname + callback.search })
    expect(replayed.statusCode).toBe(401)
    expect(replayed.json().message).toBe(
      'This install was not started here, or was finished already',
    )
  })

  it('answers 401 to a query not signed for the shop, or signed too long ago', async () => {
    server = await startServerUnderTest()
    const launch = server.shopify.signedAppLaunch(NORTHWIND)
    const tampered = new URLSearchParams(launch)
    tampered.set('shop', 'lumen-botanicals.myshopify.com')
    const unsigned = new URLSearchParams(launch)
    unsigned.delete('hmac')
    const old = signParams(
      { shop: NORTHWIND, timestamp: String(Math.floor(Date.now() / 1000) - 91) },
      NORTHWIND_SECRET,
    )
    for (const [query, message] of [
      [tampered, 'This request is not signed by Shopify for the brand app of a shop'],
      [unsigned, 'This request is not signed by Shopify for the brand app of a shop'],
      [old, 'This request from Shopify is too old: open the app again'],
    ] as const) {
      const response = await server.app.inject({ url: `/shopify/brand?${query}` })
      expect(response.statusCode).toBe(401)
      expect(response.json().message).toBe(message)
    }
    // A brand's signed query is not the creator app's.
    expect((await server.app.inject({ url: `/shopify/creator?${launch}` })).statusCode).toBe(401)
    const callback = await server.app.inject({
      url: `/shopify/brand/auth/callback?${signParams({ shop: NORTHWIND, code: 'x', state: 'never-issued', timestamp: String(Math.floor(Date.now() / 1000)) }, NORTHWIND_SECRET)}`,
    })
    expect(callback.statusCode).toBe(401)
  })
})
