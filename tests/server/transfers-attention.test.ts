import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  LUMEN,
  LUMEN_ACCOUNT,
  NO_COMMISSION_1002,
  NORTHWIND,
  NORTHWIND_ACCOUNT,
} from '../support/sandbox-figures'
import { linkVariants } from '../../server/src/repositories/variant-links'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// The reasons a preview refuses an order until a person acts (issue 32, "needs attention"), as the
// transfer screen shows them: each names its brand by its store name and says where the fix is.
// The payout account's reasons are asked of Stripe only by processing: transfers-process.test.ts.

const MAYA = 'maya-makes.myshopify.com'
const IRONPEAK = 'ironpeak-outdoor.myshopify.com'
const variant = (id: number) => `gid://shopify/ProductVariant/${id}`

let server: ServerUnderTest
const { preview, processOrder } = transferCalls(() => server)

beforeEach(async () => {
  server = await startServerUnderTest({ stripeApi: { wait: async () => {} } })
})

afterEach(async () => {
  await server.close()
})

/** Order 1001's sticker pack, Maya's own product, linked to a Northwind variant. */
const linkStickerPackTo = (brandVariantId: string) =>
  linkVariants(
    server.db,
    [
      {
        creatorStoreShop: MAYA,
        creatorVariantId: variant(406),
        brandStoreShop: NORTHWIND,
        brandVariantId,
      },
    ],
    new Date().toISOString(),
  )

async function expectRefused(creatorOrderId: string, status: number, message: string) {
  const response = await preview(creatorOrderId)
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: { error: status === 422 ? 'business_rule' : 'upstream_failed', message },
  })
}

describe('a preview that needs attention', () => {
  it('names a brand without a default commission, and its store page', async () => {
    await expectRefused('1002', 422, NO_COMMISSION_1002)
    expect(NO_COMMISSION_1002).toBe(
      'Commission not found: ironpeak outdoor has no default commission: set it on its store page',
    )
  })

  it('names a brand the marketplace does not know, and how it joins', async () => {
    await server.db.deleteFrom('stores').where('shop', '=', IRONPEAK).execute()
    await expectRefused(
      '1002',
      422,
      "Store not found: ironpeak outdoor is not a brand store of the marketplace: install Tandem's brand app in it, with its app config on the Configs page",
    )
  })

  it('names a brand store Tandem is not connected to, and its app config', async () => {
    await server.shopify.uninstall(NORTHWIND)
    const response = await preview('1001')
    expect(response.statusCode).toBe(502)
    expect(response.json().message).toMatch(
      /^northwind apparel is not connected to Tandem \(.+\): check its app config on the Configs page and reinstall Tandem's brand app in it$/,
    )
  })

  it('names a brand whose variant is gone, and the link to mend', async () => {
    await linkStickerPackTo(variant(999_999))
    await expectRefused(
      '1001',
      422,
      `Line "Sticker Pack" cannot be transferred to northwind apparel: its ` +
        "store no longer has the variant it was linked to: link the creator's product to one " +
        'northwind apparel sells',
    )
  })

  it('names a brand whose product is not on sale, and where to put it on sale', async () => {
    await server.shopify.setProductStatus(NORTHWIND, 'gid://shopify/Product/101', 'ARCHIVED')
    await expectRefused(
      '1001',
      422,
      'Line "Linen Overshirt" cannot be transferred to ' +
        `northwind apparel: its product is ARCHIVED, not on sale: put ` +
        "it on sale in the Shopify admin of northwind apparel, or link the creator's product to " +
        'one it sells',
    )
  })

  it('names a brand priced above what the customer paid, and the price exception', async () => {
    await linkStickerPackTo(variant(201))
    await expectRefused(
      '1001',
      422,
      `Line "Sticker Pack" cannot be transferred to northwind apparel: the ` +
        "customer paid 5.00 USD a unit after discounts, below the brand's price 68.00 USD; an " +
        'administrator may accept a price exception for this order',
    )
  })
})

describe('a preview with nothing to transfer', () => {
  it('says so in the specification’s words for an order of no brand lines (1003)', async () => {
    await expectRefused('1003', 422, 'No brand orders found')
  })
})

