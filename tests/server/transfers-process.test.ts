import { afterEach, describe, expect, it } from 'vitest'
import {
  JANE_DOE_ADDRESS,
  LUMEN,
  NO_COMMISSION_1002,
  NORTHWIND,
  order1001Brands,
  ORDER_1001_SETTLED,
  ORDER_1001_TOTALS,
} from '../support/sandbox-figures'
import type { CommercePort } from '../../server/src/adapters/commerce/commerce-port'
import type { ShopifyFault } from '../../emulators/shopify/emulator'
import type { StripeFault } from '../../emulators/stripe/emulator'
import {
  connectStripe,
  STRIPE_ATTEMPTS,
} from '../../server/src/adapters/payments/stripe/stripe-payments'
import {
  startServerUnderTest,
  type ServerOptions,
  type ServerUnderTest,
} from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// POST /admin-create-order-transfer: brand orders, payments, and what the database keeps of them.
// Every test starts from a freshly seeded marketplace. Brands are processed in parallel, so which
// brand order gets which id is not fixed: tests find each brand's order by its shop.

const NORTHWIND_ACCOUNT = 'acct_sandbox_northwind_apparel'
const LUMEN_ACCOUNT = 'acct_sandbox_lumen_botanicals'

let server: ServerUnderTest
const { processOrder, preview } = transferCalls(() => server)

/**
 * A fresh server; `wrap` may slow down or hold the Shopify adapter's calls to make requests
 * overlap. The Stripe adapter retries without waiting.
 */
async function start(
  wrap: (commerce: CommercePort) => CommercePort = (commerce) => commerce,
  options: ServerOptions = {},
) {
  server = await startServerUnderTest({
    commerce: wrap,
    stripeApi: { wait: async () => {} },
    ...options,
  })
}

afterEach(async () => {
  await server.close()
})

/** A fault of Stripe, as its emulator answers it. */
const fault = (scripted: StripeFault) => server.stripe.script(scripted)
/** Stripe unavailable to Lumen's transfer through every try of one attempt: nothing made or saved. */
const lumenTransfersFail = (message?: string) =>
  fault({
    operation: 'transfers.create',
    mode: 'fail',
    status: 503,
    target: LUMEN_ACCOUNT,
    times: STRIPE_ATTEMPTS,
    ...(message ? { message } : {}),
  })
/** A fault of Shopify, as its emulator answers it. */
const shopifyFault = (scripted: ShopifyFault) => server.shopify.script(scripted)

const BRANDS = [LUMEN, NORTHWIND, 'ironpeak-outdoor.myshopify.com']

/** The orders of the brand shops (all made by processing), Lumen's first. */
const brandOrders = () => BRANDS.flatMap((shop) => server.shopify.orders(shop))

/** The GID of the one brand order made in `shop`. */
function brandOrderOf(shop: string): string {
  const orders = server.shopify.orders(shop)
  expect(orders).toHaveLength(1)
  return orders[0]!.id
}

/** The transfers Stripe made, Lumen's first. */
const payments = async () =>
  server.stripe.transfers().sort((a, b) => a.destination.localeCompare(b.destination))

/** Lumen's payouts go to `accountId` from now on, as the Payouts card sets it. */
const payLumenTo = (accountId: string) =>
  server.db
    .updateTable('store_payment_accounts')
    .set({ account_id: accountId })
    .where('store_shop', '=', LUMEN)
    .execute()

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

const OVERSHIRT = 'gid://shopify/ProductVariant/201'
const FACE_OIL = 'gid://shopify/ProductVariant/203'

const counts = async () => ({
  brandOrders: brandOrders().length,
  brandOrderLines: brandOrders().flatMap((order) => order.lines).length,
  paid: brandOrders().filter((order) => order.displayFinancialStatus === 'PAID').length,
  payments: (await payments()).length,
})

/** Order 1001 processed exactly once: two paid brand orders, two transfers, stock taken once. */
async function expectExactlyOnce(): Promise<void> {
  expect(await counts()).toEqual({ brandOrders: 2, brandOrderLines: 2, paid: 2, payments: 2 })
  expect((await payments()).map((payment) => payment.amount)).toEqual([2484, 10200])
  expect([server.shopify.stockOf(OVERSHIRT), server.shopify.stockOf(FACE_OIL)]).toEqual([98, 99])
  const done = (await preview('1001')).json().preview
  expect(done.status).toBe('COMPLETED')
  expect(done.brands.map((brand: { brandOrderId: string }) => brand.brandOrderId)).toEqual([
    brandOrderOf(NORTHWIND),
    brandOrderOf(LUMEN),
  ])
}

const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)

