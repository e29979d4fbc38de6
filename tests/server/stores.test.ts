import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NORTHWIND } from '../support/sandbox-figures'
import { CommerceError } from '../../server/src/adapters/commerce/commerce-port'
import type { Db } from '../../server/src/db/connect'
import {
  startServerUnderTest,
  type ServerOptions,
  type ServerUnderTest,
} from './support/server-under-test'

/**
 * A server of the enclosing describe's own, closed before the next describe starts its own: a new
 * server signs the test users in again (which revokes the older servers' tokens), and on
 * PostgreSQL two schemas at once confuse the migrator.
 */
function useServer(options?: ServerOptions): () => ServerUnderTest {
  let server: ServerUnderTest | undefined
  beforeAll(async () => {
    server = await startServerUnderTest(options)
  })
  afterAll(() => server?.close())
  return () => {
    if (!server) throw new Error('The server has not started')
    return server
  }
}

const call = (target: ServerUnderTest, method: 'GET' | 'POST', url: string, payload?: object) =>
  target.app.inject({ method, url, payload, headers: target.asAdmin })

const addStores = async (db: Db, stores: { shop: string; shopType: 'BRAND' | 'CREATOR' }[]) => {
  const rows = stores.map((store) => ({
    shop: store.shop,
    shop_type: store.shopType,
    product_count: 0,
    products_synced_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
  }))
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('stores')
      .values(rows.slice(i, i + 500))
      .execute()
  }
}

describe('GET /admin-all-stores', () => {
  const server = useServer()

  it('answers a bare array of every store, brands first, each type by shop', async () => {
    const response = await call(server(), 'GET', '/admin-all-stores')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(response.json()).toEqual([
      { shop: 'ironpeak-outdoor.myshopify.com', shopType: 'BRAND' },
      { shop: 'lumen-botanicals.myshopify.com', shopType: 'BRAND' },
      { shop: 'northwind-apparel.myshopify.com', shopType: 'BRAND' },
      { shop: 'maya-makes.myshopify.com', shopType: 'CREATOR' },
      { shop: 'urban-trail-edits.myshopify.com', shopType: 'CREATOR' },
    ])
  })

  it('shows a store written by another process within a second', async () => {
    const before = await call(server(), 'GET', '/admin-all-stores')
    await addStores(server().db, [{ shop: 'aaa-new-brand.myshopify.com', shopType: 'BRAND' }])
    // The list is served for up to a second after it was read (see routes/stores.ts).
    await new Promise((resolve) => setTimeout(resolve, 1_050))
    const after = await call(server(), 'GET', '/admin-all-stores')
    expect(after.json()).toEqual([
      { shop: 'aaa-new-brand.myshopify.com', shopType: 'BRAND' },
      ...before.json(),
    ])
  })
})

describe('GET /admin-all-stores with 10,000 stores', () => {
  const server = useServer({ seed: false })

  it('answers them byte for byte, the same from the cache', async () => {
    const stores = Array.from({ length: 10_000 }, (_, i) => ({
      shop: `store-${String(9_999 - i).padStart(5, '0')}.myshopify.com`,
      shopType: i % 3 === 0 ? ('CREATOR' as const) : ('BRAND' as const),
    }))
    await addStores(server().db, stores)
    const expected = [...stores].sort(
      (a, b) => a.shopType.localeCompare(b.shopType) || (a.shop < b.shop ? -1 : 1),
    )
    const first = await call(server(), 'GET', '/admin-all-stores')
    const second = await call(server(), 'GET', '/admin-all-stores')
    expect(first.statusCode).toBe(200)
    expect(first.body).toBe(JSON.stringify(expected))
    expect(second.body).toBe(first.body)
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(second.headers['content-length']).toBe(String(Buffer.byteLength(first.body)))
  })
})

