import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CustomerOrder, LineUnits } from '../../emulators/shopify/emulator'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { PRODUCT_NAME } from '@shared/product'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// A creator order is transferred only once paid and while it stands, for what is still sold and
// on what the customer really paid: the creator controls its store's orders (a pending order, a
// cancelled or refunded one, a discount code), so each of these is tried through the real server,
// its Shopify adapter and the emulators, and the answer and what was made are checked.

const MAYA = 'maya-makes.myshopify.com'
/** Maya's copies of Northwind's Linen Overshirt (68.00) and Lumen's Rosehip Face Oil (34.50). */
const OVERSHIRT_COPY = 'gid://shopify/ProductVariant/401'
const FACE_OIL_COPY = 'gid://shopify/ProductVariant/403'
const OVERSHIRT = 'gid://shopify/ProductVariant/201'
const FACE_OIL = 'gid://shopify/ProductVariant/203'

let server: ServerUnderTest
const { processOrder, preview, acceptPriceException } = transferCalls(() => server)

beforeEach(async () => {
  server = await startServerUnderTest({ stripeApi: { wait: async () => {} } })
})
afterEach(async () => {
  await server.close()
})

/**
 * Two overshirts and a face oil at Maya's (170.50), paid with a PaymentIntent of `amountMinor`
 * named in the order's metafield; answers the order's number.
 */
async function mayaOrder(
  amountMinor: number,
  order: Omit<CustomerOrder, 'lines' | 'metafields'> = {},
): Promise<string> {
  const lines = [
    { variantId: OVERSHIRT_COPY, quantity: 2 },
    { variantId: FACE_OIL_COPY, quantity: 1 },
  ]
  const paid = await createStripePaidOrder(
    server,
    MAYA,
    { lines, ...order },
    { amountMinor, currency: 'usd' },
  )
  return paid.orderId
}
const orderGid = (number: string) => `gid://shopify/Order/${number}`
const refund = (number: string, ...units: LineUnits[]) =>
  server.shopify.refund(MAYA, orderGid(number), units)

/** The brand orders made (in the brand shops) and the transfers Stripe made. */
const made = () => ({
  brandOrders: [NORTHWIND, LUMEN].flatMap((shop) =>
    server.shopify.orders(shop).map((order) => ({
      shop,
      lines: order.lines.map((line) => [line.variantId, line.quantity]),
    })),
  ),
  transfers: server.stripe
    .transfers()
    .map((transfer) => ({ destination: transfer.destination, amount: transfer.amount }))
    .sort((a, b) => a.destination.localeCompare(b.destination)),
})

/** Preview and processing alike refuse it with `message`; nothing ordered, paid or frozen. */
async function expectRefused(number: string, message: string) {
  const refusal = { status: 422, body: { error: 'business_rule', message } }
  const previewed = await preview(number)
  expect({ status: previewed.statusCode, body: previewed.json() }).toEqual(refusal)
  const processed = await processOrder(number)
  expect({ status: processed.statusCode, body: processed.json() }).toEqual(refusal)
  expect(made()).toEqual({ brandOrders: [], transfers: [] })
  const frozen = await server.db
    .selectFrom('order_transfers')
    .select('creator_order_id')
    .where('creator_order_id', '=', number)
    .execute()
  expect(frozen).toEqual([])
}

/** The brands agreed to SPRING10 taking their lines below their prices, for this order. */
async function acceptSpringPromotion(number: string) {
  const accepted = await acceptPriceException(
    number,
    'Northwind and Lumen joined the SPRING10 promotion',
  )
  expect(accepted.statusCode, accepted.body).toBe(200)
}

/** Processes the order and answers the preview's figures, by brand. */
async function processed(number: string) {
  const response = await processOrder(number)
  expect(response.statusCode, response.body).toBe(201)
  const { preview: done } = (await preview(number)).json()
  expect(done.status).toBe('COMPLETED')
  return done.brands.map(
    (brand: {
      brandStoreShop: string
      brandAmount: string
      creatorCommissionAmount: string
      tandemCommissionAmount: string
    }) => [
      brand.brandStoreShop,
      brand.brandAmount,
      brand.creatorCommissionAmount,
      brand.tandemCommissionAmount,
    ],
  )
}