describe('processing order 1001', () => {
  it('creates one paid brand order per brand and transfers each brand amount', async () => {
    await start()
    const response = await processOrder('1001')
    expect(response.statusCode).toBe(201)
    const [northwindOrder, lumenOrder] = [brandOrderOf(NORTHWIND), brandOrderOf(LUMEN)]
    expect(response.json()).toEqual({
      creatorOrderId: 'gid://shopify/Order/1001',
      status: 'COMPLETED',
      processedAt: isoDate,
      brandOrders: [
        { brandStoreShop: NORTHWIND, brandOrderId: northwindOrder },
        { brandStoreShop: LUMEN, brandOrderId: lumenOrder },
      ],
    })
    const note = 'Tandem transfer of creator order #1001 from maya-makes.myshopify.com'
    const brandOrder = (gid: string, line: object) => ({
      id: gid,
      name: `#${gid.split('/').pop()}`,
      email: 'jane@example.com',
      currency: 'USD',
      shippingAddress: JANE_DOE_ADDRESS,
      tags: ['tandem', 'tandem-transfer-1001'],
      note,
      displayFinancialStatus: 'PAID',
      displayFulfillmentStatus: 'UNFULFILLED',
      cancelledAt: null,
      lines: [line],
    })
    expect(brandOrders()).toEqual([
      brandOrder(lumenOrder, {
        variantId: FACE_OIL,
        title: 'Rosehip Face Oil',
        quantity: 1,
        unitPrice: '34.50',
      }),
      brandOrder(northwindOrder, {
        variantId: OVERSHIRT,
        title: 'Linen Overshirt',
        quantity: 2,
        unitPrice: '68.00',
      }),
    ])
    // DECREMENT_OBEYING_POLICY: the brand's stock went down.
    expect([server.shopify.stockOf(OVERSHIRT), server.shopify.stockOf(FACE_OIL)]).toEqual([98, 99])

    // From the customer's charge, in the order's group, each under its own idempotency key.
    expect(await payments()).toEqual([
      {
        id: expect.stringMatching(/^tr_/),
        destination: LUMEN_ACCOUNT,
        amount: 2484,
        currency: 'usd',
        transferGroup: 'tandem-order-1001',
        sourceTransaction: 'ch_sandbox_order_1001',
        metadata: { creator_order_id: '1001', brand_shop: LUMEN },
        description: `Tandem transfer of creator order #1001 to ${LUMEN}`,
        created: expect.any(Number),
      },
      {
        id: expect.stringMatching(/^tr_/),
        destination: NORTHWIND_ACCOUNT,
        amount: 10200,
        currency: 'usd',
        transferGroup: 'tandem-order-1001',
        sourceTransaction: 'ch_sandbox_order_1001',
        metadata: { creator_order_id: '1001', brand_shop: NORTHWIND },
        description: `Tandem transfer of creator order #1001 to ${NORTHWIND}`,
        created: expect.any(Number),
      },
    ])
    expect(
      server.stripe
        .calls()
        .filter((call) => call.operation === 'transfers.create')
        .map((call) => call.idempotencyKey)
        .sort(),
    ).toEqual([`transfer:1001:${LUMEN}:usd`, `transfer:1001:${NORTHWIND}:usd`])

    expect(await transferRow('1001')).toEqual({
      creator_order_id: '1001',
      creator_store_shop: 'maya-makes.myshopify.com',
      currency: 'USD',
      status: 'COMPLETED',
      claimed_by: null,
      claimed_at: null,
      lease_expires_at: null,
      processed_at: response.json().processedAt,
      processed_by: 'claim-admin@tandem.test',
      created_at: isoDate,
      refunded_at_freeze_minor: 0,
    })
    const [northwindPayment, lumenPayment] = [
      (await payments()).find((p) => p.destination === NORTHWIND_ACCOUNT)!,
      (await payments()).find((p) => p.destination === LUMEN_ACCOUNT)!,
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
          {
            brandVariantId: 'gid://shopify/ProductVariant/201',
            quantity: 2,
            lineItemId: 'gid://shopify/LineItem/10011',
          },
        ]),
        brand_order_id: northwindOrder,
        paid_at: isoDate,
        payment_transfer_id: northwindPayment.id,
        failed_step: null,
        failed_message: null,
        pending_step: null,
        pending_since: null,
        transfer_destination: NORTHWIND_ACCOUNT,
        transfer_key_attempt: 0,
        transfer_declined_at: null,
        // Order 1001's charge settled in USD, the order's currency: nothing converted.
        settlement_currency: 'USD',
        exchange_rate: '1',
        brand_amount_settlement_minor: 10200,
        creator_commission_settlement_minor: 2040,
        tandem_commission_settlement_minor: 1360,
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
          {
            brandVariantId: 'gid://shopify/ProductVariant/203',
            quantity: 1,
            lineItemId: 'gid://shopify/LineItem/10012',
          },
        ]),
        brand_order_id: lumenOrder,
        paid_at: isoDate,
        payment_transfer_id: lumenPayment.id,
        failed_step: null,
        failed_message: null,
        pending_step: null,
        pending_since: null,
        transfer_destination: LUMEN_ACCOUNT,
        transfer_key_attempt: 0,
        transfer_declined_at: null,
        settlement_currency: 'USD',
        exchange_rate: '1',
        brand_amount_settlement_minor: 2484,
        creator_commission_settlement_minor: 690,
        tandem_commission_settlement_minor: 276,
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
      brands: order1001Brands([brandOrderOf(NORTHWIND), brandOrderOf(LUMEN)]),
      totals: ORDER_1001_TOTALS,
      settledTotals: ORDER_1001_SETTLED,
      // Each brand's Stripe transfer (tests/server/money-trail.test.ts has the trail's details).
      moneyTrail: [expect.anything(), expect.anything()],
      // No refund of it waits.
      refundWaiting: null,
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

  it('processes an order named by its GID (1005, EUR), paying in the currency its charge settled in', async () => {
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
        transferGroup: 'tandem-order-1005',
        destination: NORTHWIND_ACCOUNT,
        // 46.50 EUR at the charge's 1.16: 53.94 USD.
        amount: 5394,
        currency: 'usd',
        sourceTransaction: 'ch_sandbox_order_1005',
      },
    ])
    expect(brandOrders()[0]).toMatchObject({ currency: 'EUR', email: 'lena@example.com' })
  })
})

