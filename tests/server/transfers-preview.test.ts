import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  LUMEN,
  NO_COMMISSION_1002,
  NORTHWIND,
  order1001Preview,
  splitParts,
} from '../support/sandbox-figures'
import { PUBLIC_URL, startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// GET /admin-preview-order-transfer against the sandbox marketplace of docs/product-rules.md,
// figure for figure.

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

const money = (amount: string, currencyCode = 'USD') => ({
  presentmentMoney: { amount, currencyCode },
})

describe('GET /admin-preview-order-transfer', () => {
  it('answers order 1001 with the sandbox’s figures and every line item', async () => {
    const response = await preview('1001')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(order1001Preview(PUBLIC_URL))
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
          ...splitParts('22.20', '3.33', '2.22'),
          // Its charge settled in the order's own currency.
          settlement: {
            currency: 'USD',
            exchangeRate: '1',
            ...splitParts('22.20', '3.33', '2.22'),
          },
        },
        {
          brandStoreShop: NORTHWIND,
          brandOrderId: null,
          ...splitParts('13.50', '2.70', '1.80'),
          settlement: {
            currency: 'USD',
            exchangeRate: '1',
            ...splitParts('13.50', '2.70', '1.80'),
          },
        },
      ],
      totals: {
        totalBrandAmount: '35.70',
        totalCreatorCommissionAmount: '6.03',
        totalTandemCommissionAmount: '4.02',
      },
      settledTotals: { currency: 'USD', totalBrandAmount: '35.70' },
      // Nothing has moved before processing.
      moneyTrail: [],
      refundWaiting: null,
    })
  })

  it('works in the presentment currency of 1005 (EUR), and says what moves in its charge’s (USD)', async () => {
    const response = await preview('1005')
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.creatorOrder.lineItems.nodes[0].originalUnitPriceSet).toEqual(money('62.00', 'EUR'))
    // Subtotal, shipping and tax add up to the total.
    expect(body.creatorOrder.currentSubtotalPriceSet).toEqual(money('62.00', 'EUR'))
    expect(body.creatorOrder.currentShippingPriceSet).toEqual(money('7.00', 'EUR'))
    expect(body.creatorOrder.currentTotalTaxSet).toEqual(money('11.78', 'EUR'))
    expect(body.creatorOrder.currentTotalPriceSet).toEqual(money('80.78', 'EUR'))
    expect(body.preview).toEqual({
      currency: 'EUR',
      status: 'NOT_STARTED',
      processedAt: null,
      brands: [
        {
          brandStoreShop: NORTHWIND,
          brandOrderId: null,
          ...splitParts('46.50', '9.30', '6.20'),
          // What its Stripe transfer will move: the charge settled in USD at 1.16.
          settlement: {
            currency: 'USD',
            exchangeRate: '1.16',
            ...splitParts('53.94', '10.79', '7.19'),
          },
        },
      ],
      totals: {
        totalBrandAmount: '46.50',
        totalCreatorCommissionAmount: '9.30',
        totalTandemCommissionAmount: '6.20',
      },
      settledTotals: { currency: 'USD', totalBrandAmount: '53.94' },
      moneyTrail: [],
      refundWaiting: null,
    })
  })

  it('answers 422 "Commission not found" for a brand without a default commission (1002)', async () => {
    const response = await preview('1002')
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({ error: 'business_rule', message: NO_COMMISSION_1002 })
  })

  it('answers 422 "No brand orders found" when no line comes from a brand (1003)', async () => {
    const response = await preview('1003')
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({ error: 'business_rule', message: 'No brand orders found' })
  })

  it('answers 422 "Store not found" naming a brand of a line that is not a known store', async () => {
    // The sandbox still has the brand's products; the marketplace no longer knows the store.
    await server.db
      .deleteFrom('stores')
      .where('shop', '=', 'ironpeak-outdoor.myshopify.com')
      .execute()
    const response = await preview('1002')
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({
      error: 'business_rule',
      message:
        "Store not found: ironpeak outdoor is not a brand store of the marketplace: install Tandem's brand app in it, with its app config on the Configs page",
    })
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
