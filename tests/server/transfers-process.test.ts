import { afterEach, describe, expect, it } from 'vitest'
import {
  JANE_DOE_ADDRESS,
  LUMEN,
  NORTHWIND,
  order1001Brands,
  ORDER_1001_TOTALS,
} from '../support/sandbox-figures'
import type { CommercePort } from '../../server/src/adapters/commerce/commerce-port'
import {
  createSandboxCommerce,
  type SandboxCommerceFaults,
} from '../../server/src/adapters/commerce/sandbox-commerce'
import {
  createSandboxPayments,
  type SandboxPaymentsFaults,
} from '../../server/src/adapters/payments/sandbox-payments'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// POST /admin-create-order-transfer: brand orders, payments, and what the database keeps of them.
// Every test starts from a freshly seeded marketplace.

const NORTHWIND_ACCOUNT = 'acct_sandbox_northwind_apparel'
const LUMEN_ACCOUNT = 'acct_sandbox_lumen_botanicals'

let server: ServerUnderTest
let commerceFaults: SandboxCommerceFaults
let paymentsFaults: SandboxPaymentsFaults

/** A fresh server; `wrap` may slow down or hold the sandbox's calls to make requests overlap. */
async function start(wrap: (commerce: CommercePort) => CommercePort = (commerce) => commerce) {
  commerceFaults = {}
  paymentsFaults = {}
  server = await startServerUnderTest({
    commerce: (db) => wrap(createSandboxCommerce(db, { faults: commerceFaults })),
    payments: (db) => createSandboxPayments(db, { faults: paymentsFaults }),
  })
}

afterEach(async () => {
  await server.close()
})

const processOrder = (creatorOrderId: string) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-create-order-transfer',
    headers: server.asAdmin,
    payload: { creatorOrderId },
  })

const preview = (creatorOrderId: string) =>
  server.app.inject({
    method: 'GET',
    url: `/admin-preview-order-transfer?creatorOrderId=${encodeURIComponent(creatorOrderId)}`,
    headers: server.asAdmin,
  })

/** Orders the sandbox created beyond the seeded creator orders 1001–1005. */
const brandOrders = () =>
  server.db.selectFrom('commerce_orders').selectAll().where('id', '>', 1005).orderBy('id').execute()

const payments = () =>
  server.db.selectFrom('payment_transfers').selectAll().orderBy('idempotency_key').execute()

const transferBrands = (creatorOrderId: string) =>
  server.db
    .selectFrom('order_transfer_brands')
    .selectAll()
    .where('creator_order_id', '=', creatorOrderId)
    .orderBy('position')
    .execute()

const transferRow = (creatorOrderId: string) =>
  server.db
    .selectFrom('order_transfers')
    .selectAll()
    .where('creator_order_id', '=', creatorOrderId)
    .executeTakeFirst()

const counts = async () => ({
  brandOrders: (await brandOrders()).length,
  brandOrderLines: (
    await server.db
      .selectFrom('commerce_order_lines')
      .select('id')
      .where('order_id', '>', 1005)
      .execute()
  ).length,
  payments: (await payments()).length,
})

const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)

