import { parse } from 'csv-parse/sync'
import { afterEach, describe, expect, it } from 'vitest'
import { pdfText } from '../support/pdf-text'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import {
  connectStripe,
  STRIPE_ATTEMPTS,
} from '../../server/src/adapters/payments/stripe/stripe-payments'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// The creator order's payment, through the real Stripe adapter against the Stripe emulator: one
// PaymentIntent pays for one order (its platform-written metadata names it, and Tandem holds it
// for no other), the charge must still hold what the brands are owed, and brands are paid in the
// currency the charge settled in, at its own exchange rate (order 1005: EUR charged, USD settled
// at the emulator's 1.16).

const MAYA = 'maya-makes.myshopify.com'
const URBAN = 'urban-trail-edits.myshopify.com'
const NORTHWIND_ACCOUNT = 'acct_sandbox_northwind_apparel'
const MISMATCH = 'Payment intent does not match the creator order'

let server: ServerUnderTest
const { processOrder } = transferCalls(() => server)

async function start() {
  server = await startServerUnderTest({ stripeApi: { wait: async () => {} } })
}

afterEach(async () => {
  await server.close()
})

const get = (url: string) => server.app.inject({ url, headers: server.asAdmin })

/** A paid order of `shop` for one Linen Overshirt copy, naming `paymentIntentId` in its metafield. */
async function orderNaming(paymentIntentId: string, shop = MAYA) {
  const variant = shop === MAYA ? 401 : 601
  const id = await server.shopify.createPaidOrder(shop, {
    lines: [{ variantId: `gid://shopify/ProductVariant/${variant}`, quantity: 1 }],
    metafields: [{ namespace: 'tandem', key: 'payment_intent', value: paymentIntentId }],
  })
  return id.split('/').pop()!
}

const brandOrders = () =>
  [NORTHWIND, LUMEN, 'ironpeak-outdoor.myshopify.com'].flatMap((shop) =>
    server.shopify.orders(shop),
  )

/** The order's transfer, if processing froze one. */
const frozen = (creatorOrderId: string) =>
  server.db
    .selectFrom('order_transfers')
    .where('creator_order_id', '=', creatorOrderId)
    .selectAll()
    .execute()

const heldIntents = () => server.db.selectFrom('payment_intent_orders').selectAll().execute()

/** The refusal, and nothing ordered, paid or frozen; Stripe holds only `transfersBefore`. */
async function expectRefused(creatorOrderId: string, message: string, transfersBefore = 0) {
  const response = await processOrder(creatorOrderId)
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status: 422,
    body: { error: 'business_rule', message },
  })
  expect(brandOrders()).toEqual([])
  expect(server.stripe.transfers()).toHaveLength(transfersBefore)
  expect(await frozen(creatorOrderId)).toEqual([])
}

describe('one payment, one order', () => {
  it("refuses an order naming another order's PaymentIntent, from the same creator or another", async () => {
    await start()
    const sameCreator = await orderNaming('pi_sandbox_order_1005')
    await expectRefused(
      sameCreator,
      `${MISMATCH}: pi_sandbox_order_1005 pays for creator order 1005 of ${MAYA}, not creator ` +
        `order ${sameCreator} of ${MAYA}; name this order's own PaymentIntent in its metafield. ` +
        'Nothing was ordered or paid',
    )
    const otherCreator = await orderNaming('pi_sandbox_order_1001', URBAN)
    await expectRefused(
      otherCreator,
      `${MISMATCH}: pi_sandbox_order_1001 pays for creator order 1001 of ${MAYA}, not creator ` +
        `order ${otherCreator} of ${URBAN}; name this order's own PaymentIntent in its metafield. ` +
        'Nothing was ordered or paid',
    )
    // An intent the platform wrote nothing on is nobody's payment.
    const bare = server.stripe.addPaymentIntent({ amount: 10_000, currency: 'usd' })
    const unnamed = await orderNaming(bare.id)
    await expectRefused(
      unnamed,
      `${MISMATCH}: ${bare.id} pays for no creator order, not creator order ${unnamed} of ` +
        `${MAYA}; name this order's own PaymentIntent in its metafield. Nothing was ordered or paid`,
    )
    expect(await heldIntents()).toEqual([])
    // Order 1005's own charge is untouched: it is processed as docs/product-rules.md says.
    expect((await processOrder('1005')).statusCode).toBe(201)
    expect(server.stripe.transfers().map((made) => made.amount)).toEqual([5394])
  })

  it('holds each PaymentIntent for the first order that froze a transfer, and refuses a second, naming the first', async () => {
    await start()
    expect((await processOrder('1001')).statusCode).toBe(201)
    expect(await heldIntents()).toEqual([
      {
        payment_intent_id: 'pi_sandbox_order_1001',
        creator_order_id: '1001',
        creator_store_shop: MAYA,
        held_at: expect.any(String),
      },
    ])
    const paidTransfers = server.stripe.transfers().length

    // An intent whose metadata names a new order, but which Tandem already holds for order 1001
    // (as one frozen before the metadata rule would be): one payment pays for one order.
    const intentId = 'pi_test_held_elsewhere'
    const second = await orderNaming(intentId)
    server.stripe.addPaymentIntent({
      id: intentId,
      amount: 10_000,
      currency: 'usd',
      metadata: { creator_shop: MAYA, creator_order_id: second },
    })
    await server.db
      .insertInto('payment_intent_orders')
      .values({
        payment_intent_id: intentId,
        creator_order_id: '1001',
        creator_store_shop: MAYA,
        held_at: new Date().toISOString(),
      })
      .execute()
    const northwindOrdersBefore = server.shopify.orders(NORTHWIND).length
    const response = await processOrder(second)
    expect({ status: response.statusCode, body: response.json() }).toEqual({
      status: 422,
      body: {
        error: 'business_rule',
        message:
          `${MISMATCH}: ${intentId} already pays for creator order 1001 of ${MAYA}, whose ` +
          'transfer Tandem holds; one payment pays for one order. Nothing was ordered or paid',
      },
    })
    expect(server.shopify.orders(NORTHWIND)).toHaveLength(northwindOrdersBefore)
    expect(server.stripe.transfers()).toHaveLength(paidTransfers)
    expect(await frozen(second)).toEqual([])
  })
})