describe('an order Shopify found a risk of fraud on', () => {
  const ORDER_1001 = 'gid://shopify/Order/1001'
  const REVIEW =
    "Review it in maya makes's Shopify admin and cancel it there if it is fraud; an administrator may release it for transfer once satisfied that the order is genuine"
  const release = (reason: string) =>
    server.app.inject({
      method: 'POST',
      url: '/admin-release-fraud-check',
      headers: server.asAdmin,
      payload: { creatorOrderId: '1001', reason },
    })
  /** What was made for order 1001: brand orders in the brands' Shopify, transfers in Stripe. */
  const made = () => ({
    brandOrders: [NORTHWIND, LUMEN].flatMap((shop) =>
      server.shopify.orders(shop).filter((order) => order.tags.includes('tandem-transfer-1001')),
    ).length,
    transfers: server.stripe
      .transfers()
      .map(({ destination, amount }) => ({ destination, amount }))
      .sort((a, b) => a.destination.localeCompare(b.destination)),
  })

  it('is refused, on preview and click, until an administrator releases what Shopify found; then paid to the cent', async () => {
    // An app's assessment rates the order a medium risk: Shopify recommends investigating it.
    server.shopify.assessRisk(MAYA, ORDER_1001, {
      riskLevel: 'MEDIUM',
      provider: 'Fraud Filter',
      facts: [{ description: 'Shipping and billing countries differ', sentiment: 'NEGATIVE' }],
    })
    const investigate =
      'Creator order #1001 may be fraudulent: Shopify recommends investigating it; Fraud Filter rates its risk of fraud medium (Shipping and billing countries differ). ' +
      REVIEW
    await expectRefused('1001', 422, investigate)
    const clicked = await processOrder('1001')
    expect({ status: clicked.statusCode, body: clicked.json() }).toEqual({
      status: 422,
      body: { error: 'business_rule', message: investigate },
    })
    expect(made()).toEqual({ brandOrders: 0, transfers: [] })

    const released = await release('The customer ships to a relative abroad; confirmed by phone')
    expect({ status: released.statusCode, body: released.json() }).toEqual({
      status: 200,
      body: {
        creatorOrderId: ORDER_1001,
        findings:
          'Shopify recommends investigating it; Fraud Filter rates its risk of fraud medium (Shipping and billing countries differ)',
        releasedAt: expect.any(String),
      },
    })
    // Shopify then finds more: the release does not cover it.
    await server.shopify.holdFulfillment(MAYA, ORDER_1001, 'HIGH_RISK_OF_FRAUD')
    await expectRefused(
      '1001',
      422,
      'Creator order #1001 may be fraudulent: Shopify recommends investigating it; Fraud Filter rates its risk of fraud medium (Shipping and billing countries differ); its fulfillment is on hold for a high risk of fraud. ' +
        REVIEW,
    )
    expect(
      (await release('Looked again: the hold is the same order, still genuine')).statusCode,
    ).toBe(200)

    const processed = await processOrder('1001')
    expect(processed.json()).toMatchObject({ status: 'COMPLETED' })
    // Northwind's two overshirts (102.00) and Lumen's face oil (24.84).
    expect(made()).toEqual({
      brandOrders: 2,
      transfers: [
        { destination: LUMEN_ACCOUNT, amount: 2484 },
        { destination: NORTHWIND_ACCOUNT, amount: 10200 },
      ],
    })
  })

  it('stops a transfer begun before Shopify found it from going on, until released', async () => {
    // Stripe fails Lumen's transfer: Northwind is ordered and paid, Lumen ordered only.
    server.stripe.script({
      operation: 'transfers.create',
      mode: 'fail',
      status: 500,
      target: LUMEN_ACCOUNT,
      times: 1000,
    })
    expect((await processOrder('1001')).statusCode).toBe(502)
    const northwindPaid = { destination: NORTHWIND_ACCOUNT, amount: 10200 }
    expect(made()).toEqual({ brandOrders: 2, transfers: [northwindPaid] })
    server.stripe.unscript()
    server.shopify.assessRisk(MAYA, ORDER_1001, { riskLevel: 'HIGH', provider: null, facts: [] })

    const resumed = await processOrder('1001')
    expect({ status: resumed.statusCode, body: resumed.json() }).toEqual({
      status: 422,
      body: {
        error: 'business_rule',
        message: `Creator order #1001 may be fraudulent: Shopify recommends cancelling it; Shopify rates its risk of fraud high. ${REVIEW}`,
      },
    })
    expect(made()).toEqual({ brandOrders: 2, transfers: [northwindPaid] })
    expect((await release('Checked with the customer: a genuine order')).statusCode).toBe(200)
    expect((await processOrder('1001')).json()).toMatchObject({ status: 'COMPLETED' })
    expect(made()).toEqual({
      brandOrders: 2,
      transfers: [{ destination: LUMEN_ACCOUNT, amount: 2484 }, northwindPaid],
    })
  })

  it("refuses a click while Shopify's fraud analysis is pending, and transfers once it is done", async () => {
    // Shopify's own analysis is under way; an app rated the order low already.
    server.shopify.assessRisk(MAYA, ORDER_1001, { riskLevel: 'PENDING', provider: null, facts: [] })
    server.shopify.assessRisk(MAYA, ORDER_1001, {
      riskLevel: 'LOW',
      provider: 'Fraud Filter',
      facts: [],
    })
    const clicked = await processOrder('1001')
    expect({ status: clicked.statusCode, body: clicked.json() }).toEqual({
      status: 409,
      body: {
        error: 'conflict',
        message:
          "Shopify's fraud analysis of creator order #1001 is still under way: try again in a few minutes, once it has rated the order",
      },
    })
    expect(made()).toEqual({ brandOrders: 0, transfers: [] })

    server.shopify.assessRisk(MAYA, ORDER_1001, { riskLevel: 'LOW', provider: null, facts: [] })
    expect((await processOrder('1001')).json()).toMatchObject({ status: 'COMPLETED' })
    expect(made()).toEqual({
      brandOrders: 2,
      transfers: [
        { destination: LUMEN_ACCOUNT, amount: 2484 },
        { destination: NORTHWIND_ACCOUNT, amount: 10200 },
      ],
    })
  })

  it('has nothing to release while Shopify finds nothing', async () => {
    const released = await release('Nothing was found, but release it anyway')
    expect({ status: released.statusCode, body: released.json() }).toEqual({
      status: 422,
      body: {
        error: 'business_rule',
        message:
          'Shopify finds no risk of fraud on creator order #1001: there is nothing to release',
      },
    })
  })
})