describe('processing order 1001', () => {
  it('creates one paid brand order per brand and transfers each brand amount', async () => {
    await start()
    const response = await processOrder('1001')
    expect(response.statusCode).toBe(201)
    expect(response.json()).toEqual({
      creatorOrderId: 'gid://shopify/Order/1001',
      status: 'COMPLETED',
      processedAt: isoDate,
      brandOrders: [
        { brandStoreShop: NORTHWIND, brandOrderId: 'gid://shopify/Order/1006' },
        { brandStoreShop: LUMEN, brandOrderId: 'gid://shopify/Order/1007' },
      ],
    })

    const address = JANE_DOE_ADDRESS
    const note = 'Tandem transfer of creator order #1001 from maya-makes.myshopify.com'
    const orders = await brandOrders()
    expect(
      orders.map((order) => ({ ...order, shipping_address: JSON.parse(order.shipping_address!) })),
    ).toEqual([
      {
        id: 1006,
        store_shop: NORTHWIND,
        name: '#1006',
        email: 'jane@example.com',
        currency: 'USD',
        created_at: isoDate,
        subtotal_minor: 13600,
        tax_minor: 0,
        shipping_minor: 0,
        total_minor: 13600,
        shipping_address: address,
        tags: 'tandem',
        note,
        paid: 1,
      },
      {
        id: 1007,
        store_shop: LUMEN,
        name: '#1007',
        email: 'jane@example.com',
        currency: 'USD',
        created_at: isoDate,
        subtotal_minor: 3450,
        tax_minor: 0,
        shipping_minor: 0,
        total_minor: 3450,
        shipping_address: address,
        tags: 'tandem',
        note,
        paid: 1,
      },
    ])
    const lines = await server.db
      .selectFrom('commerce_order_lines')
      .select(['order_id', 'variant_id', 'title', 'quantity', 'unit_price_minor'])
      .where('order_id', '>', 1005)
      .orderBy('order_id')
      .execute()
    expect(lines).toEqual([
      {
        order_id: 1006,
        variant_id: 'gid://shopify/ProductVariant/201',
        title: 'Linen Overshirt',
        quantity: 2,
        unit_price_minor: 6800,
      },
      {
        order_id: 1007,
        variant_id: 'gid://shopify/ProductVariant/203',
        title: 'Rosehip Face Oil',
        quantity: 1,
        unit_price_minor: 3450,
      },
    ])
    // DECREMENT_OBEYING_POLICY: the brand's stock went down.
    const stock = await server.db
      .selectFrom('commerce_variants')
      .select(['id', 'inventory_quantity'])
      .where('id', 'in', ['gid://shopify/ProductVariant/201', 'gid://shopify/ProductVariant/203'])
      .orderBy('id')
      .execute()
    expect(stock.map((variant) => variant.inventory_quantity)).toEqual([98, 99])

    expect(await payments()).toEqual([
      {
        id: expect.stringMatching(/^tr_sandbox_/),
        idempotency_key: `transfer:1001:${LUMEN}`,
        destination_account_id: LUMEN_ACCOUNT,
        amount_minor: 2484,
        currency: 'USD',
        created_at: isoDate,
      },
      {
        id: expect.stringMatching(/^tr_sandbox_/),
        idempotency_key: `transfer:1001:${NORTHWIND}`,
        destination_account_id: NORTHWIND_ACCOUNT,
        amount_minor: 10200,
        currency: 'USD',
        created_at: isoDate,
      },
    ])

    expect(await transferRow('1001')).toEqual({
      creator_order_id: '1001',
      creator_store_shop: 'maya-makes.myshopify.com',
      currency: 'USD',
      status: 'COMPLETED',
      claimed_by: null,
      claimed_at: null,
      processed_at: response.json().processedAt,
      created_at: isoDate,
    })
    const [northwindPayment, lumenPayment] = [
      (await payments()).find((p) => p.destination_account_id === NORTHWIND_ACCOUNT)!,
      (await payments()).find((p) => p.destination_account_id === LUMEN_ACCOUNT)!,
    ]
    expect(await transferBrands('1001')).toEqual([
      {
        creator_order_id: '1001',
        brand_store_shop: NORTHWIND,
        position: 0,
        base_minor: 13600,
        tandem_rate_hundredths: 1000,
        creator_rate_hundredths: 1500,
        creator_commission_minor: 2040,
        tandem_commission_minor: 1360,
        brand_amount_minor: 10200,
        lines: JSON.stringify([
          { brandVariantId: 'gid://shopify/ProductVariant/201', quantity: 2 },
        ]),
        brand_order_id: 'gid://shopify/Order/1006',
        paid_at: isoDate,
        payment_transfer_id: northwindPayment.id,
        failed_step: null,
        failed_message: null,
      },
      {
        creator_order_id: '1001',
        brand_store_shop: LUMEN,
        position: 1,
        base_minor: 3450,
        tandem_rate_hundredths: 800,
        creator_rate_hundredths: 2000,
        creator_commission_minor: 690,
        tandem_commission_minor: 276,
        brand_amount_minor: 2484,
        lines: JSON.stringify([
          { brandVariantId: 'gid://shopify/ProductVariant/203', quantity: 1 },
        ]),
        brand_order_id: 'gid://shopify/Order/1007',
        paid_at: isoDate,
        payment_transfer_id: lumenPayment.id,
        failed_step: null,
        failed_message: null,
      },
    ])
  })

  it('shows the brand orders in the preview, answers 409 to a second request and keeps its figures when rates change', async () => {
    await start()
    const processed = await processOrder('1001')
    expect(processed.statusCode).toBe(201)
    const { processedAt } = processed.json()

    const after = await preview('1001')
    expect(after.statusCode).toBe(200)
    expect(after.json().preview).toEqual({
      currency: 'USD',
      status: 'COMPLETED',
      processedAt,
      brands: order1001Brands(['gid://shopify/Order/1006', 'gid://shopify/Order/1007']),
      totals: ORDER_1001_TOTALS,
    })

    const before = await counts()
    for (const id of ['1001', 'gid://shopify/Order/1001']) {
      const again = await processOrder(id)
      expect(again.statusCode).toBe(409)
      expect(again.json()).toEqual({
        error: 'conflict',
        message: 'Order transfer already processed',
      })
    }
    expect(await counts()).toEqual(before)

    await server.db
      .updateTable('default_commissions')
      .set({ tandem_rate_hundredths: 3000, creator_rate_hundredths: 3000 })
      .execute()
    await server.db.updateTable('unique_commission_rates').set({ rate_hundredths: 5000 }).execute()
    expect((await preview('1001')).json()).toEqual(after.json())
  })

  it('processes an order named by its GID, in its currency (1005, EUR)', async () => {
    await start()
    const response = await processOrder('gid://shopify/Order/1005')
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({
      creatorOrderId: 'gid://shopify/Order/1005',
      status: 'COMPLETED',
      brandOrders: [{ brandStoreShop: NORTHWIND, brandOrderId: 'gid://shopify/Order/1006' }],
    })
    expect(await payments()).toMatchObject([
      {
        idempotency_key: `transfer:1005:${NORTHWIND}`,
        destination_account_id: NORTHWIND_ACCOUNT,
        amount_minor: 4650,
        currency: 'EUR',
      },
    ])
    expect((await brandOrders())[0]).toMatchObject({ currency: 'EUR', email: 'lena@example.com' })
  })
})