describe('refusals', () => {
  it('answers the preview errors and creates nothing', async () => {
    await start()
    const cases = [
      ['1002', 422, { error: 'business_rule', message: NO_COMMISSION_1002 }],
      ['1003', 422, { error: 'business_rule', message: 'No brand orders found' }],
      ['9999', 404, { error: 'not_found', message: 'Creator order not found' }],
    ] as const
    for (const [id, status, body] of cases) {
      const response = await processOrder(id)
      expect(response.statusCode).toBe(status)
      expect(response.json()).toEqual(body)
    }
    expect(await counts()).toEqual({ brandOrders: 0, brandOrderLines: 0, paid: 0, payments: 0 })
    expect(await server.db.selectFrom('order_transfers').selectAll().execute()).toEqual([])
  })

  it('treats a brand order as no creator order', async () => {
    await start()
    expect((await processOrder('1001')).statusCode).toBe(201)
    const brandOrderId = brandOrderOf(NORTHWIND).split('/').pop()!
    for (const response of [await preview(brandOrderId), await processOrder(brandOrderId)]) {
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

/** The Shopify mutation behind each step of the commerce port. */
const mutationOf = { createOrder: 'orderCreate', markOrderAsPaid: 'orderMarkAsPaid' } as const

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Every call of the platform takes a while, as Shopify's do, so that requests overlap. */
const slow =
  (ms: number) =>
  (commerce: CommercePort): CommercePort => ({
    ...commerce,
    findCreatorOrder: async (id) => (await pause(ms), commerce.findCreatorOrder(id)),
    createOrder: async (shop, input) => (await pause(ms), commerce.createOrder(shop, input)),
    markOrderAsPaid: async (shop, id) => (await pause(ms), commerce.markOrderAsPaid(shop, id)),
  })

/** A gate a test opens: calls held behind it wait, and the test knows how many are waiting. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  let waiting = 0
  const arrivals: (() => void)[] = []
  return {
    open,
    async pass() {
      waiting++
      arrivals.splice(0).forEach((arrived) => arrived())
      await opened
    },
    /** Resolves once `count` calls wait at the gate. */
    async reached(count: number) {
      while (waiting < count) await new Promise<void>((arrived) => arrivals.push(arrived))
    },
  }
}

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
    await expectExactlyOnce()
  })

  it("pay each brand once, to the cent, when Stripe's rate limit refuses the brands' calls sent at once", async () => {
    // One request a second to any one endpoint: the brands' account reads and transfers, sent
    // together, meet 429s, and each is asked again (the adapter's real waits) until Stripe takes it.
    server = await startServerUnderTest({
      stripeEmulator: { rateLimits: { perSecond: 10, perEndpointPerSecond: 1 } },
    })
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectExactlyOnce()
    const refused = server.stripe.calls().filter((call) => call.status === 429)
    expect(refused.map((call) => call.operation)).toContain('transfers.create')
  })

  it('answer 409 "being processed" while a request works, then "already processed"', async () => {
    const held = gate()
    await start((commerce) => ({
      ...commerce,
      createOrder: async (shop, input) => {
        await held.pass()
        return commerce.createOrder(shop, input)
      },
    }))
    const first = processOrder('1001')
    // Both brands are under way at once: their orders are created in parallel.
    await held.reached(2)
    const stripeCalls = server.stripe.calls().length
    const busy = await processOrder('gid://shopify/Order/1001')
    // Answered from the lease alone, before anything was asked of Stripe.
    expect(server.stripe.calls()).toHaveLength(stripeCalls)
    expect(busy.statusCode).toBe(409)
    expect(busy.json()).toEqual({
      error: 'conflict',
      message: 'Order transfer is already being processed',
    })
    // The lease of a live request runs at most 30 s ahead: a crashed one frees the order soon.
    const leaseLeft = Date.parse((await transferRow('1001'))!.lease_expires_at!) - Date.now()
    expect(leaseLeft).toBeGreaterThan(0)
    expect(leaseLeft).toBeLessThanOrEqual(30_000)
    held.open()
    expect((await first).statusCode).toBe(201)
    expect((await processOrder('1001')).json().message).toBe('Order transfer already processed')
    await expectExactlyOnce()
  })

  it("answer 409 at once while the process's checks of the order are under way, asking Shopify nothing again", async () => {
    const held = gate()
    const catalogueReads: string[] = []
    await start((commerce) => ({
      ...commerce,
      // The first request's plan reads both brands' stores, and waits there.
      readBrandVariants: async (shop, ids) => {
        catalogueReads.push(shop)
        if (catalogueReads.length <= 2) await held.pass()
        return commerce.readBrandVariants(shop, ids)
      },
    }))
    const first = processOrder('1001')
    await held.reached(2)
    const busy = await processOrder('gid://shopify/Order/1001')
    expect(busy.statusCode).toBe(409)
    expect(busy.json()).toEqual({
      error: 'conflict',
      message: 'Order transfer is already being processed',
    })
    held.open()
    expect((await first).statusCode).toBe(201)
    // The second request read no brand's store: the first's checks were enough.
    expect(catalogueReads.sort()).toEqual([LUMEN, NORTHWIND].sort())
    await expectExactlyOnce()
  })

  it('take over the lease of a request that died', async () => {
    await start()
    // A request froze the figures and holds the lease: its first steps never finished.
    // Shopify fails both brand orders without doing anything.
    shopifyFault({ operation: 'orderCreate', mode: 'error', status: 503, times: 2 })
    expect((await processOrder('1001')).statusCode).toBe(502)
    const holdUntil = (at: number) =>
      server.db
        .updateTable('order_transfers')
        .set({
          claimed_by: 'a-request-that-died',
          claimed_at: new Date().toISOString(),
          lease_expires_at: new Date(at).toISOString(),
        })
        .execute()
    await holdUntil(Date.now() + 20_000)
    const busy = await processOrder('1001')
    expect(busy.statusCode).toBe(409)
    expect(busy.json()).toEqual({
      error: 'conflict',
      message: 'Order transfer is already being processed',
    })
    expect(await counts()).toEqual({ brandOrders: 0, brandOrderLines: 0, paid: 0, payments: 0 })

    // Its lease ran out: the next request takes over and resumes.
    await holdUntil(Date.now() - 1)
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectExactlyOnce()
  })

  it('never answer COMPLETED from a request that lost its lease, and make nothing twice', async () => {
    // The server's clock, which decides when a lease runs out, moved on by the test.
    let skewMs = 0
    const held = gate()
    let holding = true
    await start(
      (commerce) => ({
        ...commerce,
        // Shopify creates the order, then the request stalls before it can record it.
        createOrder: async (shop, input) => {
          const created = await commerce.createOrder(shop, input)
          if (holding) await held.pass()
          return created
        },
      }),
      { now: () => new Date(Date.now() + skewMs) },
    )
    const stalled = processOrder('1001')
    await held.reached(2)
    holding = false

    skewMs = 31_000
    const takeover = await processOrder('1001')
    expect(takeover.statusCode).toBe(201)
    // The stalled request's orders were found by their tag and adopted, not created again.
    expect(takeover.json().brandOrders).toEqual([
      { brandStoreShop: NORTHWIND, brandOrderId: brandOrderOf(NORTHWIND) },
      { brandStoreShop: LUMEN, brandOrderId: brandOrderOf(LUMEN) },
    ])

    held.open()
    const late = await stalled
    expect(late.statusCode).toBe(409)
    expect(late.json()).toEqual({
      error: 'conflict',
      message:
        'Order transfer was taken over by another request while this one was held up: the preview shows where it stands',
    })
    await expectExactlyOnce()
    expect(await transferRow('1001')).toMatchObject({ status: 'COMPLETED', claimed_by: null })
  })
})

