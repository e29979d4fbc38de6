import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Every test gets the sandbox marketplace as docs/product-rules.md seeds it: Northwind 10/15, Lumen
// 8/12, Ironpeak without a default, and the unique rate Lumen × Maya = 20.

let server: ServerUnderTest
beforeEach(async () => {
  server = await startServerUnderTest()
})
afterEach(() => server.close())

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: server.asAdmin })

const IRONPEAK = 'ironpeak-outdoor.myshopify.com'
const MAYA = 'maya-makes.myshopify.com'
const URBAN = 'urban-trail-edits.myshopify.com'
const NOBODY = 'nobody.myshopify.com'

const getDefault = (shop: string) =>
  call('GET', `/admin-get-default-shop-commission-rate?shop=${encodeURIComponent(shop)}`)
const setDefault = (brandStoreShop: string, tandem: number, creator: number) =>
  call('POST', '/admin-set-default-commission-rate', {
    defaultCommission: {
      brandStoreShop,
      tandemCommissionRate: tandem,
      creatorCommissionRate: creator,
    },
  })
const getUnique = (query = '') => call('GET', `/admin-get-unique-commission-rates${query}`)
const createUnique = (brandStoreShop: string, creatorStoreShop: string, commissionRate: number) =>
  call('POST', '/admin-create-unique-commission-rate', {
    uniqueCommissionRate: { brandStoreShop, creatorStoreShop, commissionRate },
  })

const storedDefault = (shop: string) =>
  server.db
    .selectFrom('default_commissions')
    .select(['tandem_rate_hundredths', 'creator_rate_hundredths'])
    .where('brand_store_shop', '=', shop)
    .executeTakeFirst()

const notFound = (shop: string) => ({ error: 'not_found', message: `Store not found: ${shop}` })
const rule = (message: string) => ({ error: 'invalid_input', message })
const businessRule = (message: string) => ({ error: 'business_rule', message })

const LUMEN_MAYA = { brandStoreShop: LUMEN, creatorStoreShop: MAYA, commissionRate: 20 }

describe('GET /admin-get-default-shop-commission-rate', () => {
  it.each([
    [NORTHWIND, 10, 15],
    [LUMEN, 8, 12],
    [IRONPEAK, null, null],
  ])('answers the default of %s', async (shop, tandem, creator) => {
    const response = await getDefault(shop)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      tandemCommissionRate: tandem,
      creatorCommissionRate: creator,
    })
  })

  it('normalizes the shop', async () => {
    const response = await getDefault(' Northwind-Apparel.MYSHOPIFY.com ')
    expect(response.json()).toEqual({ tandemCommissionRate: 10, creatorCommissionRate: 15 })
  })

  it('answers 404 for an unknown store', async () => {
    const response = await getDefault(NOBODY)
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual(notFound(NOBODY))
  })

  it('answers 422 for a creator store', async () => {
    const response = await getDefault(MAYA)
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual(
      businessRule(`shop ${MAYA} is a creator store, not a brand store`),
    )
  })
})