describe('POST /admin-update-products', () => {
  const server = useServer()

  it('syncs the products, answers the count and records it with the time', async () => {
    await server().db.updateTable('stores').set({ product_count: 0 }).execute()
    const started = Date.now()
    const response = await call(server(), 'POST', '/admin-update-products', {
      storeShop: ' Maya-Makes.myshopify.com ',
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    // Five brand products copied and the creator's own sticker pack.
    expect(body).toEqual({
      storeShop: 'maya-makes.myshopify.com',
      productCount: 6,
      syncedAt: expect.any(String),
    })
    const syncedAt = Date.parse(body.syncedAt)
    expect(new Date(syncedAt).toISOString()).toBe(body.syncedAt)
    expect(syncedAt).toBeGreaterThanOrEqual(started - 1)
    expect(syncedAt).toBeLessThanOrEqual(Date.now())

    const row = await server()
      .db.selectFrom('stores')
      .select(['product_count', 'products_synced_at'])
      .where('shop', '=', 'maya-makes.myshopify.com')
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ product_count: 6, products_synced_at: body.syncedAt })
  })

  it('stores a brand store’s own products, and forgets those the shop no longer has', async () => {
    const sync = () => call(server(), 'POST', '/admin-update-products', { storeShop: NORTHWIND })
    const products = () =>
      server()
        .db.selectFrom('store_products')
        .select(['product_id', 'title', 'status', 'variant_count', 'min_price_minor', 'currency'])
        .where('store_shop', '=', NORTHWIND)
        .orderBy('product_id')
        .execute()
    await server()
      .db.insertInto('store_products')
      .values({
        store_shop: NORTHWIND,
        product_id: 'gid://shopify/Product/1',
        title: 'Deleted in Shopify since the last sync',
        status: 'ACTIVE',
        variant_count: 1,
        min_price_minor: 100,
        currency: 'USD',
        seen_at: '2026-01-01T00:00:00.000Z',
      })
      .execute()
    const response = await sync()
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ storeShop: NORTHWIND, productCount: 2 })
    const product = { status: 'ACTIVE', variant_count: 1, currency: 'USD' }
    expect(await products()).toEqual([
      {
        product_id: 'gid://shopify/Product/101',
        title: 'Linen Overshirt',
        min_price_minor: 6800,
        ...product,
      },
      {
        product_id: 'gid://shopify/Product/102',
        title: 'Merino Crew Socks',
        min_price_minor: 1800,
        ...product,
      },
    ])
    const status = await call(server(), 'GET', `/admin-product-sync-status?storeShop=${NORTHWIND}`)
    expect(status.json()).toEqual({
      storeShop: NORTHWIND,
      state: 'IDLE',
      fetched: 2,
      total: 2,
      syncedAt: response.json().syncedAt,
      message: null,
    })
  })

  it('lets a second request join a sync under way, and shows its progress while it runs', async () => {
    const shop = 'ironpeak-outdoor.myshopify.com'
    server().shopify.addProducts(shop, 2_999)
    // The bulk operation's answers come slowly enough to be seen running.
    server().shopify.script({ operation: 'node', mode: 'delay', delayMs: 150, times: 1000 })
    const status = async () =>
      (await call(server(), 'GET', `/admin-product-sync-status?storeShop=${shop}`)).json()
    const first = call(server(), 'POST', '/admin-update-products', { storeShop: shop })
    await expect.poll(status).toMatchObject({ state: 'RUNNING', total: 3_000 })
    const second = call(server(), 'POST', '/admin-update-products', { storeShop: shop })
    const [a, b] = await Promise.all([first, second])
    expect(a.json()).toEqual(b.json())
    expect(a.json()).toMatchObject({ productCount: 3_000 })
    expect(server().shopify.calls(shop, 'bulkOperationRunQuery')).toBe(1)
    expect(await status()).toMatchObject({ state: 'IDLE', fetched: 3_000, total: 3_000 })
  })

  it('answers 502 with Shopify’s reason when the shop cannot be connected, and records it', async () => {
    const shop = 'lumen-botanicals.myshopify.com'
    server().shopify.setGrant(shop, 'refuse')
    const response = await call(server(), 'POST', '/admin-update-products', { storeShop: shop })
    expect(response.statusCode).toBe(502)
    const reason = `Shopify refused a token for ${shop}: Client credentials cannot be performed on this shop.`
    expect(response.json()).toEqual({
      error: 'upstream_failed',
      message: `Shopify (the commerce platform) failed to sync the products of ${shop}: ${reason}`,
    })
    const status = await call(server(), 'GET', `/admin-product-sync-status?storeShop=${shop}`)
    expect(status.json()).toMatchObject({ state: 'FAILED', message: reason, syncedAt: null })
  })

  it('answers 404 for a store the marketplace does not have', async () => {
    const response = await call(server(), 'POST', '/admin-update-products', {
      storeShop: 'nobody.myshopify.com',
    })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'Store not found: nobody.myshopify.com',
    })
  })
})

describe('POST /admin-update-products when the commerce platform fails', () => {
  let failure: Error = new Error('no failure chosen yet')
  const server = useServer({
    commerce: (shopify) => ({ ...shopify, countProducts: () => Promise.reject(failure) }),
  })

  const northwind = () =>
    server()
      .db.selectFrom('stores')
      .select(['product_count', 'products_synced_at'])
      .where('shop', '=', NORTHWIND)
      .executeTakeFirstOrThrow()

  it('answers 502 naming the platform and records nothing', async () => {
    failure = new CommerceError('Throttled: too many requests')
    const before = await northwind()
    const response = await call(server(), 'POST', '/admin-update-products', {
      storeShop: NORTHWIND,
    })
    expect(response.statusCode).toBe(502)
    expect(response.json()).toEqual({
      error: 'upstream_failed',
      message: `Shopify (the commerce platform) failed to sync the products of ${NORTHWIND}: Throttled: too many requests`,
    })
    expect(await northwind()).toEqual(before)
  })

  it('answers 500 without details when something else breaks', async () => {
    failure = new Error('socket hang up at 10.0.0.7')
    const response = await call(server(), 'POST', '/admin-update-products', {
      storeShop: NORTHWIND,
    })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({
      error: 'internal',
      message: 'Something went wrong on the Tandem server',
    })
  })
})
