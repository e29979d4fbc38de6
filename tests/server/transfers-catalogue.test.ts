import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  LUMEN,
  LUMEN_ACCOUNT,
  NORTHWIND,
  NORTHWIND_ACCOUNT,
  order1001Brands,
} from '../support/sandbox-figures'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { linkVariants } from '../../server/src/repositories/variant-links'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'
import { signedByShop } from './support/signed-webhook'
import { transferCalls } from './support/transfer-calls'

// Which brand variant a creator's line becomes, and at what price, is decided by Tandem's own
// links and the brand's store, never by the creator's store. Each attack ends with nothing
// ordered in any brand store and nothing paid through Stripe.

const MAYA = 'maya-makes.myshopify.com'
const variant = (id: number) => `gid://shopify/ProductVariant/${id}`
/** Maya's copies: 401 the overshirt (of Northwind's 201), 403 the face oil (of Lumen's 203). */
const MAYA_STICKER_PACK = variant(406)
const OVERSHIRT = variant(201)
const FACE_OIL = variant(203)
const FACE_OIL_PRODUCT = 'gid://shopify/Product/103'

let server: ServerUnderTest
const { preview, processOrder, acceptPriceException } = transferCalls(() => server)
/** The server's clock: a test that must not see what it keeps expire holds it still. */
let clock = () => new Date()

/** Runs once Lumen's store answered a catalogue read, before its answer reaches Tandem. */
let lumenAnswered: (() => Promise<void>) | null

beforeEach(async () => {
  lumenAnswered = null
  server = await startServerUnderTest({
    stripeApi: { wait: async () => {} },
    now: () => clock(),
    commerce: (shopify) => ({
      ...shopify,
      readBrandVariants: async (shop, ids) => {
        const read = await shopify.readBrandVariants(shop, ids)
        if (shop === LUMEN) await lumenAnswered?.()
        return read
      },
    }),
  })
})

afterEach(async () => {
  clock = () => new Date()
  await server.close()
})

/** Nothing was ordered from any brand, nothing paid, and no transfer was even frozen. */
async function expectNothingMoved() {
  for (const brand of [NORTHWIND, LUMEN, 'ironpeak-outdoor.myshopify.com']) {
    expect(server.shopify.orders(brand)).toEqual([])
  }
  expect(server.stripe.transfers()).toEqual([])
  expect(await server.db.selectFrom('order_transfers').selectAll().execute()).toEqual([])
}

/** Tandem's link of Maya's sticker pack to a brand variant, as a mistaken listing would write it. */
const linkStickerPackTo = (brandStoreShop: string, brandVariantId: string) =>
  linkVariants(
    server.db,
    [
      {
        creatorStoreShop: MAYA,
        creatorVariantId: MAYA_STICKER_PACK,
        brandStoreShop,
        brandVariantId,
      },
    ],
    new Date().toISOString(),
  )

describe("a creator's edits to its own store", () => {
  it('never make its own product a brand line: the metafields it writes are not read', async () => {
    // Maya points her sticker pack at Northwind's $68 overshirt in her own admin.
    await server.shopify.editVariant(MAYA, MAYA_STICKER_PACK, {
      metafields: [
        {
          namespace: 'tandem',
          key: 'source_shop',
          value: NORTHWIND,
          type: 'single_line_text_field',
        },
        {
          namespace: 'tandem',
          key: 'source_variant',
          value: OVERSHIRT,
          type: 'single_line_text_field',
        },
      ],
    })
    // Order 1003 is two sticker packs: still the creator's own products only.
    expect((await preview('1003')).json()).toEqual({
      error: 'business_rule',
      message: 'No brand orders found',
    })
    const answer = await processOrder('1003')
    expect(answer.statusCode).toBe(422)
    expect(answer.json().message).toBe('No brand orders found')
    await expectNothingMoved()
  })
})