describe('refusals', () => {
  it('answers the preview errors and creates nothing', async () => {
    await start()
    const cases = [
      ['1002', 422, { error: 'business_rule', message: 'Commission not found' }],
      ['1003', 422, { error: 'business_rule', message: 'No brand orders found' }],
      ['9999', 404, { error: 'not_found', message: 'Creator order not found' }],
    ] as const
    for (const [id, status, body] of cases) {
      const response = await processOrder(id)
      expect(response.statusCode).toBe(status)
      expect(response.json()).toEqual(body)
    }
    expect(await counts()).toEqual({ brandOrders: 0, brandOrderLines: 0, payments: 0 })
    expect(await server.db.selectFrom('order_transfers').selectAll().execute()).toEqual([])
  })

  it('treats a brand order as no creator order', async () => {
    await start()
    expect((await processOrder('1001')).statusCode).toBe(201)
    for (const response of [await preview('1006'), await processOrder('1006')]) {
      expect(response.statusCode).toBe(404)
      expect(response.json().message).toBe('Creator order not found')
    }
  })

  it('answers 400 without a creatorOrderId', async () => {
    await start()
    const response = await server.app.inject({
      method: 'POST',
      url: '/admin-create-order-transfer',
      headers: server.asAdmin,
      payload: {},
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      error: 'invalid_input',
      message: 'creatorOrderId is required',
    })
  })
})

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Every call of the platform takes a while, as Shopify's do, so that requests overlap. */
const slow =
  (ms: number) =>
  (commerce: CommercePort): CommercePort => ({
    syncProducts: commerce.syncProducts,
    findCreatorOrder: async (id) => (await pause(ms), commerce.findCreatorOrder(id)),
    createOrder: async (shop, input) => (await pause(ms), commerce.createOrder(shop, input)),
    markOrderAsPaid: async (shop, id) => (await pause(ms), commerce.markOrderAsPaid(shop, id)),
  })

