import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NORTHWIND } from '../support/sandbox-figures'
import { HELD_TOKEN_RECHECK_MS } from '../../server/src/adapters/commerce/shopify/shop-connections'
import { connectShopify } from '../../server/src/adapters/commerce/shopify/shopify'
import { creatorOrderIndex } from '../../server/src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../../server/src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../../server/src/repositories/shop-connections'
import { sandboxApp } from '../../server/src/seed/sandbox-data'
import { PUBLIC_URL, startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Several server processes on one database, each with its own Shopify adapter: a shop's token is
// renewed by one of them at a time (a refresh token can be spent once only), and a token one of
// them dropped or replaced is soon dropped by the others.

let server: ServerUnderTest
let clock: Date

beforeEach(async () => {
  server = await startServerUnderTest()
  clock = new Date()
})
afterEach(() => server.close())

/** A server process's Shopify adapter, on the shared database and emulator and the test's clock. */
const replica = (store = shopConnectionStore(server.db, server.secrets)) =>
  connectShopify({
    connectionStore: store,
    creatorOrders: creatorOrderIndex(server.db),
    keyAttempts: shopifyKeyAttempts(server.db),
    endpoint: server.shopify.url,
    publicUrl: PUBLIC_URL,
    now: () => clock,
    log: () => {},
  })

type Replica = ReturnType<typeof replica>

/** The shop's connection as an administrator sees it. */
const connection = async (shop: string) =>
  (
    await server.app.inject({
      url: `/admin-shop-connection?shop=${shop}`,
      headers: server.asAdmin,
    })
  ).json()

/**
 * Both replicas hold the token of a shop that replica `a` connected, and the webhook registration
 * `a` started then is over: its calls do not mix with the ones a test counts.
 */
async function bothConnected(a: Replica, b: Replica) {
  await a.commerce.countProducts(NORTHWIND)
  await b.commerce.countProducts(NORTHWIND)
  await expect.poll(() => server.shopify.webhookSubscriptions(NORTHWIND).length).toBe(9)
}

/** The merchant approves the app, and a replica exchanges the code Shopify sends back. */
async function install(shop: string) {
  const { connections } = replica()
  const authorize = connections.authorizeUrl(shop, {
    client_id: sandboxApp(shop).clientId,
    redirect_uri: `${PUBLIC_URL}/shopify/brand/auth/callback`,
  })
  const approved = await fetch(authorize, { redirect: 'manual' })
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code')
  await connections.exchangeCode(shop, code ?? '')
}

describe('a token renewal', () => {
  it('spends an expiring install’s refresh token once, whichever replicas need a token', async () => {
    // A shop whose organisation refuses the client-credentials grant: it has the install only.
    server.shopify.setGrant(NORTHWIND, 'refuse')
    await install(NORTHWIND)
    // The install's token (an hour long) is within its last five minutes.
    clock = new Date(clock.getTime() + 56 * 60_000)
    const [a, b] = [replica(), replica()]

    const tokens = await Promise.all([
      a.connections.accessToken(NORTHWIND),
      b.connections.accessToken(NORTHWIND),
    ])

    expect(tokens[1]).toBe(tokens[0])
    // The install's code, then one refresh.
    expect(server.shopify.calls(NORTHWIND, 'access_token')).toBe(2)
    expect(await connection(NORTHWIND)).toMatchObject({
      state: 'CONNECTED',
      method: 'AUTHORIZATION_CODE',
      message: null,
    })
    expect(
      await Promise.all([a.commerce.countProducts(NORTHWIND), b.commerce.countProducts(NORTHWIND)]),
    ).toEqual([2, 2])
  })

  it('asks for one client-credentials token between replicas connecting a shop at once', async () => {
    const [a, b] = [replica(), replica()]
    expect(
      await Promise.all([a.commerce.countProducts(NORTHWIND), b.commerce.countProducts(NORTHWIND)]),
    ).toEqual([2, 2])
    expect(server.shopify.calls(NORTHWIND, 'access_token')).toBe(1)
    expect(await b.connections.accessToken(NORTHWIND)).toBe(
      await a.connections.accessToken(NORTHWIND),
    )
  })
})

describe('a token held by a replica', () => {
  it('is used without reading the database, and not sent once another replica forgot the shop', async () => {
    const store = shopConnectionStore(server.db, server.secrets)
    let reads = 0
    const [a, b] = [
      replica(),
      replica({ ...store, tokens: (shop) => (reads++, store.tokens(shop)) }),
    ]
    await bothConnected(a, b)
    const readsOnceHeld = reads
    expect(await b.commerce.countProducts(NORTHWIND)).toBe(2)
    expect(await b.commerce.countProducts(NORTHWIND)).toBe(2)
    expect(reads).toBe(readsOnceHeld)

    // The merchant uninstalls the app; replica a handles the webhook.
    await server.shopify.uninstall(NORTHWIND)
    await a.connections.forget(NORTHWIND)
    clock = new Date(clock.getTime() + HELD_TOKEN_RECHECK_MS)
    const counted = server.shopify.calls(NORTHWIND, 'productsCount')

    await expect(b.commerce.countProducts(NORTHWIND)).rejects.toThrow(
      `Shopify refused a token for ${NORTHWIND}: The application is not installed on this shop.`,
    )
    // Replica b dropped the revoked token rather than send it.
    expect(server.shopify.calls(NORTHWIND, 'productsCount')).toBe(counted)
  })

  it('gives way to the token another replica got after Shopify refused the old one', async () => {
    const [a, b] = [replica(), replica()]
    await bothConnected(a, b)
    server.shopify.expireTokens(NORTHWIND)
    // Replica a is refused the old token (one call), and renews it.
    expect(await a.commerce.countProducts(NORTHWIND)).toBe(2)
    expect(server.shopify.calls(NORTHWIND, 'productsCount')).toBe(4)
    clock = new Date(clock.getTime() + HELD_TOKEN_RECHECK_MS)

    expect(await b.commerce.countProducts(NORTHWIND)).toBe(2)
    // One call with a's new token; none with the old one.
    expect(server.shopify.calls(NORTHWIND, 'productsCount')).toBe(5)
    expect(server.shopify.calls(NORTHWIND, 'access_token')).toBe(2)
    expect(await b.connections.accessToken(NORTHWIND)).toBe(
      await a.connections.accessToken(NORTHWIND),
    )
  })
})