describe('the brand catalogue check', () => {
  it('refuses a line linked to a pricier brand variant, naming the line, the brand and the prices', async () => {
    await linkStickerPackTo(NORTHWIND, OVERSHIRT)
    const sentence =
      `Line "Sticker Pack" cannot be transferred to northwind apparel: the ` +
      "customer paid 5.00 USD a unit after discounts, below the brand's price 68.00 USD; an " +
      'administrator may accept a price exception for this order'
    // Order 1001's sticker pack is now a Northwind line; the rest of the order is fine.
    const shown = await preview('1001')
    expect(shown.statusCode).toBe(422)
    expect(shown.json().message).toBe(sentence)
    const answer = await processOrder('1001')
    expect(answer.statusCode).toBe(422)
    expect(answer.json()).toEqual({ error: 'business_rule', message: sentence })
    await expectNothingMoved()
  })

  it('refuses a line whose brand product is no longer active, or whose variant is gone', async () => {
    await server.shopify.setProductStatus(LUMEN, FACE_OIL_PRODUCT, 'DRAFT')
    await linkStickerPackTo(NORTHWIND, variant(999_999))
    const answer = await processOrder('1001')
    expect(answer.statusCode).toBe(422)
    expect(answer.json().message).toBe(
      'Line "Rosehip Face Oil" cannot be transferred to ' +
        `lumen botanicals: its product is DRAFT, not on sale: put it on ` +
        "sale in the Shopify admin of lumen botanicals, or link the creator's product to one it " +
        `sells; Line "Sticker Pack" cannot be transferred to ` +
        'northwind apparel: its store no longer has the variant it was linked to: link the ' +
        "creator's product to one northwind apparel sells",
    )
    await expectNothingMoved()
  })

  it('takes an UNLISTED brand product as on sale: only hidden from its store’s search', async () => {
    await server.shopify.setProductStatus(LUMEN, FACE_OIL_PRODUCT, 'UNLISTED')
    const shown = await preview('1001')
    expect(shown.statusCode).toBe(200)
    expect(shown.json().preview.brands).toEqual(order1001Brands())
  })

  it("compares an order in another currency at its charge's own rate, whatever the creator's store says", async () => {
    // Order 1005 sold the overshirt for 62.00 EUR; its charge settled at 1.16: 71.92 USD a unit.
    expect((await preview('1005')).statusCode).toBe(200)
    await server.shopify.editVariant(NORTHWIND, OVERSHIRT, { priceMinor: 7500 })
    const refusal =
      `Line "Linen Overshirt" cannot be transferred to ` +
      `northwind apparel: the customer paid 71.92 USD a unit after discounts, below the brand's price ` +
      '75.00 USD; an administrator may accept a price exception for this order'
    expect((await processOrder('1005')).json().message).toBe(refusal)
    // Maya raising her own price of the copy changes nothing of what the customer paid.
    await server.shopify.editVariant(MAYA, variant(401), { priceMinor: 7500 })
    const answer = await processOrder('1005')
    expect(answer.statusCode).toBe(422)
    expect(answer.json().message).toBe(refusal)
    await expectNothingMoved()
  })

  it.each([
    ['takes all of it off (the customer paid nothing)', 17_050, 'FRIENDS100', '0.00', '0.00'],
    ['takes 90 % off', 15_345, 'NINETY', '6.80', '3.45'],
  ])(
    'refuses brand goods sold below their price through a discount code that %s',
    async (_, amountMinor, code, overshirtPaid, faceOilPaid) => {
      const { orderId } = await createStripePaidOrder(
        server,
        MAYA,
        {
          lines: [
            { variantId: variant(401), quantity: 2 },
            { variantId: variant(403), quantity: 1 },
          ],
          discount: { code, amountMinor },
        },
        { amountMinor: 17_050 - amountMinor, currency: 'usd' },
      )
      const answer = await processOrder(orderId)
      expect(answer.statusCode).toBe(422)
      expect(answer.json().message).toContain(
        `the customer paid ${overshirtPaid} USD a unit after discounts, below the brand's price 68.00 USD`,
      )
      expect(answer.json().message).toContain(
        `the customer paid ${faceOilPaid} USD a unit after discounts, below the brand's price 34.50 USD`,
      )
      await expectNothingMoved()
    },
  )
})