describe('concurrent requests', () => {
  it('create each brand order and each payment exactly once', async () => {
    await start(slow(50))
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        processOrder(i % 2 === 0 ? '1001' : 'gid://shopify/Order/1001'),
      ),
    )
    const statuses = responses.map((response) => response.statusCode).sort()
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409])
    for (const loser of responses.filter((response) => response.statusCode === 409)) {
      expect([
        'Order transfer is already being processed',
        'Order transfer already processed',
      ]).toContain(loser.json().message)
    }
    expect(await counts()).toEqual({ brandOrders: 2, brandOrderLines: 2, payments: 2 })
    expect(await transferBrands('1001')).toHaveLength(2)
    expect((await transferRow('1001'))?.status).toBe('COMPLETED')
  })

  it('answer 409 "being processed" while a request works, then "already processed"', async () => {
    let entered!: () => void
    const working = new Promise<void>((resolve) => (entered = resolve))
    let finish!: () => void
    const held = new Promise<void>((resolve) => (finish = resolve))
    await start((commerce) => ({
      ...commerce,
      createOrder: async (shop, input) => {
        entered()
        await held
        return commerce.createOrder(shop, input)
      },
    }))
    const first = processOrder('1001')
    await working
    const busy = await processOrder('gid://shopify/Order/1001')
    expect(busy.statusCode).toBe(409)
    expect(busy.json()).toEqual({
      error: 'conflict',
      message: 'Order transfer is already being processed',
    })
    finish()
    expect((await first).statusCode).toBe(201)
    expect((await processOrder('1001')).json().message).toBe('Order transfer already processed')
    expect(await counts()).toEqual({ brandOrders: 2, brandOrderLines: 2, payments: 2 })
  })

  it('take over the claim of a request that died', async () => {
    await start()
    // A request froze the figures and holds the claim: its first step never finished.
    commerceFaults.createOrder = () => 'Shopify is unavailable'
    expect((await processOrder('1001')).statusCode).toBe(502)
    delete commerceFaults.createOrder
    await server.db
      .updateTable('order_transfers')
      .set({ claimed_by: 'another-request', claimed_at: new Date().toISOString() })
      .execute()
    const busy = await processOrder('1001')
    expect(busy.statusCode).toBe(409)
    expect(busy.json()).toEqual({
      error: 'conflict',
      message: 'Order transfer is already being processed',
    })
    expect(await counts()).toEqual({ brandOrders: 0, brandOrderLines: 0, payments: 0 })

    // The holder died an hour ago: its claim is stale and the next request resumes.
    await server.db
      .updateTable('order_transfers')
      .set({ claimed_at: new Date(Date.now() - 60 * 60_000).toISOString() })
      .execute()
    expect((await processOrder('1001')).statusCode).toBe(201)
    expect(await counts()).toEqual({ brandOrders: 2, brandOrderLines: 2, payments: 2 })
  })
})