describe('a failed step', () => {
  it('leaves the transfer PARTIAL with the step recorded, and a retry resumes without repeating', async () => {
    await start()
    lumenTransfersFail('Transfers to this account are paused')

    const failed = await processOrder('1001')
    expect(failed.statusCode).toBe(502)
    const message = `Transfer create failed for lumen botanicals: the payment provider answered "Transfers to this account are paused"`
    expect(failed.json()).toEqual({ error: 'upstream_failed', message })
    expect(await transferRow('1001')).toMatchObject({
      status: 'PARTIAL',
      claimed_by: null,
      lease_expires_at: null,
      processed_at: null,
    })
    const [northwindOrder, lumenOrder] = [brandOrderOf(NORTHWIND), brandOrderOf(LUMEN)]
    expect(await transferBrands('1001')).toMatchObject([
      {
        brand_store_shop: NORTHWIND,
        brand_order_id: northwindOrder,
        paid_at: isoDate,
        payment_transfer_id: expect.stringMatching(/^tr_/),
        failed_step: null,
        failed_message: null,
        pending_step: null,
      },
      {
        brand_store_shop: LUMEN,
        brand_order_id: lumenOrder,
        paid_at: isoDate,
        payment_transfer_id: null,
        failed_step: 'createTransfer',
        failed_message: message,
        // Whether Stripe made it is not known from a failure: the next attempt checks first.
        pending_step: 'createTransfer',
      },
    ])
    expect(await counts()).toEqual({ brandOrders: 2, brandOrderLines: 2, paid: 2, payments: 1 })
    const partial = (await preview('1001')).json().preview
    expect(partial).toMatchObject({
      status: 'PARTIAL',
      processedAt: null,
      brands: [
        { brandStoreShop: NORTHWIND, brandOrderId: northwindOrder },
        { brandStoreShop: LUMEN, brandOrderId: lumenOrder },
      ],
    })

    const retried = await processOrder('1001')
    expect(retried.statusCode).toBe(201)
    expect(retried.json().brandOrders).toEqual([
      { brandStoreShop: NORTHWIND, brandOrderId: northwindOrder },
      { brandStoreShop: LUMEN, brandOrderId: lumenOrder },
    ])
    await expectExactlyOnce()
    expect(await transferBrands('1001')).toMatchObject([
      { failed_step: null, failed_message: null, pending_step: null },
      { failed_step: null, failed_message: null, pending_step: null },
    ])
  })

  it('resumes after a failed order creation and a failed mark as paid', async () => {
    await start()
    shopifyFault({ operation: 'orderCreate', mode: 'error', status: 503, shop: LUMEN })
    const first = await processOrder('1001')
    expect(first.statusCode).toBe(502)
    expect(first.json().message).toBe(
      `Brand order create failed for lumen botanicals: the commerce platform answered "Shopify did not answer OrderCreate for ${LUMEN} (HTTP 503); whether it was done is unknown"`,
    )
    // Northwind went on while Lumen failed.
    expect(await counts()).toEqual({ brandOrders: 1, brandOrderLines: 1, paid: 1, payments: 1 })
    expect(await transferBrands('1001')).toMatchObject([
      { failed_step: null },
      { brand_order_id: null, failed_step: 'createOrder' },
    ])

    shopifyFault({ operation: 'orderMarkAsPaid', mode: 'error', status: 500 })
    const second = await processOrder('1001')
    expect(second.statusCode).toBe(502)
    expect(second.json().message).toBe(
      `Order mark as paid failed for lumen botanicals: the commerce platform answered "Shopify did not answer OrderMarkAsPaid for ${LUMEN} (HTTP 500); whether it was done is unknown"`,
    )
    expect(await transferBrands('1001')).toMatchObject([
      { failed_step: null },
      { brand_order_id: brandOrderOf(LUMEN), paid_at: null, failed_step: 'markOrderAsPaid' },
    ])

    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectExactlyOnce()
  })

  it('keeps the frozen figures across a rate change between attempts', async () => {
    await start()
    lumenTransfersFail()
    expect((await processOrder('1001')).statusCode).toBe(502)
    await server.db.updateTable('default_commissions').set({ creator_rate_hundredths: 0 }).execute()
    expect((await processOrder('1001')).statusCode).toBe(201)
    expect((await payments()).map((payment) => payment.amount)).toEqual([2484, 10200])
  })

  it.each([
    ['createOrder', 'Brand order create failed'],
    ['markOrderAsPaid', 'Order mark as paid failed'],
  ] as const)(
    'answers 502 when %s is not answered in time, and holds the order until the late call can no longer land',
    async (operation, failure) => {
      let skewMs = 0
      await start((commerce) => commerce, {
        transferTiming: { leaseMs: 3000 },
        now: () => new Date(Date.now() + skewMs),
      })
      shopifyFault({ operation: mutationOf[operation], mode: 'delay', delayMs: 1500, shop: LUMEN })
      const slowAnswer = await processOrder('1001')
      expect(slowAnswer.statusCode).toBe(502)
      expect(slowAnswer.json().message).toBe(
        `${failure} for lumen botanicals: the commerce platform did not answer within 1 s`,
      )
      // The call may still land: an immediate retry must not look for it and act again yet.
      const tooSoon = await processOrder('1001')
      expect(tooSoon.statusCode).toBe(409)
      expect(tooSoon.json().message).toBe('Order transfer is already being processed')

      // The late call lands; once the lease has run out, the retry finds what it did.
      await expect
        .poll(async () => (await counts())[operation === 'createOrder' ? 'brandOrders' : 'paid'], {
          timeout: 10_000,
        })
        .toBe(2)
      skewMs = 3_100
      expect((await processOrder('1001')).statusCode).toBe(201)
      await expectExactlyOnce()
    },
  )

  /**
   * Order 1001 processed by a request that stops at one brand's `failpoint`, and by a second
   * request once the first's lease has run out (the server's clock moved 31 s on); then the first
   * goes on, its clock `resumedSkewMs` on. Answers the first request's message, and the transfers
   * Stripe was asked to make meanwhile and since.
   */
  async function takenOverAt(failpoint: string, resumedSkewMs: number) {
    let skewMs = 0
    const stalled = gate()
    let stalls = true
    await start((commerce) => commerce, {
      now: () => new Date(Date.now() + skewMs),
      transferTiming: {
        failpoint: async (name) => {
          if (name === failpoint && stalls) {
            stalls = false
            await stalled.pass()
          }
        },
      },
    })
    const transfersSent = () =>
      server.stripe.calls().filter((call) => call.operation === 'transfers.create').length
    const first = processOrder('1001')
    await stalled.reached(1)
    // The other brand goes on meanwhile, renewing the lease at each step: let it finish before
    // the clock moves, or its renewals would carry the lease past the moved clock.
    await expect
      .poll(async () =>
        (await transferBrands('1001')).some((brand) => brand.payment_transfer_id !== null),
      )
      .toBe(true)
    skewMs = 31_000
    expect((await processOrder('1001')).statusCode).toBe(201)
    const sentByTheSecond = transfersSent()
    skewMs = resumedSkewMs
    stalled.open()
    return { message: (await first).json().message, sentByTheSecond, sent: transfersSent() }
  }

  const TAKEN_OVER =
    'Order transfer was taken over by another request while this one was held up: the preview shows where it stands'

  it('makes no call from a request that stalled past its lease just before calling', async () => {
    const { message } = await takenOverAt('createOrder:before-call', 31_000)
    expect(message).toBe(TAKEN_OVER)
    await expectExactlyOnce()
  })

  it('asks the database, not its own clock, before a call its lease may not outlast', async () => {
    // The lease renewed moments before a call is known held without a write, but only while it
    // outlasts the call's deadline (10 s) and as long again: a request whose clock lags the one
    // that took its lease over (its lease has 15 s left by it) must still find out before it calls.
    const taken = await takenOverAt('createTransfer:before-call', 15_000)
    expect(taken).toEqual({ message: TAKEN_OVER, sentByTheSecond: 2, sent: 2 })
    await expectExactlyOnce()
  })
})