describe('an order that is not paid, or no longer stands', () => {
  it('refuses a pending order, even one naming a PaymentIntent that succeeded', async () => {
    const number = await mayaOrder(17050, { financialStatus: 'PENDING' })
    await expectRefused(
      number,
      `Creator order #${number} is not paid (PENDING): only a paid order is transferred`,
    )
  })

  it('refuses an authorized order and a voided one', async () => {
    const authorized = await mayaOrder(17050, { financialStatus: 'AUTHORIZED' })
    await expectRefused(
      authorized,
      `Creator order #${authorized} is not paid (AUTHORIZED): only a paid order is transferred`,
    )
    const voided = await mayaOrder(17050, { financialStatus: 'VOIDED' })
    await expectRefused(
      voided,
      `Creator order #${voided} is not paid (VOIDED): only a paid order is transferred`,
    )
  })

  it('refuses a paid order the merchant cancelled', async () => {
    const number = await mayaOrder(17050)
    await server.shopify.cancel(MAYA, orderGid(number))
    const cancelledAt = server.shopify
      .orders(MAYA)
      .find((o) => o.name === `#${number}`)?.cancelledAt
    await expectRefused(
      number,
      `Creator order #${number} was cancelled (${cancelledAt}): a cancelled order is not transferred`,
    )
  })

  it('refuses an order refunded in full', async () => {
    const number = await mayaOrder(17050)
    await refund(number, { line: 0, quantity: 2 }, { line: 1, quantity: 1 })
    await expectRefused(
      number,
      `Creator order #${number} was refunded in full (REFUNDED): it has nothing left to transfer`,
    )
  })

  it('refuses an order whose brand lines were all refunded or edited away', async () => {
    const number = await mayaOrder(17050)
    // The overshirts refunded, the face oil taken off by an edit: only money for nothing is left.
    await refund(number, { line: 0, quantity: 2 })
    server.shopify.removeUnits(MAYA, orderGid(number), [{ line: 1, quantity: 1 }])
    await expectRefused(
      number,
      `Creator order #${number} has nothing left to transfer: every brand line was refunded or removed`,
    )
  })
})

