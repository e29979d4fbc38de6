import { afterEach, describe, expect, it } from 'vitest'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { BRAND_PRODUCTS, creatorVariantId } from '../../server/src/seed/sandbox-data'
import {
  asShopApp,
  FOR_JOBS,
  MAYA,
  MAYA_ACCOUNT,
  ORDER_1001,
  refundWorld,
  reversal,
  transferTo,
} from './support/refund-world'

// The money after the sale, from the second adversarial review (issue 45, findings 3 to 6): what
// counts as the customer's refund, and who pays what was refunded beyond the units. Order figures: an overshirt
// 68.00 (Northwind 75 %: 51.00, Maya 15 %: 10.20), a face oil 34.50 (Lumen 72 %: 24.84, Maya
// 20 %: 6.90).

const world = refundWorld()
afterEach(() => world.server().close())

/** Maya's listing of Lumen's face oil. */
const FACE_OIL = creatorVariantId(
  MAYA,
  BRAND_PRODUCTS.findIndex((product) => product.key === 'rosehip-face-oil'),
)

describe("a refund of the creator's own products", () => {
  it("does not stand for the customer's refund of a brand's units that Shopify alone refunded", async () => {
    const server = await world.start()
    // A face oil (34.50) and seven of Maya's own sticker packs (5.00 each), paid through Stripe.
    const stickers = creatorVariantId(MAYA, BRAND_PRODUCTS.length)
    const order = await createStripePaidOrder(
      server,
      MAYA,
      {
        lines: [
          { variantId: FACE_OIL, quantity: 1 },
          { variantId: stickers, quantity: 7 },
        ],
      },
      { amountMinor: 3450 + 7 * 500, currency: 'usd' },
    )
    await world.transfer(order.orderId)
    await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(690)

    // The sticker packs come back: the customer is refunded their 35.00 in Shopify and Stripe.
    await world.creatorRefunds(order, [{ line: 1, quantity: 7 }])
    // Its refund job ends (nothing goes back from a brand) before the next refund, whose job is
    // then the one that cannot settle.
    await expect.poll(() => world.refundsSettled(order.orderId), FOR_JOBS).toBe(true)
    // Maya then refunds the face oil in Shopify alone: the customer gets nothing back for it.
    await world.creatorRefunds(order, [{ line: 0, quantity: 1 }], { stripeToo: false })
    // Stripe shows 35.00 refunded, all of it for Maya's stickers: nothing goes back from Lumen or
    // Maya until the customer is refunded for the face oil, and the refund job says so.
    await expect
      .poll(
        async () => ({
          refundJobs: (await world.troubledJobs()).map((job) => [job.kind, job.errorMessage]),
          reversals: world.reversals(),
        }),
        FOR_JOBS,
      )
      .toEqual({
        refundJobs: [
          [
            'order-refund',
            expect.stringContaining(
              `Stripe shows 35.00 USD refunded of charge ${order.chargeId} in all, less than the 69.50 USD the refunds of creator order ${order.orderId} gave back in Shopify`,
            ),
          ],
        ],
        reversals: [],
      })
  }, 60_000)
})

describe('a refund of some units of a discounted line', () => {
  it("gives back the brand's share although Shopify rounds the units' discount share its own way", async () => {
    const server = await world.start()
    // Three face oils (103.50) less a 1.00 code: 102.50 paid. Lumen 73.80, Maya 20.50.
    const order = await createStripePaidOrder(
      server,
      MAYA,
      {
        lines: [{ variantId: FACE_OIL, quantity: 3 }],
        discount: { code: 'WELCOME', amountMinor: 100 },
      },
      { amountMinor: 10250, currency: 'usd' },
    )
    // 34.16 a unit is below Lumen's 34.50: an administrator accepts it, as for any promotion.
    const accepted = await world.call('POST', '/admin-accept-price-exception', {
      creatorOrderId: order.orderId,
      reason: 'Welcome code agreed with Lumen',
    })
    expect(accepted.statusCode).toBe(200)
    await world.transfer(order.orderId)
    await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2050)

    // One face oil comes back: Shopify refunds it 34.16 (a third of 102.50, rounded down), and
    // Stripe the customer as much. Tandem's base of the two left keeps 0.67 of the discount
    // (68.33): the one refunded is worth 34.17 to it, a cent more than the customer got.
    const refund = await world.creatorRefunds(order, [{ line: 0, quantity: 1 }])
    expect(refund.amount).toBe('34.16')
    // Lumen keeps what 68.33 pays it (49.19), Maya 13.67: 24.61 and 6.83 go back.
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 683, order.orderId, MAYA),
        reversal(LUMEN_ACCOUNT, 2461, order.orderId, LUMEN),
      ])
  }, 60_000)
})

/**
 * What the platform keeps of a creator order's charge, as its Stripe dashboard adds it up: what
 * the charge took in, less what went back to the customer and what the order's transfers moved
 * out, plus what their reversals brought back.
 */
