import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import {
  CommerceError,
  type BrandOrderInput,
  type ChangedOrder,
  type CommercePort,
  type CommerceProduct,
} from '../../server/src/adapters/commerce/commerce-port'
import { connectShopify } from '../../server/src/adapters/commerce/shopify/shopify'
import type { ShopifyApi } from '../../server/src/adapters/commerce/shopify/shopify-api'
import { createShopifyCommerce } from '../../server/src/adapters/commerce/shopify/shopify-commerce'
import { insertAppConfig } from '../../server/src/repositories/app-configs'
import { creatorOrderIndex } from '../../server/src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../../server/src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../../server/src/repositories/shop-connections'
import { sandboxApp } from '../../server/src/seed/sandbox-data'
import { PUBLIC_URL, startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// The Shopify adapter, the code a marketplace runs, against the Shopify emulator: every operation
// of the commerce port, Shopify's rate limits, lost answers and access tokens.

const OVERSHIRT = 'gid://shopify/ProductVariant/201'
const SOCKS = 'gid://shopify/ProductVariant/202'
const MAYA = 'maya-makes.myshopify.com'

let server: ServerUnderTest
let clock: Date
/** Every wait the adapter asked for, in milliseconds, and how long it really took. */
let waits: { asked: number; took: number }[]
let shopify: CommercePort

/** A fresh adapter (no token held yet) over the server's database and emulator. */
function adapter() {
  return connectShopify({
    connectionStore: shopConnectionStore(server.db, server.secrets),
    creatorOrders: creatorOrderIndex(server.db),
    keyAttempts: shopifyKeyAttempts(server.db),
    endpoint: server.shopify.url,
    publicUrl: PUBLIC_URL,
    now: () => clock,
    log: () => {},
    api: {
      wait: async (ms) => {
        const started = performance.now()
        await new Promise((resolve) => setTimeout(resolve, ms))
        waits.push({ asked: ms, took: performance.now() - started })
      },
    },
  })
}

beforeEach(async () => {
  server = await startServerUnderTest()
  clock = new Date()
  waits = []
  shopify = adapter().commerce
})
afterEach(async () => {
  await server.close()
})

const brandOrder = (lines: BrandOrderInput['lines']): BrandOrderInput => ({
  lines,
  currency: 'USD',
  email: 'jane@example.com',
  shippingAddress: null,
  tags: ['tandem'],
  note: 'a note',
  inventoryBehaviour: 'DECREMENT_OBEYING_POLICY',
})

const stock = (variantId: string) => server.shopify.stockOf(variantId)

/** Every product the adapter reads of `shop`, and the progress it reported on the way. */
async function readAll(shop: string, total: number) {
  const products: CommerceProduct[] = []
  const progress: number[] = []
  await shopify.readProducts(shop, {
    total,
    onProgress: async (fetched) => void progress.push(fetched),
    take: async (batch) => void products.push(...batch),
  })
  return { products, progress }
}

describe('the commerce port on Shopify', () => {
  it('counts the products of a store, exactly beyond 10,000', async () => {
    expect(await shopify.countProducts(NORTHWIND)).toBe(2)
    expect(await shopify.countProducts(MAYA)).toBe(6)
    server.shopify.addProducts(MAYA, 10_000)
    expect(await shopify.countProducts(MAYA)).toBe(10_006)
  })

  it('reads a small store’s products page by page, with prices in minor units', async () => {
    server.shopify.addProducts(NORTHWIND, 498)
    // A fast-restoring bucket: the pages' waits are not what this test is about.
    server.shopify.setThrottle(NORTHWIND, { maximumAvailable: 2000, restoreRate: 10_000 })
    const { products, progress } = await readAll(NORTHWIND, 500)
    expect(products).toHaveLength(500)
    expect(new Set(products.map((product) => product.id)).size).toBe(500)
    expect(products[0]).toEqual({
      id: 'gid://shopify/Product/101',
      title: 'Linen Overshirt',
      status: 'ACTIVE',
      variantCount: 1,
      minPriceMinor: 6800,
      currency: 'USD',
      imageUrl: expect.stringMatching(/\/images\/products\/[a-z0-9-]+\.svg$/),
      // The sandbox's seed time, which a late products/update of an older version is held to.
      updatedAt: '2026-11-01T00:00:00.000Z',
    })
    // Pages of 142 (the most within Shopify's 1,000-point query limit): four of them.
    expect(progress).toEqual([142, 284, 426, 500])
    expect(server.shopify.calls(NORTHWIND, 'bulkOperationRunQuery')).toBe(0)
  })

  it('reads a large store in bulk, one file, whatever the rate limit', async () => {
    server.shopify.addProducts(MAYA, 10_000)
    server.shopify.setThrottle(MAYA, { maximumAvailable: 100, restoreRate: 10 })
    const { products, progress } = await readAll(MAYA, 10_006)
    expect(products).toHaveLength(10_006)
    expect(new Set(products.map((product) => product.id)).size).toBe(10_006)
    expect(progress.at(-1)).toBe(10_006)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(server.shopify.calls(MAYA, 'bulkOperationRunQuery')).toBe(1)
    expect(server.shopify.calls(MAYA, 'products')).toBe(0)
  })

  it('finds a creator order with the brand of each line, and indexes its shop', async () => {
    // As if no webhook or catch-up had told the server of any order yet.
    await server.db.deleteFrom('creator_order_index').execute()
    const order = await shopify.findCreatorOrder(1004)
    expect(order).toMatchObject({
      id: 1004,
      name: '#1004',
      storeShop: 'urban-trail-edits.myshopify.com',
      financialStatus: 'PAID',
      cancelledAt: null,
      currency: 'USD',
      subtotalMinor: 4575,
      taxMinor: 366,
      shippingMinor: 500,
      totalMinor: 5441,
      shippingAddress: { firstName: 'Kai', lastName: 'Chen', city: 'Seattle', country: 'US' },
      lines: [
        {
          title: 'Cedar Soap Bar',
          quantity: 3,
          currentQuantity: 3,
          unitPriceMinor: 925,
          originalTotalMinor: 2775,
          discountMinor: 0,
          // Urban Trail's copies; which brand variants they stand for is Tandem's record.
          variantId: 'gid://shopify/ProductVariant/604',
        },
        { title: 'Merino Crew Socks', variantId: 'gid://shopify/ProductVariant/602' },
      ],
    })
    const index = await server.db.selectFrom('creator_order_index').selectAll().execute()
    expect(index).toEqual([
      {
        order_id: 1004,
        store_shop: 'urban-trail-edits.myshopify.com',
        name: '#1004',
        created_at: '2026-11-05T11:45:00.000Z',
        currency: 'USD',
        total_minor: 5441,
      },
    ])
    // Known now: only its shop is asked.
    const asked = () => server.shopify.calls(MAYA, 'order')
    const before = asked()
    await adapter().commerce.findCreatorOrder(1004)
    expect(asked()).toBe(before)
    expect(await shopify.findCreatorOrder(9999)).toBeNull()
  })

  it('reads what is still sold of a creator order, its state and every discount of each line', async () => {
    const id = await server.shopify.createPaidOrder(MAYA, {
      lines: [
        { variantId: 'gid://shopify/ProductVariant/401', quantity: 2 },
        { variantId: 'gid://shopify/ProductVariant/403', quantity: 1 },
      ],
      discount: { code: 'SPRING10', amountMinor: 1000 },
    })
    await server.shopify.refund(MAYA, id, [{ line: 0, quantity: 1 }])
    const number = Number(id.split('/').pop())
    expect(await shopify.findCreatorOrder(number)).toMatchObject({
      financialStatus: 'PARTIALLY_REFUNDED',
      cancelledAt: null,
      // 136.00 + 34.50 less the code's 10.00.
      subtotalMinor: 16050,
      lines: [
        // The code's 10.00 split by line totals: 7.97 and 2.02, the cent left over to the first.
        { quantity: 2, currentQuantity: 1, unitPriceMinor: 6800, discountMinor: 798 },
        { quantity: 1, currentQuantity: 1, unitPriceMinor: 3450, discountMinor: 202 },
      ],
    })
    await server.shopify.cancel(MAYA, id)
    const cancelled = await shopify.findCreatorOrder(number)
    expect(cancelled?.cancelledAt).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  it('asks every creator shop for an order nobody indexed, at most 8 at once', async () => {
    const creators = Array.from({ length: 14 }, (_, i) => `creator-${i + 1}.myshopify.com`)
    for (const shop of creators) {
      server.shopify.addShop(shop)
      await server.db
        .insertInto('stores')
        .values({
          shop,
          shop_type: 'CREATOR',
          product_count: 0,
          products_synced_at: null,
          created_at: clock.toISOString(),
        })
        .execute()
      await insertAppConfig(
        server.db,
        server.secrets,
        { shop, ...sandboxApp(shop), shopType: 'CREATOR' },
        clock.toISOString(),
      )
    }
    // Each answer takes a while, so that the asks overlap as far as they are let.
    server.shopify.script({ operation: 'order', mode: 'delay', delayMs: 50, times: 100 })
    const { api } = adapter()
    let asking = 0
    let mostAtOnce = 0
    const counted: ShopifyApi = {
      async request(shop, document, variables) {
        mostAtOnce = Math.max(mostAtOnce, ++asking)
        try {
          return await api.request(shop, document, variables)
        } finally {
          asking--
        }
      },
    }
    const commerce = createShopifyCommerce({
      index: creatorOrderIndex(server.db),
      api: counted,
      keyAttempts: shopifyKeyAttempts(server.db),
    })
    expect(await commerce.findCreatorOrder(424_242)).toBeNull()
    expect(mostAtOnce).toBe(8)
    for (const shop of [MAYA, 'urban-trail-edits.myshopify.com', ...creators]) {
      expect(server.shopify.calls(shop, 'order')).toBe(1)
    }
  })

  it('reads every page of a long order’s lines', async () => {
    const variants = server.shopify.addProducts(MAYA, 120)
    const id = await server.shopify.createPaidOrder(MAYA, {
      lines: variants.map((variantId) => ({ variantId, quantity: 1 })),
    })
    const order = await shopify.findCreatorOrder(Number(id.split('/').pop()))
    expect(order?.lines).toHaveLength(120)
    expect(new Set(order?.lines.map((line) => line.id)).size).toBe(120)
  })

  it('reads a long order again from its first page when it is refunded between two pages', async () => {
    const variants = server.shopify.addProducts(MAYA, 120)
    const id = await server.shopify.createPaidOrder(MAYA, {
      lines: variants.map((variantId) => ({ variantId, quantity: 1 })),
    })
    // The merchant refunds the first line once its page was read, before the next page is.
    const { api } = adapter()
    let refundAfterPage = true
    const refundingMeanwhile: ShopifyApi = {
      async request<T>(shop: string, document: string, variables?: Record<string, unknown>) {
        const answer = await api.request<T>(shop, document, variables)
        if (refundAfterPage) {
          refundAfterPage = false
          await server.shopify.refund(MAYA, id, [{ line: 0, quantity: 1 }])
        }
        return answer
      },
    }
    const commerce = createShopifyCommerce({
      index: creatorOrderIndex(server.db),
      api: refundingMeanwhile,
      keyAttempts: shopifyKeyAttempts(server.db),
    })
    const order = await commerce.findCreatorOrder(Number(id.split('/').pop()))
    // The lines and the refunds' money as of one moment: the refunded line no longer sold.
    const [refund] = server.shopify.refunds(MAYA, id)
    expect(order?.refundedMinor).toBe(Math.round(Number(refund!.amount) * 100))
    expect(order?.refundedMinor).toBeGreaterThan(0)
    expect(order?.lines[0]?.currentQuantity).toBe(0)
    expect(order?.lines.slice(1).every((line) => line.currentQuantity === 1)).toBe(true)
    expect(order?.lines).toHaveLength(120)
  })

  it('confirms an order in its own shop by its header alone, one query however long it is', async () => {
    const variants = server.shopify.addProducts(MAYA, 120)
    const id = await server.shopify.createPaidOrder(MAYA, {
      lines: variants.map((variantId) => ({ variantId, quantity: 1 })),
    })
    const number = Number(id.split('/').pop())
    const asked = server.shopify.calls(MAYA, 'order')
    const header = await shopify.findOrderInShop(MAYA, number)
    expect(server.shopify.calls(MAYA, 'order')).toBe(asked + 1)
    const listed = await shopify.findCreatorOrder(number)
    expect(header).toEqual({
      id: number,
      storeShop: MAYA,
      name: listed?.name,
      createdAt: listed?.createdAt,
      currency: listed?.currency,
      totalMinor: listed?.totalMinor,
    })
    expect(await shopify.findOrderInShop('urban-trail-edits.myshopify.com', number)).toBeNull()
  })

  it('creates orders with new ids, brand prices and decremented stock, and marks them paid', async () => {
    const first = await shopify.createOrder(
      NORTHWIND,
      brandOrder([
        { variantId: OVERSHIRT, quantity: 2 },
        { variantId: SOCKS, quantity: 1 },
      ]),
    )
    const second = await shopify.createOrder(
      NORTHWIND,
      brandOrder([{ variantId: SOCKS, quantity: 1 }]),
    )
    expect(first).toEqual({ id: 'gid://shopify/Order/1006', name: '#1006' })
    expect(second).toEqual({ id: 'gid://shopify/Order/1007', name: '#1007' })
    expect([stock(OVERSHIRT), stock(SOCKS)]).toEqual([98, 98])
    expect(server.shopify.orders(NORTHWIND)[0]).toMatchObject({
      id: first.id,
      tags: ['tandem'],
      note: 'a note',
      email: 'jane@example.com',
      displayFinancialStatus: 'PENDING',
      lines: [
        { variantId: OVERSHIRT, quantity: 2, title: 'Linen Overshirt' },
        { variantId: SOCKS, quantity: 1, title: 'Merino Crew Socks' },
      ],
    })
    expect(await shopify.orderFinancialStatus(NORTHWIND, first.id)).toBe('PENDING')
    await shopify.markOrderAsPaid(NORTHWIND, first.id)
    expect(await shopify.orderFinancialStatus(NORTHWIND, first.id)).toBe('PAID')
    await expect(shopify.markOrderAsPaid(NORTHWIND, first.id)).rejects.toThrow(
      new CommerceError(
        `Shopify refused to mark ${first.id} as paid: Order cannot be marked as paid.`,
      ),
    )
  })

  it('refuses what Shopify refuses and takes no stock', async () => {
    await expect(
      shopify.createOrder(NORTHWIND, brandOrder([{ variantId: SOCKS, quantity: 101 }])),
    ).rejects.toThrow(
      new CommerceError(
        `Shopify refused the order in ${NORTHWIND}: Merino Crew Socks is out of stock`,
      ),
    )
    // Another store's variant is not the brand's to sell.
    await expect(
      shopify.createOrder(
        NORTHWIND,
        brandOrder([{ variantId: 'gid://shopify/ProductVariant/203', quantity: 1 }]),
      ),
    ).rejects.toBeInstanceOf(CommerceError)
    expect(stock(SOCKS)).toBe(100)
    expect(server.shopify.orders(NORTHWIND)).toEqual([])
  })

  it('reads the orders changed since a moment, oldest change first, 100 a page, as long as told', async () => {
    const since = new Date().toISOString()
    await new Promise((resolve) => setTimeout(resolve, 5))
    const made: string[] = []
    for (let n = 0; n < 101; n++) {
      made.push(
        await server.shopify.createCustomerOrder(NORTHWIND, {
          lines: [{ variantId: SOCKS, quantity: 1 }],
        }),
      )
    }
    const pages: ChangedOrder[][] = []
    const readPages = (take: (page: ChangedOrder[]) => boolean) =>
      shopify.readOrdersChangedSince(NORTHWIND, since, async (page) => {
        pages.push(page)
        return take(page)
      })
    await readPages(() => true)
    expect(pages.map((page) => page.length)).toEqual([100, 1])
    const changes = pages.flat()
    expect(changes.map((order) => `gid://shopify/Order/${order.id}`)).toEqual(made)
    expect(changes.every((order) => order.updatedAt > since && !order.refundedOrCancelled)).toBe(
      true,
    )
    // Told to stop after the first page, it reads no second.
    pages.length = 0
    await readPages(() => false)
    expect(pages.map((page) => page.length)).toEqual([100])

    // The first order cancelled since: read after those changed at the last moment read (>=).
    const last = changes.at(-1)!.updatedAt
    await new Promise((resolve) => setTimeout(resolve, 5))
    await server.shopify.cancel(NORTHWIND, made[0]!)
    pages.length = 0
    await shopify.readOrdersChangedSince(NORTHWIND, last, async (page) => {
      pages.push(page)
      return true
    })
    const afterLast = pages.flat()
    expect(afterLast.at(-1)).toMatchObject({ id: changes[0]!.id, refundedOrCancelled: true })
    expect(afterLast.slice(0, -1).map((order) => order.updatedAt)).toEqual(
      changes.filter((order) => order.updatedAt === last).map(() => last),
    )
  })

  it('finds an order by a whole tag of its shop only', async () => {
    const since = new Date().toISOString()
    const created = await shopify.createOrder(NORTHWIND, {
      ...brandOrder([{ variantId: SOCKS, quantity: 1 }]),
      tags: ['tandem', 'tandem-transfer-10011'],
    })
    expect(await shopify.findOrderByTag(NORTHWIND, 'tandem-transfer-10011', since)).toEqual(created)
    expect(await shopify.findOrderByTag(NORTHWIND, 'tandem-transfer-1001', since)).toBeNull()
    expect(await shopify.findOrderByTag(LUMEN, 'tandem-transfer-10011', since)).toBeNull()
  })
})

describe('after the sale', () => {
  it('reads every refund of an order, and refuses a list of refunds Shopify may have cut short', async () => {
    const id = await server.shopify.createCustomerOrder(MAYA, {
      lines: [{ variantId: 'gid://shopify/ProductVariant/401', quantity: 250 }],
    })
    const number = Number(id.slice(id.lastIndexOf('/') + 1))
    // 249 refunds of an overshirt each: every one is read, past the ten a first page held.
    for (let refund = 0; refund < 249; refund++) {
      await server.shopify.refund(MAYA, id, [{ line: 0, quantity: 1 }])
    }
    const refunds = await shopify.orderRefunds(MAYA, number)
    expect(refunds).toHaveLength(249)
    expect(refunds.flatMap((refund) => refund.lines.map((line) => line.quantity))).toEqual(
      Array(249).fill(1),
    )

    // The 250th: Order.refunds lists no more at once, so a 251st could not be seen.
    await server.shopify.refund(MAYA, id, [{ line: 0, quantity: 1 }])
    await expect(shopify.orderRefunds(MAYA, number)).rejects.toThrow(
      new CommerceError(
        `Order ${number} of ${MAYA} has 250 refunds or more, as many as Shopify lists at once, so Tandem cannot tell that it read them all: it gives nothing back for this order. Settle its refunds by hand`,
      ),
    )
  }, 60_000)

  it('reads what each refund gave back: its money, each line after discounts and in tax, its shipping', async () => {
    // Order 1001: two overshirts (136.00), a face oil (34.50), a sticker pack (5.00), tax 14.04,
    // shipping 8.00. The face oil is refunded, then the order cancelled with the rest refunded.
    const id = 'gid://shopify/Order/1001'
    await server.shopify.refund(MAYA, id, [{ line: 1, quantity: 1 }])
    await server.shopify.cancel(MAYA, id, { refund: true })
    const [overshirts, faceOil, stickers] = [1, 2, 3].map((n) => `gid://shopify/LineItem/1001${n}`)
    const line = (lineItemId: string, quantity: number, subtotalMinor: number, taxMinor = 0) => ({
      lineItemId,
      quantity,
      restocked: false,
      subtotalMinor,
      taxMinor,
    })
    expect(await shopify.orderRefunds(MAYA, 1001)).toEqual([
      { refundedMinor: 3450, shippingMinor: 0, lines: [line(faceOil!, 1, 3450)] },
      // The last units give back the order's tax (the emulator keeps it whole, on the first line).
      {
        refundedMinor: 16304,
        shippingMinor: 800,
        lines: [line(overshirts!, 2, 13600, 1404), line(stickers!, 1, 500)],
      },
    ])
  })

  it('reads every line of a refund of more lines than a page holds', async () => {
    const lines = Array.from({ length: 251 }, () => ({
      variantId: 'gid://shopify/ProductVariant/401',
      quantity: 1,
    }))
    const id = await server.shopify.createCustomerOrder(MAYA, { lines })
    await server.shopify.refund(
      MAYA,
      id,
      lines.map((_, line) => ({ line, quantity: 1 })),
    )
    const [refund] = await shopify.orderRefunds(MAYA, Number(id.slice(id.lastIndexOf('/') + 1)))
    expect(new Set(refund!.lines.map((line) => line.lineItemId)).size).toBe(251)
  })

  /** A Northwind order of two overshirts, and a refund of `quantity` of them under one key. */
  async function brandOrderOfTwo() {
    const order = await shopify.createOrder(
      NORTHWIND,
      brandOrder([{ variantId: OVERSHIRT, quantity: 2 }]),
    )
    const [line] = (await shopify.readBrandOrder(NORTHWIND, order.id))!.lines
    const units = (quantity: number) => ({
      lines: [{ lineItemId: line!.id, quantity, restock: false }],
      note: 'a refund',
      idempotencyKey: 'brand-refund:test',
    })
    return { order, units }
  }

  it('refunds a brand order under a new key once Shopify refused the first, and once only', async () => {
    const { order, units } = await brandOrderOfTwo()
    // Three units of two: refused, and its key with it, for good.
    await expect(shopify.refundBrandOrder(NORTHWIND, order.id, units(3))).rejects.toBeInstanceOf(
      CommerceError,
    )
    // One unit under the same key: made under the next attempt's key, and only once.
    await shopify.refundBrandOrder(NORTHWIND, order.id, units(1))
    await shopify.refundBrandOrder(NORTHWIND, order.id, units(1))
    expect(server.shopify.refunds(NORTHWIND, order.id).map((refund) => refund.lines)).toEqual([
      [expect.objectContaining({ quantity: 1 })],
    ])
    expect((await shopify.readBrandOrder(NORTHWIND, order.id))!.lines[0]!.currentQuantity).toBe(1)
  })

  it('refunds a brand order once the cause of its refusals is gone, however often Shopify refused it before (review of issue 46)', async () => {
    const { order, units } = await brandOrderOfTwo()
    // The refund job's runs (eight retries, then the catch-up every quarter hour) meet a refusal
    // ten times over a few hours: each leaves one more of the key's attempts refused for good.
    for (let run = 0; run < 10; run++) {
      await expect(shopify.refundBrandOrder(NORTHWIND, order.id, units(3))).rejects.toBeInstanceOf(
        CommerceError,
      )
    }
    // The cause gone, the next run's refund is made: today it is refused for ever, in words that
    // tell the administrator nothing ("A previous request with this idempotency key failed").
    await shopify.refundBrandOrder(NORTHWIND, order.id, units(1))
    expect(server.shopify.refunds(NORTHWIND, order.id).map((refund) => refund.lines)).toEqual([
      [expect.objectContaining({ quantity: 1 })],
    ])
  })
})

describe("a creator's stock", () => {
  // Shopify refuses for good a key whose call was refused (issue 46): the same write, its cause
  // undone, goes under the key's next attempt; a retry after an unknown outcome meets that attempt.
  it('is set under a new key once Shopify refused the first, and once only when sent again', async () => {
    const [variant] = server.shopify.product(MAYA, 'gid://shopify/Product/301')!.variants
    const { locationId } = await shopify.stockPlace(MAYA)
    const nine = [{ inventoryItemId: variant!.inventoryItemId, locationId, quantity: 9 }]
    await server.shopify.editVariant(MAYA, variant!.id, { bundle: true })
    await expect(shopify.setStock(MAYA, nine, 'stock:test')).rejects.toMatchObject({
      name: 'ProductRefused',
      refusals: [expect.objectContaining({ code: 'NON_MUTABLE_INVENTORY_ITEM' })],
    })

    await server.shopify.editVariant(MAYA, variant!.id, { bundle: false })
    await shopify.setStock(MAYA, nine, 'stock:test')
    expect(server.shopify.stockOf(variant!.id)).toBe(9)
    // Maya sells two; the same write again (a retry whose answer was lost, a crash before its
    // record) is answered by the attempt that made it, and sets nothing again.
    await server.shopify.setStock(MAYA, variant!.id, 7)
    await shopify.setStock(MAYA, nine, 'stock:test')
    expect(server.shopify.stockOf(variant!.id)).toBe(7)
  })
})

describe('finding an order by its tag while the search index lags', () => {
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()
  /** `count` orders of other customers in the brand's shop, made `minutes` ago. */
  const otherOrders = (count: number, minutes: number) =>
    Promise.all(
      Array.from({ length: count }, () =>
        server.shopify.createCustomerOrder(NORTHWIND, {
          lines: [{ variantId: SOCKS, quantity: 1 }],
          financialStatus: 'PENDING',
          createdAt: minutesAgo(minutes),
        }),
      ),
    )

  beforeEach(async () => {
    await server.close()
    server = await startServerUnderTest({ shopifyEmulator: { searchLagMs: 60_000 } })
    shopify = adapter().commerce
  })

  it('finds an order made a moment ago, which the search does not see yet, past a page of newer ones', async () => {
    const since = new Date().toISOString()
    const created = await shopify.createOrder(NORTHWIND, {
      ...brandOrder([{ variantId: SOCKS, quantity: 1 }]),
      tags: ['tandem', 'tandem-transfer-1001'],
    })
    await otherOrders(100, -1)
    expect(await shopify.findOrderByTag(NORTHWIND, 'tandem-transfer-1001', since)).toEqual(created)
    // Two pages of 100, newest first, with no search query.
    expect(server.shopify.calls(NORTHWIND, 'orders')).toBe(2)
  })

  it('reads back no further than the intent, less five minutes for the clocks', async () => {
    await server.shopify.createCustomerOrder(NORTHWIND, {
      lines: [{ variantId: SOCKS, quantity: 1 }],
      financialStatus: 'PENDING',
      createdAt: minutesAgo(20),
      tags: ['tandem', 'tandem-transfer-1001'],
    })
    await otherOrders(100, 10)
    expect(
      await shopify.findOrderByTag(NORTHWIND, 'tandem-transfer-1001', minutesAgo(0)),
    ).toBeNull()
    expect(server.shopify.calls(NORTHWIND, 'orders')).toBe(1)
    // An intent 16 minutes old reads back to 21 minutes: a second page, where the order is.
    expect(
      await shopify.findOrderByTag(NORTHWIND, 'tandem-transfer-1001', minutesAgo(16)),
    ).toMatchObject({ name: expect.stringMatching(/^#\d+$/) })
    expect(server.shopify.calls(NORTHWIND, 'orders')).toBe(3)
  })
})

describe('lost answers and server errors', () => {
  it('never resends a mutation whose answer was lost: the caller reconciles', async () => {
    server.shopify.script({ operation: 'orderCreate', mode: 'drop_after_write', shop: NORTHWIND })
    await expect(
      shopify.createOrder(NORTHWIND, brandOrder([{ variantId: SOCKS, quantity: 1 }])),
    ).rejects.toThrow(
      /Shopify did not answer OrderCreate for northwind-apparel\.myshopify\.com .*whether it was done is unknown/,
    )
    expect(server.shopify.calls(NORTHWIND, 'orderCreate')).toBe(1)
    // Shopify did it: the order exists once and its stock is taken once.
    expect(server.shopify.orders(NORTHWIND)).toHaveLength(1)
    expect(stock(SOCKS)).toBe(99)
    expect(await shopify.findOrderByTag(NORTHWIND, 'tandem', clock.toISOString())).toEqual({
      id: 'gid://shopify/Order/1006',
      name: '#1006',
    })
  })

  it('never sends a mutation its caller stopped waiting for', async () => {
    // The shop's queue is held by a slow query; the order's caller gives up meanwhile.
    server.shopify.script({ operation: 'productsCount', mode: 'delay', delayMs: 400 })
    const slow = shopify.countProducts(NORTHWIND)
    const order = shopify.createOrder(NORTHWIND, brandOrder([{ variantId: SOCKS, quantity: 1 }]), {
      signal: AbortSignal.timeout(100),
    })
    await expect(order).rejects.toThrow(
      `OrderCreate for ${NORTHWIND} was not sent: its caller stopped waiting`,
    )
    await slow
    expect(server.shopify.calls(NORTHWIND, 'orderCreate')).toBe(0)
    expect(server.shopify.orders(NORTHWIND)).toEqual([])
    expect(stock(SOCKS)).toBe(100)
  })

  it('does not resend a mutation after a server error either', async () => {
    server.shopify.script({ operation: 'orderMarkAsPaid', mode: 'error', status: 503 })
    const created = await shopify.createOrder(
      NORTHWIND,
      brandOrder([{ variantId: SOCKS, quantity: 1 }]),
    )
    await expect(shopify.markOrderAsPaid(NORTHWIND, created.id)).rejects.toThrow(/HTTP 503/)
    expect(server.shopify.calls(NORTHWIND, 'orderMarkAsPaid')).toBe(1)
  })

  it('resends a query after server errors and lost connections, with growing waits', async () => {
    server.shopify.script({
      operation: 'productsCount',
      mode: 'error',
      status: 502,
      shop: NORTHWIND,
    })
    server.shopify.script({ operation: 'productsCount', mode: 'drop_before', shop: NORTHWIND })
    expect(await shopify.countProducts(NORTHWIND)).toBe(2)
    expect(server.shopify.calls(NORTHWIND, 'productsCount')).toBe(3)
    expect(waits.map((wait) => Math.floor(wait.asked / 250))).toEqual([1, 2])
  })
})

describe('rate limits', () => {
  it('waits out THROTTLED for what the cost figures say, then succeeds', async () => {
    // 100 products a page costs 102 points; a bucket of 150 refilling 50 a second holds one.
    server.shopify.addProducts(NORTHWIND, 200)
    // Connected first, its webhooks registered: their calls would use the bucket too.
    const { api } = adapter()
    await api.request(NORTHWIND, 'query Shop { shop { id } }')
    await expect.poll(() => server.shopify.webhookSubscriptions(NORTHWIND).length).toBe(9)
    server.shopify.setThrottle(NORTHWIND, { maximumAvailable: 150, restoreRate: 50 })
    const page = () =>
      api.request<{ products: { nodes: unknown[] } }>(
        NORTHWIND,
        'query Page { products(first: 100) { nodes { id } } }',
      )
    await page()
    const before = server.shopify.calls(NORTHWIND, 'products')
    const answer = await page()
    expect(answer.products.nodes).toHaveLength(100)
    // One THROTTLED answer, one wait, one success.
    expect(server.shopify.calls(NORTHWIND, 'products') - before).toBe(2)
    expect(waits).toHaveLength(1)
    // The bucket held 150 − 102 = 48 of the 102 asked: (102 − 48) / 50 s, give or take the
    // few points restored between the two calls.
    const figure = ((102 - 48) / 50) * 1000
    expect(Math.abs(waits[0]!.asked - figure) / figure).toBeLessThan(0.2)
    // The wait measured by the clock, not only the one asked for.
    expect(Math.abs(waits[0]!.took - figure) / figure).toBeLessThan(0.2)
  })

  it('honours 429 Retry-After as seconds', async () => {
    server.shopify.script({ operation: 'productsCount', mode: 'throttle429', retryAfterSeconds: 2 })
    expect(await shopify.countProducts(NORTHWIND)).toBe(2)
    expect(waits.map((wait) => wait.asked)).toEqual([2000])
    expect(Math.abs(waits[0]!.took - 2000) / 2000).toBeLessThan(0.2)
  })

  it('resends a throttled mutation, which Shopify did not run', async () => {
    server.shopify.script({ operation: 'orderCreate', mode: 'throttle429', retryAfterSeconds: 1 })
    await shopify.createOrder(NORTHWIND, brandOrder([{ variantId: SOCKS, quantity: 1 }]))
    expect(server.shopify.orders(NORTHWIND)).toHaveLength(1)
    expect(server.shopify.calls(NORTHWIND, 'orderCreate')).toBe(2)
  })
})

describe('access tokens', () => {
  it('asks once for concurrent callers, keeps the token sealed, and reuses it', async () => {
    await Promise.all(Array.from({ length: 5 }, () => shopify.countProducts(NORTHWIND)))
    await shopify.countProducts(NORTHWIND)
    expect(server.shopify.calls(NORTHWIND, 'access_token')).toBe(1)
    const row = await server.db
      .selectFrom('shop_connections')
      .selectAll()
      .where('shop', '=', NORTHWIND)
      .executeTakeFirstOrThrow()
    expect(row.method).toBe('CLIENT_CREDENTIALS')
    expect(row.access_token_sealed).toMatch(/^v2:/)
    expect(row.access_token_sealed).not.toMatch(/shpat_/)
    expect(Date.parse(row.access_token_expires_at ?? '') - clock.getTime()).toBeGreaterThan(
      23.9 * 3600_000,
    )
    // Another server process finds it in the database.
    await adapter().commerce.countProducts(NORTHWIND)
    expect(server.shopify.calls(NORTHWIND, 'access_token')).toBe(1)
  })

  it('renews a token before it runs out', async () => {
    await shopify.countProducts(NORTHWIND)
    clock = new Date(clock.getTime() + 23 * 3600_000 + 56 * 60_000)
    await shopify.countProducts(NORTHWIND)
    expect(server.shopify.calls(NORTHWIND, 'access_token')).toBe(2)
  })

  it('asks for a new token once after a 401, and gives up after a second', async () => {
    await shopify.countProducts(NORTHWIND)
    server.shopify.expireTokens(NORTHWIND)
    expect(await shopify.countProducts(NORTHWIND)).toBe(2)
    expect(server.shopify.calls(NORTHWIND, 'access_token')).toBe(2)

    server.shopify.script({ operation: 'productsCount', mode: 'error', status: 401, times: 2 })
    await expect(shopify.countProducts(NORTHWIND)).rejects.toThrow(
      new CommerceError(`Shopify refused the access token of ${NORTHWIND} (401) twice`),
    )
  })

  it('says why Shopify refused the grant', async () => {
    server.shopify.setGrant(NORTHWIND, 'refuse')
    const refused = shopify.countProducts(NORTHWIND)
    await expect(refused).rejects.toBeInstanceOf(CommerceError)
    await expect(refused).rejects.toThrow(
      `Shopify refused a token for ${NORTHWIND}: Client credentials cannot be performed on this shop.`,
    )
  })
})
