import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PUBLIC_URL,
  startServerUnderTest,
  usesPostgres,
  type ServerUnderTest,
} from './support/server-under-test'

let server: ServerUnderTest
beforeAll(async () => {
  server = await startServerUnderTest()
})
afterAll(() => server.close())

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: server.asAdmin })

/** The sandbox's app config of a store, as docs/product-rules.md seeds it. */
const seeded = (name: string, shopType: 'BRAND' | 'CREATOR') => ({
  shop: `${name}.myshopify.com`,
  clientId: `sandbox-${name}`,
  clientSecret: `shpss_sandbox_${name.replaceAll('-', '_')}`,
  secretError: null,
  shopType,
})

const SEEDED = [
  seeded('ironpeak-outdoor', 'BRAND'),
  seeded('lumen-botanicals', 'BRAND'),
  seeded('maya-makes', 'CREATOR'),
  seeded('northwind-apparel', 'BRAND'),
  seeded('urban-trail-edits', 'CREATOR'),
]

const NEW_CONFIG = {
  shop: 'fresh-goods.myshopify.com',
  clientId: 'client-fresh',
  clientSecret: 'shpss_fresh_goods_secret_value',
  shopType: 'BRAND',
}
/** A config as the server answers it: its secret opened. */
const answered = (config: typeof NEW_CONFIG) => ({ ...config, secretError: null })

describe('GET /get-all-app-config', () => {
  it('answers every app config by shop, with the client secrets opened', async () => {
    const response = await call('GET', '/get-all-app-config')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ appConfigs: SEEDED })
  })
})

describe('client secrets at rest', () => {
  it('stores every secret sealed, never in plain text', async () => {
    const rows = await server.db
      .selectFrom('app_configs')
      .select(['shop', 'client_secret_sealed'])
      .execute()
    expect(rows.map((row) => row.shop)).toEqual(
      expect.arrayContaining(SEEDED.map((config) => config.shop)),
    )
    for (const row of rows) {
      // Sealed under the server's key, named in the value (src/secrets.ts).
      expect(row.client_secret_sealed).toMatch(new RegExp(`^v2:${server.secrets.keyId}:`))
      expect(row.client_secret_sealed).not.toContain('shpss_')
    }
  })

  // Only SQLite leaves a file to read: the PostgreSQL run has the column check above alone.
  if (!usesPostgres()) {
    it('never writes a secret in plain text into the SQLite file', async () => {
      const created = await call('POST', '/create-app-config', {
        ...NEW_CONFIG,
        shop: 'sealed-check.myshopify.com',
      })
      expect(created.statusCode).toBe(201)
      const file = server.sqliteFile ?? ''
      // Recent writes sit in the write-ahead log until a checkpoint moves them into the file.
      const bytes = Buffer.concat(
        [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)),
      )
      expect(bytes.length).toBeGreaterThan(0)
      for (const secret of [
        ...SEEDED.map((config) => config.clientSecret),
        NEW_CONFIG.clientSecret,
      ]) {
        expect(bytes.includes(Buffer.from(secret))).toBe(false)
      }
      expect(bytes.includes(Buffer.from('sealed-check.myshopify.com'))).toBe(true)
    })
  }
})

describe('POST /create-app-config', () => {
  it('creates a config from trimmed, lower-cased input and answers it', async () => {
    const response = await call('POST', '/create-app-config', {
      shop: '  Fresh-Goods.MyShopify.com ',
      clientId: ' client-fresh ',
      clientSecret: '\tshpss_fresh_goods_secret_value\n',
      shopType: 'BRAND',
    })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toEqual({ appConfig: answered(NEW_CONFIG) })

    const list = await call('GET', '/get-all-app-config')
    expect(list.json().appConfigs).toContainEqual(answered(NEW_CONFIG))
  })

  it.each([
    ['the same spelling', 'northwind-apparel.myshopify.com'],
    ['another case', ' NORTHWIND-APPAREL.myshopify.com'],
  ])('answers 409 when the shop already has one (%s), keeping it', async (_name, shop) => {
    const response = await call('POST', '/create-app-config', {
      shop,
      clientId: 'other',
      clientSecret: 'other-secret',
      shopType: 'BRAND',
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({
      error: 'conflict',
      message: 'An app config for northwind-apparel.myshopify.com already exists',
    })
    const list = await call('GET', '/get-all-app-config')
    expect(list.json().appConfigs).toContainEqual(seeded('northwind-apparel', 'BRAND'))
  })

  it('answers one 201 and one 409 to two concurrent creates for one shop', async () => {
    const body = { ...NEW_CONFIG, shop: 'race.myshopify.com' }
    const statuses = (
      await Promise.all([
        call('POST', '/create-app-config', body),
        call('POST', '/create-app-config', body),
      ])
    ).map((response) => response.statusCode)
    expect(statuses.sort()).toEqual([201, 409])
  })

  it('never repeats the secret in an error', async () => {
    const response = await call('POST', '/create-app-config', {
      ...NEW_CONFIG,
      shop: 'not a shop',
      shopType: 'RETAILER',
    })
    expect(response.statusCode).toBe(400)
    expect(response.body).not.toContain(NEW_CONFIG.clientSecret)
  })
})

describe('DELETE /delete-app-config/:shop', () => {
  it('deletes the config and answers it, then 404s', async () => {
    const deleted = await call('DELETE', '/delete-app-config/Maya-Makes.myshopify.com')
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json()).toEqual({ appConfig: seeded('maya-makes', 'CREATOR') })

    const list = await call('GET', '/get-all-app-config')
    expect(list.json().appConfigs.map((config: { shop: string }) => config.shop)).not.toContain(
      'maya-makes.myshopify.com',
    )

    const again = await call('DELETE', '/delete-app-config/maya-makes.myshopify.com')
    expect(again.statusCode).toBe(404)
    expect(again.json()).toEqual({
      error: 'not_found',
      message: 'No app config for maya-makes.myshopify.com',
    })
  })

  it('answers 404 for a shop that never had one', async () => {
    const response = await call('DELETE', '/delete-app-config/nobody.myshopify.com')
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'No app config for nobody.myshopify.com',
    })
  })
})

describe('GET /get-app-urls', () => {
  it('answers the app URLs and their callback lists from the public URL', async () => {
    const response = await call('GET', '/get-app-urls')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      brandAppUrl: `${PUBLIC_URL}/shopify/brand`,
      creatorAppUrl: `${PUBLIC_URL}/shopify/creator`,
      brandAppAuthUrl: `${PUBLIC_URL}/shopify/brand/auth/callback,${PUBLIC_URL}/shopify/brand/auth/shopify/callback`,
      creatorAppAuthUrl: `${PUBLIC_URL}/shopify/creator/auth/callback,${PUBLIC_URL}/shopify/creator/auth/shopify/callback`,
    })
  })
})