function platformKeeps(order: string, capturedMinor: number, refundedMinor: number) {
  const stripe = world.server().stripe
  const out = stripe
    .transfers()
    .filter((made) => made.transferGroup === `tandem-order-${order}`)
    .reduce((sum, made) => sum + made.amount, 0)
  const back = stripe
    .reversals()
    .filter((made) => made.metadata.creator_order_id === order)
    .reduce((sum, made) => sum + made.amount, 0)
  return capturedMinor - refundedMinor - out + back
}

describe('a creator refunding money beyond the units she gives back', () => {
  it('pays for it herself: the platform is not left out of pocket while she keeps her commission', async () => {
    const server = await world.transferred1001()
    // Of order 1001's 197.54 the platform kept 43.40 (its 16.36, tax 14.04, shipping 8.00, the
    // sticker pack 5.00): Northwind and Lumen were paid 126.84 and Maya 27.30.
    expect(platformKeeps('1001', 19754, 0)).toBe(4340)
    // Maya refunds her own sticker pack in Shopify and types 70.70 as the amount: her payment
    // app refunds the customer 70.70 through Stripe. The brands' goods still ship.
    await server.shopify.refund(MAYA, 'gid://shopify/Order/1001', [{ line: 2, quantity: 1 }])
    server.stripe.refund(ORDER_1001.chargeId, 7070)
    // The 27.30 beyond what the platform held comes back from Maya's commission on the order.
    await expect.poll(() => platformKeeps('1001', 19754, 7070), FOR_JOBS).toBe(0)
    expect(world.reversals()).toEqual([reversal(MAYA_ACCOUNT, 2730, '1001', MAYA)])
    // Activity says why, once; and that she owes the 38.40 her commission could not carry.
    const why =
      'The customer of creator order 1001 was refunded 65.70 USD in Stripe beyond what its refunds gave back for units, tax and shipping: the creator refunded it, so she pays it from her commission on the order, and owes what that cannot carry'
    await expect
      .poll(() => world.activity('transfer.reversal-owed'), FOR_JOBS)
      .toEqual([
        expect.objectContaining({
          party: 'CREATOR',
          storeShop: MAYA,
          amount: '38.40 USD',
          reason: why,
        }),
      ])
    expect(await world.activity('transfer.refund-beyond-units')).toEqual([
      { party: 'CREATOR', amount: '65.70 USD', reason: why },
    ])
  }, 60_000)
})

/** A GraphQL request to Maya's Admin API, as her own app (whose secret she holds) makes it. */
const asMaya = (query: string, variables: object) =>
  asShopApp(world.server().shopify, MAYA, query, variables)

describe('an order refunded in full as money, after the brands shipped', () => {
  it('takes nothing back from brands whose goods were shipped and never refunded', async () => {
    const server = await world.transferred1001()
    // Northwind and Lumen ship order 1001.
    for (const shop of [NORTHWIND, LUMEN]) {
      await server.shopify.fulfill(shop, world.brandOrder(shop, '1001').id)
    }
    // Maya refunds the customer the whole 197.54 as money, no item refunded or returned: the
    // customer keeps the goods. Her payment app refunds the charge as much.
    const { order } = (await asMaya(
      'query ($id: ID!) { order(id: $id) { transactions { id kind gateway } } }',
      { id: 'gid://shopify/Order/1001' },
    )) as { order: { transactions: { id: string; kind: string; gateway: string }[] } }
    const sale = order.transactions.find((transaction) => transaction.kind === 'SALE')!
    const { refundCreate } = (await asMaya(
      `mutation ($input: RefundInput!) {
        refundCreate(input: $input) @idempotent(key: "goodwill-1001") {
          order { displayFinancialStatus } userErrors { message } } }`,
      {
        input: {
          orderId: 'gid://shopify/Order/1001',
          note: 'Goodwill',
          transactions: [
            {
              orderId: 'gid://shopify/Order/1001',
              parentId: sale.id,
              gateway: sale.gateway,
              kind: 'REFUND',
              amount: '197.54',
            },
          ],
        },
      },
    )) as { refundCreate: { order: { displayFinancialStatus: string }; userErrors: unknown[] } }
    expect(refundCreate).toEqual({ order: { displayFinancialStatus: 'REFUNDED' }, userErrors: [] })
    server.stripe.refund(ORDER_1001.chargeId, 19754)

    // Whatever Maya's refund costs her, the brands shipped what they were paid for: they keep it.
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toContainEqual(reversal(MAYA_ACCOUNT, 2730, '1001', MAYA))
    expect({
      reversals: world.reversals().filter((made) => made.destination !== MAYA_ACCOUNT),
      northwind: server.stripe.balance(NORTHWIND_ACCOUNT).usd,
      lumen: server.stripe.balance(LUMEN_ACCOUNT).usd,
      cancelled: [NORTHWIND, LUMEN].map((shop) => world.brandOrder(shop, '1001').cancelledAt),
    }).toEqual({ reversals: [], northwind: 10200, lumen: 2484, cancelled: [null, null] })
  }, 60_000)
})
