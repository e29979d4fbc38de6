import { afterEach, expect, it } from 'vitest'
import { calls } from '@shared/contract'
import { NORTHWIND } from '../support/sandbox-figures'
import {
  startServerUnderTest,
  syncProducts,
  type ServerUnderTest,
} from './support/server-under-test'

// Shopify's ProductStatus grows: UNLISTED came with Admin API 2025-10, and a status added later
// must not break a store's product list either (the console parses every answer with the contract).

let server: ServerUnderTest
afterEach(() => server.close())

it('syncs and lists a brand store’s UNLISTED product with its status', async () => {
  server = await startServerUnderTest()
  await server.shopify.setProductStatus(NORTHWIND, 'gid://shopify/Product/101', 'UNLISTED')
  const sync = await syncProducts(server, NORTHWIND)
  expect(sync.statusCode).toBe(200)
  expect(sync.json()).toMatchObject({ storeShop: NORTHWIND, productCount: 2 })

  const list = await server.app.inject({
    url: `/admin-store-products?storeShop=${NORTHWIND}`,
    headers: server.asAdmin,
  })
  expect(list.statusCode).toBe(200)
  // As the console's main process reads it: through the contract.
  expect(calls.adminStoreProducts.response.parse(list.json()).products).toEqual([
    {
      id: 'gid://shopify/Product/101',
      title: 'Linen Overshirt',
      status: 'UNLISTED',
      variantCount: 1,
      price: '68.00',
      currency: 'USD',
      imageUrl: expect.stringMatching(/\/images\/products\/linen-overshirt\.svg$/),
    },
    {
      id: 'gid://shopify/Product/102',
      title: 'Merino Crew Socks',
      status: 'ACTIVE',
      variantCount: 1,
      price: '18.00',
      currency: 'USD',
      imageUrl: expect.stringMatching(/\/images\/products\/merino-crew-socks\.svg$/),
    },
  ])
})