describe('a price exception', () => {
  const REASON = 'Lumen agreed to the launch price by email on 24 November'

  it('lets one order through at the prices it accepted, audited with the reason', async () => {
    // Lumen raises the face oil from 34.50 to 36.00 after order 1001 was sold.
    await server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 3600 })
    expect((await processOrder('1001')).statusCode).toBe(422)

    const accepted = await acceptPriceException('1001', REASON)
    expect(accepted.statusCode).toBe(200)
    expect(accepted.json()).toMatchObject({
      creatorOrderId: 'gid://shopify/Order/1001',
      acceptedLines: 1,
    })
    const [entry] = await server.db.selectFrom('audit_log').selectAll().execute()
    expect(entry).toMatchObject({
      actor_email: 'claim-admin@tandem.test',
      action: 'transfer.accept-price-exception',
      target: '1001',
    })
    expect(JSON.parse(entry!.details)).toEqual({
      reason: REASON,
      lines: [
        {
          lineItemId: 'gid://shopify/LineItem/10012',
          title: 'Rosehip Face Oil',
          price: '34.50 USD',
          brandPrice: '36.00 USD',
        },
      ],
    })

    // The figures are docs/product-rules.md's: the commission base is what the customer paid.
    const shown = await preview('1001')
    expect(shown.statusCode).toBe(200)
    expect(shown.json().preview.brands).toEqual(order1001Brands())
    expect((await processOrder('1001')).statusCode).toBe(201)
    expect(
      server.stripe
        .transfers()
        .map((made) => made.amount)
        .sort(),
    ).toEqual([10200, 2484])
  })

  it('does not cover a price changed after it was accepted', async () => {
    await server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 3600 })
    expect((await acceptPriceException('1001', REASON)).statusCode).toBe(200)
    await server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 4000 })
    const answer = await processOrder('1001')
    expect(answer.statusCode).toBe(422)
    expect(answer.json().message).toContain(
      "the customer paid 34.50 USD a unit after discounts, below the brand's price 40.00 USD",
    )
    await expectNothingMoved()
  })

  it('is refused where there is nothing to accept, without a reason, and once processed', async () => {
    const none = await acceptPriceException('1001', REASON)
    expect(none.statusCode).toBe(422)
    expect(none.json().message).toBe(
      "No line of creator order #1001 is priced below its brand's price: there is no price exception to accept",
    )
    const short = await acceptPriceException('1001', 'ok')
    expect(short.statusCode).toBe(400)
    expect(short.json().message).toContain('reason')

    // Only prices can be excepted: an inactive product stays refused.
    await server.shopify.setProductStatus(LUMEN, FACE_OIL_PRODUCT, 'ARCHIVED')
    expect((await acceptPriceException('1001', REASON)).statusCode).toBe(422)
    await server.shopify.setProductStatus(LUMEN, FACE_OIL_PRODUCT, 'ACTIVE')

    expect((await processOrder('1001')).statusCode).toBe(201)
    const late = await acceptPriceException('1001', REASON)
    expect(late.statusCode).toBe(409)
    expect(late.json().message).toBe(
      'Creator order #1001 was processed already (COMPLETED): its figures are frozen, and no price exception applies to it',
    )
    expect(await server.db.selectFrom('audit_log').select('action').execute()).toEqual([
      { action: 'transfer.process' },
    ])
  })
})

/** Lumen's products/update for the face oil at 36.00, signed as Shopify signs it. */
const faceOilUpdate = () =>
  signedByShop(server, LUMEN, 'products/update', {
    id: 103,
    admin_graphql_api_id: FACE_OIL_PRODUCT,
    title: 'Rosehip Face Oil',
    status: 'active',
    updated_at: new Date().toISOString(),
    variants: [{ price: '36.00' }],
  })

describe('what a preview keeps of Shopify and Stripe for a few seconds', () => {
  const PRICE_SENTENCE =
    "the customer paid 34.50 USD a unit after discounts, below the brand's price 36.00 USD"
  /** Reads of Lumen's variants (BrandVariants asks for `nodes`), Maya's orders, Stripe's intents. */
  const reads = () => ({
    lumen: server.shopify.calls(LUMEN, 'nodes'),
    maya: server.shopify.calls(MAYA, 'order'),
    intent: server.stripe.calls().filter((call) => call.operation === 'paymentIntents.retrieve')
      .length,
  })

  it("shows a brand's new price once its products/update arrived", async () => {
    // However slow the machine, the second look comes within the cache's seconds.
    const held = new Date()
    clock = () => held
    expect((await preview('1001')).statusCode).toBe(200)
    const first = reads()
    // A second look within seconds reads neither the order, the brands' stores nor Stripe again:
    // only what Shopify finds of fraud (an `order` read too), which no webhook would tell.
    expect((await preview('1001')).statusCode).toBe(200)
    expect(reads()).toEqual({ ...first, maya: first.maya + 1 })

    // Lumen raises the face oil from 34.50 to 36.00; Shopify tells Tandem on products/update.
    await server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 3600 })
    expect((await faceOilUpdate()).statusCode).toBe(200)
    const shown = await preview('1001')
    expect(shown.statusCode).toBe(422)
    expect(shown.json().message).toContain(PRICE_SENTENCE)
    expect(reads().lumen).toBe(first.lumen + 1)
  })

  it('never decides what processing pays: processing right after a preview reads Shopify and Stripe again', async () => {
    expect((await preview('1001')).statusCode).toBe(200)
    const previewed = reads()
    // Lumen raises its price, and processing comes before its webhook does.
    await server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 3600 })
    const answer = await processOrder('1001')
    expect(answer.statusCode).toBe(422)
    expect(answer.json().message).toContain(PRICE_SENTENCE)
    // The order, its fraud signals (both `order`) and Lumen's variants, each read once more;
    // Stripe's PaymentIntent too: the payout checks run beside the plan's.
    expect(reads()).toEqual({
      lumen: previewed.lumen + 1,
      maya: previewed.maya + 2,
      intent: previewed.intent + 1,
    })
    await expectNothingMoved()
  })
})

