import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pdfText } from '../support/pdf-text'
import { NO_COMMISSION_1002 } from '../support/sandbox-figures'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// GET /admin-preview-order-transfer-receipt-pdf: the preview's figures as PDF bytes.

let server: ServerUnderTest

beforeAll(async () => {
  server = await startServerUnderTest()
})
afterAll(async () => {
  await server.close()
})

const receipt = (creatorOrderId: string) =>
  server.app.inject({
    method: 'GET',
    url: `/admin-preview-order-transfer-receipt-pdf?creatorOrderId=${encodeURIComponent(creatorOrderId)}`,
    headers: server.asAdmin,
  })

describe('GET /admin-preview-order-transfer-receipt-pdf', () => {
  it('answers a preview receipt of 1001 as a PDF', async () => {
    const response = await receipt('gid://shopify/Order/1001')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/pdf')
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const text = await pdfText(response.rawPayload)
    for (const part of [
      'Tandem',
      'Order transfer receipt',
      'Preview',
      '#1001',
      'maya-makes.myshopify.com',
      'Jane Doe',
      'northwind-apparel.myshopify.com pending USD 102.00 USD 20.40 USD 13.60',
      'lumen-botanicals.myshopify.com pending USD 24.84 USD 6.90 USD 2.76',
      'USD 126.84 USD 27.30 USD 16.36',
    ]) {
      expect(text).toContain(part)
    }
  })

  it('answers the preview errors', async () => {
    const cases = [
      ['1002', 422, NO_COMMISSION_1002],
      ['1003', 422, 'No brand orders found'],
      ['9999', 404, 'Creator order not found'],
    ] as const
    for (const [id, status, message] of cases) {
      const response = await receipt(id)
      expect(response.statusCode).toBe(status)
      expect(response.json().message).toBe(message)
    }
  })

  it('shows the brand orders once the transfer is processed', async () => {
    const processed = await server.app.inject({
      method: 'POST',
      url: '/admin-create-order-transfer',
      headers: server.asAdmin,
      payload: { creatorOrderId: '1001' },
    })
    expect(processed.statusCode).toBe(201)
    const response = await receipt('1001')
    expect(response.statusCode).toBe(200)
    const text = await pdfText(response.rawPayload)
    expect(text).toContain('Processed on')
    // Brands are processed in parallel: which got which order id is not fixed.
    const orderNumberOf = (shop: string) =>
      processed
        .json<{ brandOrders: { brandStoreShop: string; brandOrderId: string }[] }>()
        .brandOrders.find((order) => order.brandStoreShop === shop)!
        .brandOrderId.split('/')
        .pop()
    expect(text).toContain(
      `northwind-apparel.myshopify.com ${orderNumberOf('northwind-apparel.myshopify.com')} USD 102.00`,
    )
    expect(text).toContain(
      `lumen-botanicals.myshopify.com ${orderNumberOf('lumen-botanicals.myshopify.com')} USD 24.84`,
    )
    expect(text).not.toContain('pending')
  })
})
