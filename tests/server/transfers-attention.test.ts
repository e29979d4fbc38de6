import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NO_COMMISSION_1002, NORTHWIND } from '../support/sandbox-figures'
import { linkVariants } from '../../server/src/repositories/variant-links'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// The reasons a preview refuses an order until a person acts (issue 32, "needs attention"), as the
// transfer screen shows them: each names its brand by its store name and says where the fix is.
// The payout account's reasons are asked of Stripe only by processing: transfers-process.test.ts.

const MAYA = 'maya-makes.myshopify.com'
const IRONPEAK = 'ironpeak-outdoor.myshopify.com'
const variant = (id: number) => `gid://shopify/ProductVariant/${id}`
const STICKER_LINE = 'gid://shopify/LineItem/10013'

let server: ServerUnderTest
const { preview } = transferCalls(() => server)

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
      'Commission not found: ironpeak-outdoor has no default commission: set it on its store page',
    )
  })

  it('names a brand the marketplace does not know, and how it joins', async () => {
    await server.db.deleteFrom('stores').where('shop', '=', IRONPEAK).execute()
    await expectRefused(
      '1002',
      422,
      "Store not found: ironpeak-outdoor is not a brand store of the marketplace: install Tandem's brand app in it, with its app config on the Configs page",
    )
  })

  it('names a brand store Tandem is not connected to, and its app config', async () => {
    await server.shopify.uninstall(NORTHWIND)
    const response = await preview('1001')
    expect(response.statusCode).toBe(502)
    expect(response.json().message).toMatch(
      /^northwind-apparel is not connected to Tandem \(.+\): check its app config on the Configs page and reinstall Tandem's brand app in it$/,
    )
  })

  it('names a brand whose variant is gone, and the link to mend', async () => {
    await linkStickerPackTo(variant(999_999))
    await expectRefused(
      '1001',
      422,
      `Line "Sticker Pack" (${STICKER_LINE}) cannot be transferred to northwind-apparel: its ` +
        `store has no variant ${variant(999_999)} any more: link the creator's product to one ` +
        'northwind-apparel sells',
    )
  })

  it('names a brand whose product is not on sale, and where to put it on sale', async () => {
    await server.shopify.setProductStatus(NORTHWIND, 'gid://shopify/Product/101', 'ARCHIVED')
    await expectRefused(
      '1001',
      422,
      'Line "Linen Overshirt" (gid://shopify/LineItem/10011) cannot be transferred to ' +
        `northwind-apparel: its product of variant ${variant(201)} is ARCHIVED, not on sale: put ` +
        "it on sale in the Shopify admin of northwind-apparel, or link the creator's product to " +
        'one it sells',
    )
  })

  it('names a brand priced above what the customer paid, and the price exception', async () => {
    await linkStickerPackTo(variant(201))
    await expectRefused(
      '1001',
      422,
      `Line "Sticker Pack" (${STICKER_LINE}) cannot be transferred to northwind-apparel: the ` +
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