describe('a transfer begun before a refund or edit', () => {
  /**
   * Processes the order with Lumen's brand order refused by Shopify: Northwind's order alone is
   * made and marked PAID (Northwind ships), and paid its 102.00 unless Stripe refuses transfers.
   */
  async function northwindOrdered(number: string, stripe: 'pays' | 'refuses' = 'pays') {
    server.shopify.script({ operation: 'orderCreate', mode: 'error', status: 503, shop: LUMEN })
    if (stripe === 'refuses') {
      server.stripe.script({ operation: 'transfers.create', mode: 'fail', status: 503, times: 100 })
    }
    expect((await processOrder(number)).statusCode).toBe(502)
    server.stripe.unscript()
    expect(made()).toEqual({
      brandOrders: [{ shop: NORTHWIND, lines: [[OVERSHIRT, 2]] }],
      transfers:
        stripe === 'pays' ? [{ destination: 'acct_sandbox_northwind_apparel', amount: 10200 }] : [],
    })
    expect(server.shopify.orders(NORTHWIND)[0]?.displayFinancialStatus).toBe('PAID')
  }

  /** The brand rows of the order's transfer, as the history keeps them. */
  const brandRows = (number: string) =>
    server.db
      .selectFrom('order_transfer_brands')
      .select([
        'brand_store_shop',
        'lines',
        'base_minor',
        'brand_amount_minor',
        'creator_commission_minor',
        'tandem_commission_minor',
        'brand_amount_settlement_minor',
        'brand_order_id',
        'payment_transfer_id',
        'pending_step',
        'failed_message',
      ])
      .where('creator_order_id', '=', number)
      .orderBy('position')
      .execute()

  /** Lumen's row once its only line was refunded before its order was made: owed nothing. */
  const lumenOwedNothing = {
    brand_store_shop: LUMEN,
    lines: '[]',
    base_minor: 0,
    brand_amount_minor: 0,
    creator_commission_minor: 0,
    tandem_commission_minor: 0,
    brand_amount_settlement_minor: 0,
    brand_order_id: null,
    payment_transfer_id: null,
    pending_step: null,
    failed_message: null,
  }

  /** What a brand is answered when its order holds more than the creator order still sells. */
  // Sentences name a store as the console does everywhere (storeName), not by its domain.
  const NAMES: Record<string, string> = {
    [LUMEN]: 'lumen botanicals',
    [NORTHWIND]: 'northwind apparel',
  }
  const oversold = (number: string, shop: string) =>
    `Creator order #${number} was refunded, edited or cancelled since ${NAMES[shop]}'s order was made: that order holds more than is still sold, so ${NAMES[shop]} is neither marked paid nor paid for it by ${PRODUCT_NAME} (paying part of a brand order is not supported yet): agree what is owed with ${NAMES[shop]}`

  /** The attempt was refused 422 with `message`. */
  const expectRefusal = (response: Awaited<ReturnType<typeof processOrder>>, message: string) =>
    expect({ status: response.statusCode, body: response.json() }).toEqual({
      status: 422,
      body: { error: 'business_rule', message },
    })

  it('pays a brand ordered and marked PAID once another brand’s unordered line is refunded', async () => {
    const number = await mayaOrder(17050)
    await northwindOrdered(number, 'refuses')
    // The customer returns the face oil: Lumen, never ordered, is owed nothing.
    await refund(number, { line: 1, quantity: 1 })
    const again = await processOrder(number)
    expect(again.statusCode, again.body).toBe(201)
    expect(again.json().brandOrders).toEqual([
      { brandStoreShop: NORTHWIND, brandOrderId: server.shopify.orders(NORTHWIND)[0]!.id },
    ])
    expect(made()).toEqual({
      brandOrders: [{ shop: NORTHWIND, lines: [[OVERSHIRT, 2]] }],
      transfers: [{ destination: 'acct_sandbox_northwind_apparel', amount: 10200 }],
    })
    // The history says what was owed: Lumen nothing, no order, no transfer.
    const [northwind, lumen] = await brandRows(number)
    expect(northwind).toMatchObject({ brand_amount_minor: 10200, pending_step: null })
    expect(lumen).toEqual(lumenOwedNothing)
    const shown = (await preview(number)).json().preview
    expect(shown.status).toBe('COMPLETED')
    expect(shown.brands.map((brand: { brandAmount: string }) => brand.brandAmount)).toEqual([
      '102.00',
      '0.00',
    ])
    // Exactly once: the next attempt finds it done.
    expect((await processOrder(number)).statusCode).toBe(409)
    expect(made().transfers).toHaveLength(1)
  })

  it('finds a brand order whose answer was lost before deciding a refunded brand is owed nothing', async () => {
    const number = await mayaOrder(17050)
    // Lumen's order is made but its answer lost; Stripe refuses Northwind's transfer.
    server.shopify.script({ operation: 'orderCreate', mode: 'drop_after_write', shop: LUMEN })
    server.stripe.script({ operation: 'transfers.create', mode: 'fail', status: 503, times: 100 })
    expect((await processOrder(number)).statusCode).toBe(502)
    server.stripe.unscript()
    expect(made().brandOrders.map((order) => order.shop)).toEqual([NORTHWIND, LUMEN])
    await refund(number, { line: 1, quantity: 1 })
    const again = await processOrder(number)
    // Lumen was ordered after all: it is not owed nothing, it holds a face oil no longer sold.
    expectRefusal(again, oversold(number, LUMEN))
    expect(made()).toEqual({
      brandOrders: [
        { shop: NORTHWIND, lines: [[OVERSHIRT, 2]] },
        { shop: LUMEN, lines: [[FACE_OIL, 1]] },
      ],
      transfers: [{ destination: 'acct_sandbox_northwind_apparel', amount: 10200 }],
    })
    const lumen = (await brandRows(number))[1]
    expect(lumen).toMatchObject({
      brand_order_id: server.shopify.orders(LUMEN)[0]!.id,
      brand_amount_minor: 2484,
      payment_transfer_id: null,
    })
    expect(server.shopify.orders(LUMEN)[0]?.displayFinancialStatus).not.toBe('PAID')
  })

  it('pays the others but not a brand ordered for units refunded since', async () => {
    const number = await mayaOrder(17050)
    await northwindOrdered(number, 'refuses')
    await refund(number, { line: 0, quantity: 1 })
    const again = await processOrder(number)
    expectRefusal(again, oversold(number, NORTHWIND))
    // Lumen, untouched by the refund, is ordered and paid its 24.84; Northwind nothing more.
    expect(made()).toEqual({
      brandOrders: [
        { shop: NORTHWIND, lines: [[OVERSHIRT, 2]] },
        { shop: LUMEN, lines: [[FACE_OIL, 1]] },
      ],
      transfers: [{ destination: 'acct_sandbox_lumen_botanicals', amount: 2484 }],
    })
    expect((await brandRows(number))[0]).toMatchObject({
      payment_transfer_id: null,
      failed_message: oversold(number, NORTHWIND),
    })
    // Every later attempt says the same, and moves nothing.
    const later = await processOrder(number)
    expect(later.json().message).toBe(oversold(number, NORTHWIND))
    expect(made().transfers).toHaveLength(1)
  })

  it('records, never repeats, a transfer made before the refund whose answer was lost', async () => {
    const number = await mayaOrder(17050)
    // Stripe makes Northwind's transfer but every answer is lost: its outcome is unknown.
    server.stripe.script({
      operation: 'transfers.create',
      mode: 'drop_after_write',
      target: 'acct_sandbox_northwind_apparel',
      times: 100,
    })
    expect((await processOrder(number)).statusCode).toBe(502)
    server.stripe.unscript()
    await refund(number, { line: 0, quantity: 1 })
    // Northwind now sells less than its order, but it was paid before: found and recorded.
    const again = await processOrder(number)
    expect(again.statusCode, again.body).toBe(201)
    expect(made().transfers).toEqual([
      { destination: 'acct_sandbox_lumen_botanicals', amount: 2484 },
      { destination: 'acct_sandbox_northwind_apparel', amount: 10200 },
    ])
    const northwindTransfer = server.stripe
      .transfers()
      .find((transfer) => transfer.destination === 'acct_sandbox_northwind_apparel')
    expect((await brandRows(number))[0]).toMatchObject({
      payment_transfer_id: northwindTransfer?.id,
      pending_step: null,
      failed_message: null,
    })
  })

  it('refuses only the brand ordered when the order is cancelled, and orders nobody more', async () => {
    const number = await mayaOrder(17050)
    await northwindOrdered(number, 'refuses')
    await server.shopify.cancel(MAYA, orderGid(number))
    const again = await processOrder(number)
    expectRefusal(again, oversold(number, NORTHWIND))
    expect(made()).toEqual({
      brandOrders: [{ shop: NORTHWIND, lines: [[OVERSHIRT, 2]] }],
      transfers: [],
    })
    expect((await brandRows(number))[1]).toEqual(lumenOwedNothing)
  })

  it('completes, ordering nobody more, once an order whose ordered brands were paid is cancelled', async () => {
    const number = await mayaOrder(17050)
    await northwindOrdered(number)
    await server.shopify.cancel(MAYA, orderGid(number))
    const again = await processOrder(number)
    expect(again.statusCode, again.body).toBe(201)
    expect(made()).toEqual({
      brandOrders: [{ shop: NORTHWIND, lines: [[OVERSHIRT, 2]] }],
      transfers: [{ destination: 'acct_sandbox_northwind_apparel', amount: 10200 }],
    })
    expect((await brandRows(number))[1]).toEqual(lumenOwedNothing)
  })

  it('refuses a brand not yet ordered whose units were only partly refunded, not the others', async () => {
    const paid = await createStripePaidOrder(
      server,
      MAYA,
      {
        lines: [
          { variantId: OVERSHIRT_COPY, quantity: 2 },
          { variantId: FACE_OIL_COPY, quantity: 2 },
        ],
      },
      { amountMinor: 20500, currency: 'usd' },
    )
    const number = paid.orderId
    server.shopify.script({ operation: 'orderCreate', mode: 'error', status: 503, shop: LUMEN })
    expect((await processOrder(number)).statusCode).toBe(502)
    await refund(number, { line: 1, quantity: 1 })
    const again = await processOrder(number)
    expectRefusal(
      again,
      `Creator order #${number} was refunded or edited since its transfer began: it now sells fewer of lumen botanicals's units than its frozen figures pay for, so lumen botanicals is neither ordered nor paid (its figures stay as frozen)`,
    )
    expect(made()).toEqual({
      brandOrders: [{ shop: NORTHWIND, lines: [[OVERSHIRT, 2]] }],
      transfers: [{ destination: 'acct_sandbox_northwind_apparel', amount: 10200 }],
    })
  })

  it('goes on for the brands still owed when only a settled brand’s line changed', async () => {
    const number = await mayaOrder(17050)
    await northwindOrdered(number)
    server.shopify.removeUnits(MAYA, orderGid(number), [{ line: 0, quantity: 1 }])
    expect((await processOrder(number)).statusCode).toBe(201)
    expect(made().transfers).toEqual([
      { destination: 'acct_sandbox_lumen_botanicals', amount: 2484 },
      { destination: 'acct_sandbox_northwind_apparel', amount: 10200 },
    ])
  })
})