describe('what the charge still holds', () => {
  it('refuses a charge refunded below what the brands are owed, saying how much it holds', async () => {
    await start()
    // 80.78 EUR charged; 40.00 refunded leaves 40.78 EUR, 47.3048 → 47.30 USD at 1.16,
    // less than Northwind's 46.50 EUR → 53.94 USD.
    server.stripe.refund('ch_sandbox_order_1005', 4000)
    await expectRefused(
      '1005',
      `${MISMATCH}: its charge ch_sandbox_order_1005 holds 47.30 USD after refunds and ` +
        "transfers, less than the 53.94 USD the brands are owed; nothing was ordered or paid (review the charge's refunds and transfers in Stripe)",
    )
    expect(await heldIntents()).toEqual([])
  })

  it('refuses a charge already transferred out, counting the transfers Stripe lists from it', async () => {
    await start()
    // 80.00 of order 1001's 197.54 USD moved out of its charge in its group (by hand, say):
    // 117.54 left, less than the brands' 126.84.
    const stripe = connectStripe({
      secretKey: server.stripe.secretKey,
      endpoint: server.stripe.url,
    })
    await stripe.createTransfer({
      amountMinor: 8000,
      currency: 'USD',
      destinationAccountId: NORTHWIND_ACCOUNT,
      sourceTransaction: 'ch_sandbox_order_1001',
      idempotencyKey: 'by-hand',
      transferGroup: 'tandem-order-1001',
      description: 'Paid by hand',
      metadata: {},
    })
    await expectRefused(
      '1001',
      `${MISMATCH}: its charge ch_sandbox_order_1001 holds 117.54 USD after refunds and ` +
        "transfers, less than the 126.84 USD the brands are owed; nothing was ordered or paid (review the charge's refunds and transfers in Stripe)",
      1,
    )
  })

  it('pays a charge that still holds exactly what is owed', async () => {
    await start()
    // 197.54 − 70.70 = 126.84 USD: Northwind's 102.00 and Lumen's 24.84, to the cent.
    server.stripe.refund('ch_sandbox_order_1001', 7070)
    expect((await processOrder('1001')).statusCode).toBe(201)
    expect(
      server.stripe
        .transfers()
        .map((made) => made.amount)
        .sort((a, b) => a - b),
    ).toEqual([2484, 10200])
  })

  it("reads the charge's transfers in one page, however many other orders were paid since", async () => {
    await start()
    // A burst: 250 transfers of other orders, each in its own group out of its own charge, made
    // after order 1001 was charged. Stripe lists no transfers by charge; listing every transfer
    // since the charge read them all, 100 a page, for each order behind them.
    const stripe = connectStripe({
      secretKey: server.stripe.secretKey,
      endpoint: server.stripe.url,
    })
    const others = server.stripe.addPaymentIntent({ amount: 1_000_000, currency: 'usd' })
    for (let i = 0; i < 250; i++) {
      await stripe.createTransfer({
        amountMinor: 100,
        currency: 'USD',
        destinationAccountId: NORTHWIND_ACCOUNT,
        sourceTransaction: others.chargeId,
        idempotencyKey: `other-${i}`,
        transferGroup: `tandem-order-${5000 + i}`,
        description: 'Another order',
        metadata: {},
      })
    }
    const before = server.stripe.calls().length
    expect((await processOrder('1001')).statusCode).toBe(201)
    const lists = server.stripe
      .calls()
      .slice(before)
      .filter((call) => call.operation === 'transfers.list')
    expect(lists).toHaveLength(1)
  })
})