describe('POST /admin-set-default-commission-rate', () => {
  it('creates a default for a brand that has none and answers it', async () => {
    const response = await setDefault(IRONPEAK, 5, 10.25)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      defaultCommission: {
        brandStoreShop: IRONPEAK,
        tandemCommissionRate: 5,
        creatorCommissionRate: 10.25,
      },
    })
    expect(await storedDefault(IRONPEAK)).toEqual({
      tandem_rate_hundredths: 500,
      creator_rate_hundredths: 1025,
    })
    expect((await getDefault(IRONPEAK)).json()).toEqual({
      tandemCommissionRate: 5,
      creatorCommissionRate: 10.25,
    })
  })

  it('replaces an existing default', async () => {
    const response = await setDefault(' NORTHWIND-apparel.myshopify.com', 12.5, 17.75)
    expect(response.statusCode).toBe(200)
    expect(response.json().defaultCommission.brandStoreShop).toBe(NORTHWIND)
    expect((await getDefault(NORTHWIND)).json()).toEqual({
      tandemCommissionRate: 12.5,
      creatorCommissionRate: 17.75,
    })
  })

  it.each([
    [0.07, 0.29, 7, 29],
    [12.34, 56.78, 1234, 5678],
    [33.33, 66.67, 3333, 6667],
    [0, 0, 0, 0],
    [100, 0, 10000, 0],
  ])('stores %d / %d as exact hundredths', async (tandem, creator, tandemH, creatorH) => {
    // Lumen × Maya's unique 20 would refuse a tandem rate over 80; Northwind has no unique rate.
    const response = await setDefault(NORTHWIND, tandem, creator)
    expect(response.statusCode).toBe(200)
    expect(await storedDefault(NORTHWIND)).toEqual({
      tandem_rate_hundredths: tandemH,
      creator_rate_hundredths: creatorH,
    })
    expect((await getDefault(NORTHWIND)).json()).toEqual({
      tandemCommissionRate: tandem,
      creatorCommissionRate: creator,
    })
  })

  it('answers 404 for an unknown store', async () => {
    const response = await setDefault(NOBODY, 10, 10)
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual(notFound(NOBODY))
  })

  it('answers 422 for a creator store and stores nothing', async () => {
    const response = await setDefault(URBAN, 10, 10)
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual(
      businessRule(`brandStoreShop ${URBAN} is a creator store, not a brand store`),
    )
    expect(await storedDefault(URBAN)).toBeUndefined()
  })

  it('refuses tandem + creator over 100', async () => {
    const response = await setDefault(NORTHWIND, 50, 50.01)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual(
      rule('Tandem and creator commission rates together must not exceed 100'),
    )
    expect((await getDefault(NORTHWIND)).json()).toEqual({
      tandemCommissionRate: 10,
      creatorCommissionRate: 15,
    })
  })

  it('refuses a tandem rate that would put an existing unique rate over 100', async () => {
    const response = await setDefault(LUMEN, 80.01, 12)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual(
      rule(
        "The tandem commission rate plus the brand's highest unique commission rate (20) must not exceed 100",
      ),
    )
    expect((await getDefault(LUMEN)).json()).toEqual({
      tandemCommissionRate: 8,
      creatorCommissionRate: 12,
    })
  })

  it('accepts a tandem rate that brings an existing unique rate exactly to 100', async () => {
    const response = await setDefault(LUMEN, 80, 12)
    expect(response.statusCode).toBe(200)
  })

  it('checks against the highest unique rate of the brand', async () => {
    expect((await createUnique(NORTHWIND, MAYA, 30)).statusCode).toBe(200)
    expect((await createUnique(NORTHWIND, URBAN, 45.5)).statusCode).toBe(200)
    const response = await setDefault(NORTHWIND, 55, 10)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual(
      rule(
        "The tandem commission rate plus the brand's highest unique commission rate (45.5) must not exceed 100",
      ),
    )
    expect((await setDefault(NORTHWIND, 54.5, 10)).statusCode).toBe(200)
  })
})

describe('GET /admin-get-unique-commission-rates', () => {
  it.each([
    ['no filter', ''],
    ['the brand', `?brandShop=${LUMEN}`],
    ['the creator, as the console sends it', `?creatorShop=${MAYA}`],
    ['both', `?brandShop=${LUMEN}&creatorShop=${MAYA}`],
    ['a normalized shop', `?creatorShop=%20Maya-Makes.myshopify.com`],
  ])('answers the seeded rate for %s', async (_name, query) => {
    const response = await getUnique(query)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ uniqueCommissionRates: [LUMEN_MAYA] })
  })

  it.each([
    ['another creator', `?creatorShop=${URBAN}`],
    ['another brand', `?brandShop=${NORTHWIND}`],
    ['a store that does not exist', `?brandShop=${NOBODY}`],
  ])('answers an empty list for %s', async (_name, query) => {
    const response = await getUnique(query)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ uniqueCommissionRates: [] })
  })

  it('sorts by brand, then creator', async () => {
    await createUnique(NORTHWIND, URBAN, 5)
    await createUnique(LUMEN, URBAN, 6)
    await createUnique(NORTHWIND, MAYA, 7)
    const response = await getUnique()
    expect(response.json()).toEqual({
      uniqueCommissionRates: [
        LUMEN_MAYA,
        { brandStoreShop: LUMEN, creatorStoreShop: URBAN, commissionRate: 6 },
        { brandStoreShop: NORTHWIND, creatorStoreShop: MAYA, commissionRate: 7 },
        { brandStoreShop: NORTHWIND, creatorStoreShop: URBAN, commissionRate: 5 },
      ],
    })
  })
})