describe('what is still sold, at what the customer paid', () => {
  it('transfers only what a partial refund left, exactly', async () => {
    const number = await mayaOrder(17050)
    await refund(number, { line: 0, quantity: 1 })
    // Northwind: one overshirt, 68.00 at 15 % + 10 %. Lumen: 34.50 at Maya's 20 % + 8 %.
    expect(await processed(number)).toEqual([
      [NORTHWIND, '51.00', '10.20', '6.80'],
      [LUMEN, '24.84', '6.90', '2.76'],
    ])
    expect(made()).toEqual({
      brandOrders: [
        { shop: NORTHWIND, lines: [[OVERSHIRT, 1]] },
        { shop: LUMEN, lines: [[FACE_OIL, 1]] },
      ],
      transfers: [
        { destination: 'acct_sandbox_lumen_botanicals', amount: 2484 },
        { destination: 'acct_sandbox_northwind_apparel', amount: 5100 },
      ],
    })
  })

  it('bases each brand on what the customer paid after an order-level discount code', async () => {
    // 170.50 less SPRING10's 10.00 = 160.50 paid. Shopify allocates the code 136.00 : 34.50:
    // 7.97 (+ the cent left over) = 7.98 to the overshirts, 2.02 to the face oil.
    const number = await mayaOrder(16050, { discount: { code: 'SPRING10', amountMinor: 1000 } })
    // Below the brands' prices: refused until an administrator accepts it for the order.
    expect((await processOrder(number)).statusCode).toBe(422)
    await acceptSpringPromotion(number)
    // Northwind on 128.02: 15 % = 19.203 → 19.20, 10 % = 12.802 → 12.80, the brand 96.02.
    // Lumen on 32.48: 20 % = 6.496 → 6.50, 8 % = 2.5984 → 2.60, the brand 23.38.
    expect(await processed(number)).toEqual([
      [NORTHWIND, '96.02', '19.20', '12.80'],
      [LUMEN, '23.38', '6.50', '2.60'],
    ])
    expect(made().transfers).toEqual([
      { destination: 'acct_sandbox_lumen_botanicals', amount: 2338 },
      { destination: 'acct_sandbox_northwind_apparel', amount: 9602 },
    ])
  })

  it('keeps the share of the code that belongs to the units still sold', async () => {
    const number = await mayaOrder(16050, { discount: { code: 'SPRING10', amountMinor: 1000 } })
    await acceptSpringPromotion(number)
    await refund(number, { line: 0, quantity: 1 })
    // The overshirt left keeps ceil(7.98 ÷ 2) = 3.99 of the code: 68.00 − 3.99 = 64.01, as refunded.
    // Northwind: 15 % = 9.6015 → 9.60, 10 % = 6.401 → 6.40, the brand 48.01.
    expect(await processed(number)).toEqual([
      [NORTHWIND, '48.01', '9.60', '6.40'],
      [LUMEN, '23.38', '6.50', '2.60'],
    ])
  })
})