describe('payment checks, before anything is ordered', () => {
  /** A paid order of maya makes for one Linen Overshirt (a Northwind copy), with these metafields. */
  async function overshirtOrder(metafields: { namespace: string; key: string; value: string }[]) {
    const id = await server.shopify.createPaidOrder('maya-makes.myshopify.com', {
      lines: [{ variantId: 'gid://shopify/ProductVariant/401', quantity: 1 }],
      metafields,
    })
    return id.split('/').pop()!
  }
  const paidWith = (paymentIntentId: string) =>
    overshirtOrder([{ namespace: 'tandem', key: 'payment_intent', value: paymentIntentId }])
  let intents = 0
  /** An order paid with its own PaymentIntent, which names it in its metadata as the platform does. */
  async function paidWithOwn(intent: { amount: number; currency: string }) {
    const id = `pi_test_own_${++intents}`
    const orderId = await paidWith(id)
    const { chargeId } = server.stripe.addPaymentIntent({
      ...intent,
      id,
      metadata: { creator_shop: 'maya-makes.myshopify.com', creator_order_id: orderId },
    })
    return { orderId, chargeId, intentId: id }
  }

  /** The refusal, and nothing ordered, paid, transferred or frozen. */
  async function expectRefused(creatorOrderId: string, status: number, said: string | RegExp) {
    const response = await processOrder(creatorOrderId)
    const message = typeof said === 'string' ? said : expect.stringMatching(said)
    expect({ status: response.statusCode, body: response.json() }).toEqual({
      status,
      body: { error: status === 422 ? 'business_rule' : 'upstream_failed', message },
    })
    expect(await counts()).toEqual({ brandOrders: 0, brandOrderLines: 0, paid: 0, payments: 0 })
    expect(await transferRow(creatorOrderId)).toBeUndefined()
    expect((await preview(creatorOrderId)).json().preview.status).toBe('NOT_STARTED')
  }

  it('refuses a brand without a payout account, naming it', async () => {
    await start()
    await server.db.deleteFrom('store_payment_accounts').where('store_shop', '=', LUMEN).execute()
    await expectRefused(
      '1001',
      422,
      'Payment provider connected account ID not found: lumen botanicals has no payout account: set it on its store page',
    )
  })

  it('refuses an account Stripe does not know', async () => {
    await start()
    await server.db
      .updateTable('store_payment_accounts')
      .set({ account_id: 'acct_gone' })
      .where('store_shop', '=', LUMEN)
      .execute()
    await expectRefused(
      '1001',
      422,
      'Payment provider connected account ID not found: Stripe has no account acct_gone connected to the platform for lumen botanicals: set its payout account on its store page',
    )
  })

  it('refuses an account without an email, or without active transfers', async () => {
    await start()
    const noEmail = server.stripe.addAccount({ email: null })
    const inactive = server.stripe.addAccount({ email: 'x@lumen.example', transfersActive: false })
    const payTo = (accountId: string) =>
      server.db
        .updateTable('store_payment_accounts')
        .set({ account_id: accountId })
        .where('store_shop', '=', LUMEN)
        .execute()
    await payTo(noEmail)
    await expectRefused(
      '1001',
      422,
      `Payment provider connected account email not found: lumen botanicals's payout account ${noEmail} has no email: add one to the account in Stripe`,
    )
    await payTo(inactive)
    await expectRefused(
      '1001',
      422,
      `Payment provider connected account cannot receive transfers: lumen botanicals's payout account ${inactive} has transfers inactive: finish its onboarding in Stripe, or set another account on its store page`,
    )
  })

  it('refuses an order without a PaymentIntent, an unknown one, and one not succeeded', async () => {
    await start()
    const processing = server.stripe.addPaymentIntent({
      amount: 6800,
      currency: 'usd',
      status: 'processing',
    })
    // No payment is the creator's to mend, not the brand's: the sentence says so.
    const unpaid = await overshirtOrder([])
    await expectRefused(
      unpaid,
      422,
      /^Payment intent id not found: creator order #\d+ of maya makes has no Stripe payment on record, so Tandem has nothing to pay its brands and creator from: maya makes, the creator, has the customer pay through Tandem's checkout, or refunds or cancels the order in its Shopify admin$/,
    )
    const cases = [
      [await paidWith('pi_unknown'), 'Payment intent not found'],
      [await paidWith(processing.id), 'Payment intent not successed'],
    ] as const
    for (const [orderId, message] of cases) {
      await expectRefused(orderId, 422, `${message} for northwind apparel`)
    }
  })

  it('refuses a PaymentIntent in another currency, or that received less than the order totals', async () => {
    await start()
    const mismatch = 'Payment intent does not match the creator order'
    await expectRefused(
      (await paidWithOwn({ amount: 10_000, currency: 'eur' })).orderId,
      422,
      `${mismatch}: it is in EUR, the order in USD for northwind apparel`,
    )
    // The order's overshirt (68.00) is not what the customer paid through Tandem (1.00).
    const tooLittle = await paidWithOwn({ amount: 100, currency: 'usd' })
    await expectRefused(
      tooLittle.orderId,
      422,
      `Creator order #${tooLittle.orderId} totals 68.00 USD, more than the 1.00 USD its payment ${tooLittle.intentId} received: lines were added or prices raised after checkout, or paid outside Tandem. Check the order's edits and payments in the creator's Shopify admin, and have the creator remove or refund what the customer did not pay through Tandem. Nothing was ordered or paid`,
    )
  })

  it('answers 502 naming the brand when Stripe fails, after retrying', async () => {
    await start()
    fault({
      operation: 'accounts.retrieve',
      mode: 'fail',
      status: 500,
      target: LUMEN_ACCOUNT,
      times: 10,
    })
    await expectRefused(
      '1001',
      502,
      `Payout account lookup failed for lumen botanicals: the payment provider answered "An unknown error occurred"`,
    )
    const lookups = server.stripe
      .calls()
      .filter((call) => call.path === `/v1/accounts/${LUMEN_ACCOUNT}`)
    expect(lookups.map((call) => call.status)).toEqual([500, 500, 500, 500])
  })
})