describe('POST /admin-create-unique-commission-rate', () => {
  it('creates a rate and answers it with 200', async () => {
    const response = await createUnique(' Northwind-Apparel.myshopify.com', URBAN, 12.5)
    expect(response.statusCode).toBe(200)
    const created = { brandStoreShop: NORTHWIND, creatorStoreShop: URBAN, commissionRate: 12.5 }
    expect(response.json()).toEqual({ uniqueCommissionRate: created, replacedCommissionRate: null })
    expect((await getUnique(`?brandShop=${NORTHWIND}`)).json()).toEqual({
      uniqueCommissionRates: [created],
    })
  })

  it("replaces the pair's rate instead of adding a second, and says which rate it replaced", async () => {
    const response = await createUnique(LUMEN, MAYA, 22.75)
    expect(response.statusCode).toBe(200)
    const replaced = { ...LUMEN_MAYA, commissionRate: 22.75 }
    expect(response.json()).toEqual({ uniqueCommissionRate: replaced, replacedCommissionRate: 20 })
    expect((await getUnique()).json()).toEqual({ uniqueCommissionRates: [replaced] })
  })

  it.each([
    ['brand', NOBODY, MAYA],
    ['creator', LUMEN, NOBODY],
  ])('answers 404 when the %s store is unknown', async (_which, brand, creator) => {
    const response = await createUnique(brand, creator, 10)
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual(notFound(NOBODY))
  })

  it.each([
    [
      'the brand is a creator store',
      URBAN,
      MAYA,
      `brandStoreShop ${URBAN} is a creator store, not a brand store`,
    ],
    [
      'the creator is a brand store',
      LUMEN,
      NORTHWIND,
      `creatorStoreShop ${NORTHWIND} is a brand store, not a creator store`,
    ],
    [
      'the pair is the wrong way round',
      MAYA,
      LUMEN,
      `brandStoreShop ${MAYA} is a creator store, not a brand store`,
    ],
  ])('answers 422 when %s', async (_name, brand, creator, message) => {
    const response = await createUnique(brand, creator, 10)
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual(businessRule(message))
  })

  it("refuses a rate that with the brand's tandem rate exceeds 100", async () => {
    const response = await createUnique(NORTHWIND, MAYA, 90.01)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual(
      rule(
        "The unique commission rate plus the brand's tandem commission rate (10) must not exceed 100",
      ),
    )
    expect((await getUnique(`?brandShop=${NORTHWIND}`)).json()).toEqual({
      uniqueCommissionRates: [],
    })
    expect((await createUnique(NORTHWIND, MAYA, 90)).statusCode).toBe(200)
  })

  it('lets a brand without a default take any rate up to 100, checked later by the default', async () => {
    const response = await createUnique(IRONPEAK, URBAN, 100)
    expect(response.statusCode).toBe(200)
    const refused = await setDefault(IRONPEAK, 0.01, 0)
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual(
      rule(
        "The tandem commission rate plus the brand's highest unique commission rate (100) must not exceed 100",
      ),
    )
    expect((await setDefault(IRONPEAK, 0, 10)).statusCode).toBe(200)
  })

  it('keeps the rule when a default and a unique rate are written at the same time', async () => {
    // Each passes its own check against the other's old value; one must wait for the other.
    const [unique, defaults] = await Promise.all([
      createUnique(NORTHWIND, URBAN, 85),
      setDefault(NORTHWIND, 20, 10),
    ])
    const outcomes = [unique.statusCode === 200, defaults.statusCode === 200]
    expect(outcomes.filter(Boolean)).toHaveLength(1)
    expect(outcomes[0] ? defaults.statusCode : unique.statusCode).toBe(400)
    const tandem = (await getDefault(NORTHWIND)).json().tandemCommissionRate as number
    const rates = (await getUnique(`?brandShop=${NORTHWIND}`)).json().uniqueCommissionRates
    for (const rate of rates as { commissionRate: number }[]) {
      expect(rate.commissionRate + tandem).toBeLessThanOrEqual(100)
    }
  })
})

describe('DELETE /admin-delete-unique-commission-rate', () => {
  const del = (brand: string, creator: string) =>
    call('DELETE', `/admin-delete-unique-commission-rate?brandShop=${brand}&creatorShop=${creator}`)

  it('deletes the rate and answers it, then 404s', async () => {
    const response = await del(LUMEN, 'MAYA-makes.myshopify.com')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ uniqueCommissionRate: LUMEN_MAYA })
    expect((await getUnique()).json()).toEqual({ uniqueCommissionRates: [] })

    const again = await del(LUMEN, MAYA)
    expect(again.statusCode).toBe(404)
    expect(again.json()).toEqual({
      error: 'not_found',
      message: `No unique commission rate for ${LUMEN} and ${MAYA}`,
    })
  })

  it('answers 404 for a pair without a rate', async () => {
    const response = await del(NORTHWIND, URBAN)
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: 'not_found',
      message: `No unique commission rate for ${NORTHWIND} and ${URBAN}`,
    })
  })
})