describe('a failed step', () => {
  it('leaves the transfer PARTIAL with the step recorded, and a retry resumes without repeating', async () => {
    await start()
    paymentsFaults.createTransfer = (request) =>
      request.destinationAccountId === LUMEN_ACCOUNT ? 'Stripe is unavailable' : null

    const failed = await processOrder('1001')
    expect(failed.statusCode).toBe(502)
    const message = `Transfer create failed for ${LUMEN}: the payment provider answered "Stripe is unavailable"`
    expect(failed.json()).toEqual({ error: 'upstream_failed', message })
    expect(await transferRow('1001')).toMatchObject({
      status: 'PARTIAL',
      claimed_by: null,
      processed_at: null,
    })
    expect(await transferBrands('1001')).toMatchObject([
      {
        brand_store_shop: NORTHWIND,
        brand_order_id: 'gid://shopify/Order/1006',
        paid_at: isoDate,
        payment_transfer_id: expect.stringMatching(/^tr_sandbox_/),
        failed_step: null,
        failed_message: null,
      },
      {
        brand_store_shop: LUMEN,
        brand_order_id: 'gid://shopify/Order/1007',
        paid_at: isoDate,
        payment_transfer_id: null,
        failed_step: 'createTransfer',
        failed_message: message,
      },
    ])
    expect(await counts()).toEqual({ brandOrders: 2, brandOrderLines: 2, payments: 1 })
    const partial = (await preview('1001')).json().preview
    expect(partial).toMatchObject({
      status: 'PARTIAL',
      processedAt: null,
      brands: [
        { brandStoreShop: NORTHWIND, brandOrderId: 'gid://shopify/Order/1006' },
        { brandStoreShop: LUMEN, brandOrderId: 'gid://shopify/Order/1007' },
      ],
    })

    delete paymentsFaults.createTransfer
    const retried = await processOrder('1001')
    expect(retried.statusCode).toBe(201)
    expect(retried.json().brandOrders).toEqual([
      { brandStoreShop: NORTHWIND, brandOrderId: 'gid://shopify/Order/1006' },
      { brandStoreShop: LUMEN, brandOrderId: 'gid://shopify/Order/1007' },
    ])
    expect(await counts()).toEqual({ brandOrders: 2, brandOrderLines: 2, payments: 2 })
    expect((await payments()).map((payment) => payment.amount_minor)).toEqual([2484, 10200])
    expect(await transferBrands('1001')).toMatchObject([
      { failed_step: null, failed_message: null },
      { failed_step: null, failed_message: null, payment_transfer_id: expect.any(String) },
    ])
  })

  it('resumes after a failed order creation and a failed mark as paid', async () => {
    await start()
    commerceFaults.createOrder = (shop) => (shop === LUMEN ? 'Shopify is unavailable' : null)
    const first = await processOrder('1001')
    expect(first.statusCode).toBe(502)
    expect(first.json().message).toBe(
      `Brand order create failed for ${LUMEN}: the commerce platform answered "Shopify is unavailable"`,
    )
    expect(await counts()).toEqual({ brandOrders: 1, brandOrderLines: 1, payments: 1 })
    expect(await transferBrands('1001')).toMatchObject([
      { failed_step: null },
      { brand_order_id: null, failed_step: 'createOrder' },
    ])

    delete commerceFaults.createOrder
    commerceFaults.markOrderAsPaid = () => 'Order cannot be marked as paid'
    const second = await processOrder('1001')
    expect(second.statusCode).toBe(502)
    expect(second.json().message).toBe(
      `Order mark as paid failed for ${LUMEN}: the commerce platform answered "Order cannot be marked as paid"`,
    )
    expect(await transferBrands('1001')).toMatchObject([
      { failed_step: null },
      { brand_order_id: 'gid://shopify/Order/1007', paid_at: null, failed_step: 'markOrderAsPaid' },
    ])

    delete commerceFaults.markOrderAsPaid
    expect((await processOrder('1001')).statusCode).toBe(201)
    expect(await counts()).toEqual({ brandOrders: 2, brandOrderLines: 2, payments: 2 })
    expect((await brandOrders()).map((order) => order.paid)).toEqual([1, 1])
  })

  it('keeps the frozen figures across a rate change between attempts', async () => {
    await start()
    paymentsFaults.createTransfer = () => 'Stripe is unavailable'
    expect((await processOrder('1001')).statusCode).toBe(502)
    await server.db.updateTable('default_commissions').set({ creator_rate_hundredths: 0 }).execute()
    delete paymentsFaults.createTransfer
    expect((await processOrder('1001')).statusCode).toBe(201)
    expect((await payments()).map((payment) => payment.amount_minor)).toEqual([2484, 10200])
  })

  it('answers 422 when the brand has no connected payment account', async () => {
    await start()
    await server.db.deleteFrom('payment_accounts').where('store_shop', '=', LUMEN).execute()
    const response = await processOrder('1001')
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({
      error: 'business_rule',
      message: 'Payment provider connected account ID not found',
    })
    expect(await transferBrands('1001')).toMatchObject([
      { failed_step: null },
      {
        failed_step: 'createTransfer',
        failed_message: 'Payment provider connected account ID not found',
      },
    ])
    expect((await transferRow('1001'))?.status).toBe('PARTIAL')
  })
})