describe('a lost answer', () => {
  it.each([
    ['createOrder', LUMEN],
    ['markOrderAsPaid', LUMEN],
  ] as const)(
    'of %s is reconciled on the next attempt, never repeated',
    async (operation, target) => {
      await start()
      shopifyFault({ operation: mutationOf[operation], mode: 'drop_after_write', shop: target })
      const lost = await processOrder('1001')
      expect(lost.statusCode).toBe(502)
      expect(lost.json().message).toContain('whether it was done is unknown')
      expect((await transferBrands('1001'))[1]).toMatchObject({ pending_step: operation })
      expect((await processOrder('1001')).statusCode).toBe(201)
      await expectExactlyOnce()
    },
  )

  it('of a transfer is healed at once: resent under its key, Stripe replays the first answer', async () => {
    await start()
    // Two: stripe-node itself resends once after a closed connection; the adapter's retry is third.
    fault({
      operation: 'transfers.create',
      mode: 'drop_after_write',
      target: LUMEN_ACCOUNT,
      times: 2,
    })
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectExactlyOnce()
    const lumenCreates = server.stripe
      .calls()
      .filter((call) => call.idempotencyKey === `transfer:1001:${LUMEN}:usd`)
    expect(lumenCreates.map((call) => call.status)).toEqual([null, null, 200])
  })

  it('of every try of a transfer is answered 502; the next attempt gets the same transfer', async () => {
    await start()
    fault({
      operation: 'transfers.create',
      mode: 'drop_after_write',
      target: LUMEN_ACCOUNT,
      times: 100,
    })
    const lost = await processOrder('1001')
    server.stripe.unscript()
    expect(lost.statusCode).toBe(502)
    expect(lost.json().message).toBe(
      `Transfer create failed for lumen botanicals: the payment provider answered "The connection to Stripe was lost before its answer arrived"`,
    )
    expect((await transferBrands('1001'))[1]).toMatchObject({ pending_step: 'createTransfer' })
    expect(await payments()).toHaveLength(2)
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectExactlyOnce()
  })

  it('of a transfer is found in Stripe by its group and brand, even after a day, when Stripe forgot the key and the brand’s account changed', async () => {
    let skewMs = 0
    const now = () => new Date(Date.now() + skewMs)
    await start((commerce) => commerce, { now, stripeEmulator: { now } })
    // Stripe made it, but no try of the first attempt heard so.
    fault({
      operation: 'transfers.create',
      mode: 'drop_after_write',
      target: LUMEN_ACCOUNT,
      times: 100,
    })
    expect((await processOrder('1001')).statusCode).toBe(502)
    server.stripe.unscript()
    const creates = () =>
      server.stripe.calls().filter((call) => call.operation === 'transfers.create')
    const createsBefore = creates().length
    // Meanwhile Lumen's payouts move to another account: the lost transfer went to the old one.
    const newAccount = server.stripe.addAccount({ email: 'new@lumen.example' })
    await payLumenTo(newAccount)
    skewMs = 25 * 60 * 60_000
    expect((await processOrder('1001')).statusCode).toBe(201)
    // Found where it went, and adopted: nothing created again.
    expect(creates()).toHaveLength(createsBefore)
    await expectExactlyOnce()
  })

  it('of a transfer is sent again to the account it went to when the admin set another meanwhile: Stripe answers or makes it there', async () => {
    await start()
    // Stripe failed every try: whether it made the transfer is unknown.
    lumenTransfersFail()
    expect((await processOrder('1001')).statusCode).toBe(502)
    expect((await transferBrands('1001'))[1]).toMatchObject({
      pending_step: 'createTransfer',
      transfer_destination: LUMEN_ACCOUNT,
    })
    const newAccount = server.stripe.addAccount({ email: 'new@lumen.example' })
    await payLumenTo(newAccount)
    expect((await processOrder('1001')).statusCode).toBe(201)
    const paid = (await payments()).map((payment) => [payment.destination, payment.amount])
    expect(Object.fromEntries(paid)).toEqual({ [LUMEN_ACCOUNT]: 2484, [NORTHWIND_ACCOUNT]: 10200 })
  })

  it('of a transfer Stripe then declined at the old account goes to the account the admin set meanwhile', async () => {
    await start()
    lumenTransfersFail()
    expect((await processOrder('1001')).statusCode).toBe(502)
    const newAccount = server.stripe.addAccount({ email: 'new@lumen.example' })
    await payLumenTo(newAccount)
    // The old account was closed: Stripe declines the transfer there, and so made none.
    server.stripe.setTransfersActive(LUMEN_ACCOUNT, false)
    expect((await processOrder('1001')).statusCode).toBe(502)
    expect((await transferBrands('1001'))[1]).toMatchObject({
      transfer_destination: LUMEN_ACCOUNT,
      transfer_declined_at: expect.any(String),
    })
    expect((await processOrder('1001')).statusCode).toBe(201)
    const paid = (await payments()).map((payment) => [payment.destination, payment.amount])
    expect(Object.fromEntries(paid)).toEqual({ [newAccount]: 2484, [NORTHWIND_ACCOUNT]: 10200 })
    expect((await transferBrands('1001'))[1]).toMatchObject({ transfer_destination: newAccount })
  })

  it('of a transfer is not mistaken for another transfer of the group to the same account', async () => {
    await start()
    // Paid by hand from the platform, in the order's group, to Lumen's account.
    const byHand = await connectStripe({
      secretKey: server.stripe.secretKey,
      endpoint: server.stripe.url,
    }).createTransfer({
      amountMinor: 100,
      currency: 'USD',
      destinationAccountId: LUMEN_ACCOUNT,
      sourceTransaction: 'ch_sandbox_order_1001',
      idempotencyKey: 'by-hand',
      transferGroup: 'tandem-order-1001',
      description: 'A goodwill payment',
      metadata: {},
    })
    lumenTransfersFail()
    expect((await processOrder('1001')).statusCode).toBe(502)
    expect((await processOrder('1001')).statusCode).toBe(201)
    const lumenTransfer = (await transferBrands('1001'))[1]!.payment_transfer_id
    expect(lumenTransfer).not.toBe(byHand.id)
    expect(server.stripe.transfers().find((made) => made.id === lumenTransfer)).toMatchObject({
      amount: 2484,
      metadata: { creator_order_id: '1001', brand_shop: LUMEN },
    })
  })
})