describe('processing beside what a preview kept, and its checks at once', () => {
  const LUMEN_PRICE_REFUSAL =
    'Line "Rosehip Face Oil" cannot be transferred to lumen botanicals: the customer paid 34.50 ' +
    "USD a unit after discounts, below the brand's price 36.00 USD; an administrator may accept a " +
    'price exception for this order'
  /** What Stripe moved: each transfer's account and amount, in cents. */
  const moved = () =>
    server.stripe
      .transfers()
      .map(({ destination, amount }) => ({ destination, amount }))
      .sort((a, b) => a.destination.localeCompare(b.destination))

  it('pays for what the order still sells, though a preview a moment ago kept an overshirt the creator edited away', async () => {
    expect((await preview('1001')).json().preview.brands).toEqual(order1001Brands())
    // Maya takes one of the two overshirts off in her admin: no webhook Tandem hears says so.
    server.shopify.removeUnits(MAYA, 'gid://shopify/Order/1001', [{ line: 0, quantity: 1 }])
    // Within its seconds the preview still shows the order it kept: Northwind owed 102.00.
    expect((await preview('1001')).json().preview.brands).toEqual(order1001Brands())

    expect((await processOrder('1001')).statusCode).toBe(201)
    // Processing read the order afresh: Northwind is paid for the one overshirt still sold.
    expect(moved()).toEqual([
      { destination: LUMEN_ACCOUNT, amount: 2484 },
      { destination: NORTHWIND_ACCOUNT, amount: 5100 },
    ])
    expect(
      server.shopify
        .orders(NORTHWIND)
        .map((made) => made.lines.map((line) => [line.variantId, line.quantity])),
    ).toEqual([[[OVERSHIRT, 1]]])
  })

  it("answers the plan's refusal when Stripe's checks refuse too, and moves nothing", async () => {
    await server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 3600 })
    await server.db
      .deleteFrom('store_payment_accounts')
      .where('store_shop', '=', NORTHWIND)
      .execute()
    const answer = await processOrder('1001')
    expect(answer.statusCode).toBe(422)
    expect(answer.json().message).toBe(LUMEN_PRICE_REFUSAL)
    await expectNothingMoved()
  })

  it("does not keep a brand's catalogue read that its products/update overtook", async () => {
    // Shopify answered the old price; before the answer reaches Tandem, Lumen raises the price
    // and its products/update arrives.
    lumenAnswered = async () => {
      lumenAnswered = null
      await server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 3600 })
      expect((await faceOilUpdate()).statusCode).toBe(200)
    }
    expect((await preview('1001')).statusCode).toBe(200)
    expect(lumenAnswered).toBeNull()
    const shown = await preview('1001')
    expect(shown.statusCode).toBe(422)
    expect(shown.json().message).toBe(LUMEN_PRICE_REFUSAL)
  })

  it("writes nothing to Stripe or Shopify while a brand's catalogue read is still out, and nothing once it refuses", async () => {
    await server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 3600 })
    // Lumen's answer is slow to come: Stripe's payout checks run meanwhile.
    let whileReading = { accountsRead: -1, stripeWrites: -1, brandOrders: -1 }
    lumenAnswered = async () => {
      await new Promise((resolve) => setTimeout(resolve, 400))
      const calls = server.stripe.calls()
      whileReading = {
        accountsRead: calls.filter((call) => call.operation === 'accounts.retrieve').length,
        stripeWrites: stripeWrites(),
        brandOrders: [NORTHWIND, LUMEN].flatMap((shop) => server.shopify.orders(shop)).length,
      }
    }
    const answer = await processOrder('1001')
    expect(answer.statusCode).toBe(422)
    expect(answer.json().message).toBe(LUMEN_PRICE_REFUSAL)
    expect(whileReading).toEqual({ accountsRead: 2, stripeWrites: 0, brandOrders: 0 })
    expect(stripeWrites()).toBe(0)
    await expectNothingMoved()
  })
})

/** Requests that would change something in Stripe (every POST). */
const stripeWrites = () => server.stripe.calls().filter((call) => call.method === 'POST').length