describe('order 1005 (EUR) paid from a USD-settled charge', () => {
  it('converts and records on resuming a transfer frozen before settlement was recorded', async () => {
    await start()
    server.stripe.script({
      operation: 'transfers.create',
      mode: 'fail',
      status: 503,
      times: STRIPE_ATTEMPTS,
    })
    expect((await processOrder('1005')).statusCode).toBe(502)
    // As a transfer frozen before migration 007 left its row: no settlement figures.
    await server.db
      .updateTable('order_transfer_brands')
      .set({
        settlement_currency: null,
        exchange_rate: null,
        brand_amount_settlement_minor: null,
        creator_commission_settlement_minor: null,
        tandem_commission_settlement_minor: null,
      })
      .execute()
    expect((await processOrder('1005')).statusCode).toBe(201)
    expect(server.stripe.transfers().map((made) => [made.amount, made.currency])).toEqual([
      [5394, 'usd'],
    ])
    expect(
      await server.db
        .selectFrom('order_transfer_brands')
        .select(['settlement_currency', 'exchange_rate', 'brand_amount_settlement_minor'])
        .execute(),
    ).toEqual([
      { settlement_currency: 'USD', exchange_rate: '1.16', brand_amount_settlement_minor: 5394 },
    ])
  })

  it('transfers 53.94 USD (46.50 EUR at 1.16) and records, lists, exports and prints both', async () => {
    await start()
    const response = await processOrder('1005')
    expect(response.statusCode).toBe(201)
    expect(server.stripe.transfers()).toEqual([
      expect.objectContaining({
        destination: NORTHWIND_ACCOUNT,
        amount: 5394,
        currency: 'usd',
        sourceTransaction: 'ch_sandbox_order_1005',
        transferGroup: 'tandem-order-1005',
      }),
    ])
    expect(
      await server.db
        .selectFrom('order_transfer_brands')
        .select([
          'brand_amount_minor',
          'creator_commission_minor',
          'tandem_commission_minor',
          'settlement_currency',
          'exchange_rate',
          'brand_amount_settlement_minor',
          'creator_commission_settlement_minor',
          'tandem_commission_settlement_minor',
        ])
        .where('creator_order_id', '=', '1005')
        .execute(),
    ).toEqual([
      {
        brand_amount_minor: 4650,
        creator_commission_minor: 930,
        tandem_commission_minor: 620,
        settlement_currency: 'USD',
        exchange_rate: '1.16',
        // 46.50 × 1.16 = 53.94; 9.30 × 1.16 = 10.788; 6.20 × 1.16 = 7.192.
        brand_amount_settlement_minor: 5394,
        creator_commission_settlement_minor: 1079,
        tandem_commission_settlement_minor: 719,
      },
    ])

    const history = (await get('/admin-order-transfers')).json()
    expect(history.transfers[0]).toMatchObject({
      creatorOrderId: '1005',
      currency: 'EUR',
      brands: [
        {
          brandStoreShop: NORTHWIND,
          baseAmount: '62.00',
          brandAmount: '46.50',
          creatorCommissionAmount: '9.30',
          tandemCommissionAmount: '6.20',
          settlement: {
            currency: 'USD',
            exchangeRate: '1.16',
            brandAmount: '53.94',
            creatorCommissionAmount: '10.79',
            tandemCommissionAmount: '7.19',
          },
        },
      ],
    })

    const csv = (await get('/admin-order-transfers.csv')).body
    expect(parse(csv, { columns: true })).toEqual([
      expect.objectContaining({
        creatorOrderId: '1005',
        currency: 'EUR',
        brandAmount: '46.50',
        settlementCurrency: 'USD',
        exchangeRate: '1.16',
        settlementBrandAmount: '53.94',
        settlementCreatorCommissionAmount: '10.79',
        settlementTandemCommissionAmount: '7.19',
      }),
      // What the Stripe transfer moved, as the money trail has it.
      expect.objectContaining({
        entry: 'TRANSFER',
        partyStoreShop: NORTHWIND,
        movedAmount: '53.94',
        movedCurrency: 'USD',
      }),
    ])

    const receipt = await get('/admin-preview-order-transfer-receipt-pdf?creatorOrderId=1005')
    const text = await pdfText(receipt.rawPayload)
    expect(text).toContain(`${NORTHWIND} 1006 EUR 46.50 EUR 9.30 EUR 6.20`)
    expect(text).toContain("Paid out in USD, the charge's settlement currency, at EUR 1 = USD 1.16")
    expect(text).toContain(`${NORTHWIND} 1006 USD 53.94 USD 10.79 USD 7.19`)
    expect(text).toContain('Total USD 53.94 USD 10.79 USD 7.19')
  })
})
