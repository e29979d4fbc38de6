import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import {
  startServerUnderTest,
  syncProducts,
  type ServerUnderTest,
} from './support/server-under-test'

// A store's synced products (GET /admin-store-products): what the Products screen lists, by title,
// a page at a time, for the store it names and no other.

let server: ServerUnderTest
beforeAll(async () => {
  server = await startServerUnderTest()
})
afterAll(() => server.close())

const get = (query: string, headers: Record<string, string> = server.asAdmin) =>
  server.app.inject({ url: `/admin-store-products${query}`, headers })
const titles = (answer: { products: { title: string }[] }) =>
  answer.products.map((product) => product.title)

describe('GET /admin-store-products', () => {
  it('lists nothing for a store never synced', async () => {
    const response = await get('?storeShop=ironpeak-outdoor.myshopify.com')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ products: [], nextCursor: null })
  })

  it("pages one store's products by title, none of another store's", async () => {
    expect((await syncProducts(server, NORTHWIND)).statusCode).toBe(200)
    expect((await syncProducts(server, LUMEN)).statusCode).toBe(200)

    const first = (await get(`?storeShop=${NORTHWIND}&limit=1`)).json()
    expect(titles(first)).toEqual(['Linen Overshirt'])
    expect(first.nextCursor).toEqual(expect.any(String))

    const second = (await get(`?storeShop=${NORTHWIND}&limit=1&cursor=${first.nextCursor}`)).json()
    expect(titles(second)).toEqual(['Merino Crew Socks'])
    expect(second.nextCursor).toBeNull()

    expect(titles((await get(`?storeShop=${LUMEN}`)).json())).toEqual([
      'Cedar Soap Bar',
      'Rosehip Face Oil',
    ])
  })

  it("answers each product's featured image as Shopify's product listing shows it", async () => {
    expect((await syncProducts(server, NORTHWIND)).statusCode).toBe(200)
    const { products } = (await get(`?storeShop=${NORTHWIND}`)).json()
    const images = products.map((product: { imageUrl: string | null }) => product.imageUrl)
    expect(images).toEqual([
      expect.stringMatching(/\/images\/products\/[a-z0-9-]+\.svg$/),
      expect.stringMatching(/\/images\/products\/[a-z0-9-]+\.svg$/),
    ])
    expect(new Set(images).size).toBe(2)
  })

  it.each([
    ['?storeShop=nobody.myshopify.com', 404, 'Store not found: nobody.myshopify.com'],
    [
      `?storeShop=${NORTHWIND}&cursor=bogus`,
      400,
      'cursor must be one a previous page answered as nextCursor',
    ],
    [`?storeShop=${NORTHWIND}&limit=501`, 400, 'limit must be at most 500'],
    ['', 400, expect.stringContaining('storeShop')],
  ])('answers %s with %i and what to fix', async (query, status, message) => {
    const response = await get(query)
    expect({ status: response.statusCode, message: response.json().message }).toEqual({
      status,
      message,
    })
  })

  it('answers 401 without a sign-in', async () => {
    expect((await get(`?storeShop=${NORTHWIND}`, {})).statusCode).toBe(401)
  })
})
