import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { order1001Brands, ORDER_1001_TOTALS } from '../support/sandbox-figures'
import { PUBLIC_URL, startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// GET /admin-preview-order-transfer against PRODUCT.md's sandbox marketplace, figure for figure.

let server: ServerUnderTest

beforeAll(async () => {
  server = await startServerUnderTest()
})
afterAll(async () => {
  await server.close()
})

const preview = (creatorOrderId: string) =>
  server.app.inject({
    method: 'GET',
    url: `/admin-preview-order-transfer?creatorOrderId=${encodeURIComponent(creatorOrderId)}`,
    headers: server.asAdmin,
  })

const NORTHWIND = 'northwind-apparel.myshopify.com'
const LUMEN = 'lumen-botanicals.myshopify.com'
const MAYA = 'maya-makes.myshopify.com'

const money = (amount: string, currencyCode = 'USD') => ({
  presentmentMoney: { amount, currencyCode },
})
const image = (key: string) => ({ url: `${PUBLIC_URL}/images/products/${key}.svg` })

describe('GET /admin-preview-order-transfer', () => {
  it('answers order 1001 with PRODUCT.md figures and every line item', async () => {
    const response = await preview('1001')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      creatorOrder: {
        id: 'gid://shopify/Order/1001',
        name: '#1001',
        email: 'jane@example.com',
        createdAt: '2026-11-02T15:04:00.000Z',
        creatorStoreShop: MAYA,
        currentSubtotalPriceSet: money('175.50'),
        currentTotalTaxSet: money('14.04'),
        currentTotalPriceSet: money('197.54'),
        shippingAddress: {
          firstName: 'Jane',
          lastName: 'Doe',
          address1: '1 Main St',
          city: 'Portland',
          zip: '97201',
          country: 'US',
        },
        lineItems: {
          nodes: [
            {
              id: 'gid://shopify/LineItem/10011',
              title: 'Linen Overshirt',
              quantity: 2,
              image: image('linen-overshirt'),
              originalUnitPriceSet: money('68.00'),
              originalTotalSet: money('136.00'),
              brandStoreShop: NORTHWIND,
            },
            {
              id: 'gid://shopify/LineItem/10012',
              title: 'Rosehip Face Oil',
              quantity: 1,
              image: image('rosehip-face-oil'),
              originalUnitPriceSet: money('34.50'),
              originalTotalSet: money('34.50'),
              brandStoreShop: LUMEN,
            },
            {
              id: 'gid://shopify/LineItem/10013',
              title: 'Sticker Pack',
              quantity: 1,
              image: image('sticker-pack'),
              originalUnitPriceSet: money('5.00'),
              originalTotalSet: money('5.00'),
              brandStoreShop: null,
            },
          ],
        },
      },
      preview: {
        currency: 'USD',
        status: 'NOT_STARTED',
        processedAt: null,
        brands: order1001Brands(),
        totals: ORDER_1001_TOTALS,
      },
    })
  })

  it('names the same order by its GID', async () => {
    const [byNumber, byGid] = await Promise.all([
      preview('1001'),
      preview('gid://shopify/Order/1001'),
    ])
    expect(byGid.statusCode).toBe(200)
    expect(byGid.json()).toEqual(byNumber.json())
  })

  it('lists the brands of 1004 in the order of their first line', async () => {
    const response = await preview('1004')
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.creatorOrder.currentTotalPriceSet).toEqual(money('54.41'))
    expect(body.preview).toEqual({
      currency: 'USD',
      status: 'NOT_STARTED',
      processedAt: null,
      brands: [
        {
          brandStoreShop: LUMEN,
          brandOrderId: null,
          brandAmount: '22.20',
          creatorCommissionAmount: '3.33',
          tandemCommissionAmount: '2.22',
        },
        {
          brandStoreShop: NORTHWIND,
          brandOrderId: null,
          brandAmount: '13.50',
          creatorCommissionAmount: '2.70',
          tandemCommissionAmount: '1.80',
        },
      ],
      totals: {
        totalBrandAmount: '35.70',
        totalCreatorCommissionAmount: '6.03',
        totalTandemCommissionAmount: '4.02',
      },
    })
  })

  it('works in the presentment currency of 1005 (EUR)', async () => {
    const response = await preview('1005')
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.creatorOrder.lineItems.nodes[0].originalUnitPriceSet).toEqual(money('62.00', 'EUR'))
    expect(body.creatorOrder.currentTotalPriceSet).toEqual(money('80.78', 'EUR'))
    expect(body.preview).toEqual({
      currency: 'EUR',
      status: 'NOT_STARTED',
      processedAt: null,
      brands: [
        {
          brandStoreShop: NORTHWIND,
          brandOrderId: null,
          brandAmount: '46.50',
          creatorCommissionAmount: '9.30',
          tandemCommissionAmount: '6.20',
        },
      ],
      totals: {
        totalBrandAmount: '46.50',
        totalCreatorCommissionAmount: '9.30',
        totalTandemCommissionAmount: '6.20',
      },
    })
  })

  it('answers 422 "Commission not found" for a brand without a default commission (1002)', async () => {
    const response = await preview('1002')
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({ error: 'business_rule', message: 'Commission not found' })
  })

  it('answers 422 "No brand orders found" when no line comes from a brand (1003)', async () => {
    const response = await preview('1003')
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({ error: 'business_rule', message: 'No brand orders found' })
  })

  it('answers 422 "Store not found" when a brand of a line is not a known store', async () => {
    // The sandbox still has the brand's products; the marketplace no longer knows the store.
    await server.db
      .deleteFrom('stores')
      .where('shop', '=', 'ironpeak-outdoor.myshopify.com')
      .execute()
    const response = await preview('1002')
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({ error: 'business_rule', message: 'Store not found' })
  })

  it('answers 404 for an unknown order, in either form', async () => {
    for (const id of ['9999', 'gid://shopify/Order/9999', '99999999999999999999']) {
      const response = await preview(id)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: 'not_found', message: 'Creator order not found' })
    }
  })

  it('answers 400 for a missing or malformed id', async () => {
    for (const url of [
      '/admin-preview-order-transfer',
      '/admin-preview-order-transfer?creatorOrderId=',
      '/admin-preview-order-transfer?creatorOrderId=%231001',
    ]) {
      const response = await server.app.inject({ method: 'GET', url, headers: server.asAdmin })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toBe('invalid_input')
    }
  })

  it('needs an administrator', async () => {
    const anonymous = await server.app.inject({
      method: 'GET',
      url: '/admin-preview-order-transfer?creatorOrderId=1001',
    })
    expect(anonymous.statusCode).toBe(401)
    const shopper = await server.app.inject({
      method: 'GET',
      url: '/admin-preview-order-transfer?creatorOrderId=1001',
      headers: { authorization: `Bearer ${server.tokens.notAdmin}` },
    })
    expect(shopper.statusCode).toBe(403)
  })
})
