import { afterEach, describe, expect, it } from 'vitest'
import type { Shipment } from '@shared/contract'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
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

// Refunds after refunds (issue 45, the second review of the money after the sale): a second refund
// as large as the first, and an order refunded more than ten times, are followed as the first is.
// The brand's order as Shopify keeps it (issue 46): shipped units are returned, never cancelled,
// and a cancel is Shopify's job, done a moment after it is asked for. Order figures: an overshirt
// 68.00 (Northwind 75 %: 51.00), a face oil 34.50 (Lumen 72 %: 24.84, Maya 20 %: 6.90).

const world = refundWorld()
afterEach(() => world.server().close())

/** Northwind's Linen Overshirt, of which order 1001 sells two. */
const OVERSHIRT = 'gid://shopify/ProductVariant/201'

/** The units each refund of the brand's order gave back, as the brand's Shopify admin lists them. */
const brandRefundedUnits = (shop: string, creatorOrderId: string) =>
  world
    .server()
    .shopify.refunds(shop, world.brandOrder(shop, creatorOrderId).id)
    .map((refund) => refund.lines.reduce((sum, line) => sum + line.quantity, 0))

/** A customer's three face oils, transferred: Lumen paid 74.52, Maya her 20.70. */
async function threeFaceOilsTransferred() {
  const order = await world.customerBuys({ 'rosehip-face-oil': 3 })
  await world.transfer(order.orderId)
  await expect.poll(() => transferTo(world.server(), MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2070)
  return order
}

/** Two of the three face oils refunded one at a time: Maya gives back 6.90 each, Lumen 24.84. */
const twoFaceOilsBack = (orderId: string) => [
  reversal(MAYA_ACCOUNT, 690, orderId, MAYA),
  reversal(MAYA_ACCOUNT, 690, orderId, MAYA, 1),
  reversal(LUMEN_ACCOUNT, 2484, orderId, LUMEN),
  reversal(LUMEN_ACCOUNT, 2484, orderId, LUMEN, 1),
]

describe('a second refund of as many units of the same line', () => {
  it("is made in the brand's order too, not answered by the first refund's idempotency key", async () => {
    await world.start()
    const order = await threeFaceOilsTransferred()

    // The customer returns one face oil, and a week later another: two refunds of one unit each.
    await world.creatorRefunds(order, [{ line: 0, quantity: 1 }])
    await expect.poll(() => brandRefundedUnits(LUMEN, order.orderId), FOR_JOBS).toEqual([1])
    await world.creatorRefunds(order, [{ line: 0, quantity: 1 }])
    await expect.poll(world.reversals, FOR_JOBS).toEqual(twoFaceOilsBack(order.orderId))
    // Lumen gave back 49.68 for two face oils: its order must ship one, not two.
    await expect
      .poll(() => brandRefundedUnits(LUMEN, order.orderId), { timeout: 5_000, interval: 100 })
      .toEqual([1, 1])
  }, 60_000)
})

describe('a refund made while the refund before it is being settled', () => {
  it('is taken back by a run that reads it whole, never charged to the creator as money refunded beyond the units', async () => {
    // The second face oil's refund (in Shopify, then in Stripe by her payment app) comes the moment
    // the first refund's job has refunded Lumen's order, before that job moves any money.
    const second: { refund?: () => Promise<unknown>; made?: Promise<unknown> } = {}
    await world.start({
      transferTiming: {
        failpoint: async (name) => {
          if (name !== 'brandRefund:after-call' || !second.refund || second.made) return
          second.made = second.refund()
          await second.made
        },
      },
    })
    const order = await threeFaceOilsTransferred()

    second.refund = () => world.creatorRefunds(order, [{ line: 0, quantity: 1 }])
    await world.creatorRefunds(order, [{ line: 0, quantity: 1 }])
    await expect.poll(() => second.made, FOR_JOBS).toBeDefined()
    // Two face oils came back, each refunded 34.50 in Shopify and in Stripe: Maya owes nothing
    // beyond her 6.90 for each.
    await expect.poll(world.reversals, FOR_JOBS).toEqual(twoFaceOilsBack(order.orderId))
    await expect.poll(() => world.refundsSettled(order.orderId), FOR_JOBS).toBe(true)
    expect(await world.activity('transfer.refund-beyond-units')).toEqual([])
    expect(await world.activity('transfer.reversal-owed')).toEqual([])
    expect(brandRefundedUnits(LUMEN, order.orderId)).toEqual([1, 1])
  }, 60_000)
})

describe('a refund while Stripe cannot be read', () => {
  it("refunds the brand's order at once, and moves the money once Stripe answers", async () => {
    const server = await world.start()
    const order = await threeFaceOilsTransferred()

    // Stripe fails every read of the order's payment: its refund job reads the charge before
    // anything of Shopify, and must not keep Lumen shipping the face oil the customer returned.
    server.stripe.script({
      operation: 'paymentIntents.retrieve',
      mode: 'fail',
      status: 500,
      times: 1000,
    })
    await world.creatorRefunds(order, [{ line: 0, quantity: 1 }])
    await expect.poll(() => brandRefundedUnits(LUMEN, order.orderId), FOR_JOBS).toEqual([1])
    expect(world.reversals()).toEqual([])

    server.stripe.unscript()
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 690, order.orderId, MAYA),
        reversal(LUMEN_ACCOUNT, 2484, order.orderId, LUMEN),
      ])
  }, 60_000)
})

describe('an order refunded more than ten times', () => {
  it('gives back what its eleventh refund took off, as it does for the first ten', async () => {
    await world.start()
    // Eleven face oils and an overshirt: one face oil is never refunded, so the order stays sold.
    const order = await world.customerBuys({ 'rosehip-face-oil': 11, 'linen-overshirt': 1 })
    await world.transfer(order.orderId)
    // Ten refunds of a face oil each: Lumen gives back 24.84 and Maya 6.90 each time.
    for (let refund = 0; refund < 10; refund++) {
      await world.creatorRefunds(order, [{ line: 0, quantity: 1 }])
      await expect
        .poll(
          () => world.reversals().filter((made) => made.destination === LUMEN_ACCOUNT),
          FOR_JOBS,
        )
        .toHaveLength(refund + 1)
    }
    // The eleventh: the overshirt, refunded to the customer in Shopify and Stripe (68.00).
    await world.creatorRefunds(order, [{ line: 1, quantity: 1 }])
    await expect
      .poll(
        () => world.reversals().filter((made) => made.destination === NORTHWIND_ACCOUNT),
        FOR_JOBS,
      )
      .toEqual([reversal(NORTHWIND_ACCOUNT, 5100, order.orderId, NORTHWIND)])
    // Northwind sells nothing of this order any more: it keeps nothing, and does not ship.
    expect(world.server().stripe.balance(NORTHWIND_ACCOUNT).usd).toBe(0)
    await expect.poll(() => world.brandOrder(NORTHWIND, order.orderId).cancelledAt).not.toBeNull()
  }, 120_000)
})

describe("the brand's order of a creator order refunded in full", () => {
  it('is refunded if it shipped: shipped units returned where they shipped from, the rest cancelled, the order never cancelled', async () => {
    const server = await world.transferred1001()
    const northwind = world.brandOrder(NORTHWIND, '1001')
    // Northwind ships one of its two overshirts.
    await server.shopify.fulfill(NORTHWIND, northwind.id, { lines: [{ line: 0, quantity: 1 }] })
    const shipped = (await asShopApp(
      server.shopify,
      NORTHWIND,
      'query ($id: ID!) { order(id: $id) { fulfillments { location { id } } } }',
      { id: northwind.id },
    )) as { order: { fulfillments: { location: { id: string } }[] } }
    const shippedFrom = shipped.order.fulfillments[0]!.location.id
    const stock = server.shopify.stockOf(OVERSHIRT)

    // The customer sends the one back and gets both refunded: Northwind's 102.00 and Maya's
    // 20.40 go back.
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 2 }])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 2040, '1001', MAYA),
        reversal(NORTHWIND_ACCOUNT, 10200, '1001', NORTHWIND),
      ])
    const restocks = () =>
      server.shopify.refunds(NORTHWIND, northwind.id).map((refund) =>
        refund.lines.map(({ line, quantity, restockType, locationId }) => ({
          line,
          quantity,
          restockType,
          locationId,
        })),
      )
    await expect.poll(restocks, FOR_JOBS).toEqual([
      [
        { line: 0, quantity: 1, restockType: 'CANCEL', locationId: null },
        { line: 0, quantity: 1, restockType: 'RETURN', locationId: shippedFrom },
      ],
    ])
    await expect.poll(() => world.refundsSettled('1001'), FOR_JOBS).toBe(true)
    expect({
      stock: server.shopify.stockOf(OVERSHIRT),
      cancelledAt: world.brandOrder(NORTHWIND, '1001').cancelledAt,
      activity: await world.activity('order.brand-refund'),
      cancels: await world.activity('order.brand-cancel'),
      troubled: await world.troubledJobs(),
    }).toEqual({
      stock: stock + 2,
      cancelledAt: null,
      activity: [{ brandShop: NORTHWIND, brandOrderId: northwind.id, units: 2 }],
      cancels: [],
      troubled: [],
    })
  }, 60_000)

  it("is cancelled if it never shipped, said in Activity once Shopify's job has cancelled it", async () => {
    const server = await world.transferred1001()
    // Shopify's job takes a second and a half to cancel.
    server.shopify.setCancelDelay(1500)
    const stock = server.shopify.stockOf(OVERSHIRT)
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 2 }])
    await expect.poll(() => world.activity('order.brand-cancel'), FOR_JOBS).toHaveLength(1)
    // Said once done, not when asked: the order reads cancelled, its two overshirts back in stock.
    expect({
      cancelled: world.brandOrder(NORTHWIND, '1001').cancelledAt !== null,
      stock: server.shopify.stockOf(OVERSHIRT),
      refunds: server.shopify.refunds(NORTHWIND, world.brandOrder(NORTHWIND, '1001').id),
    }).toEqual({ cancelled: true, stock: stock + 2, refunds: [] })
    await expect.poll(() => world.refundsSettled('1001'), FOR_JOBS).toBe(true)
    expect(await world.troubledJobs()).toEqual([])
    // Shipping says who cancelled it, as Activity does: Tandem, not the brand.
    const northwindShipment = async () => {
      const answer = await world.call('GET', `/admin-shipments?brandShop=${NORTHWIND}`)
      const [shipment] = answer.json().shipments as Shipment[]
      return { cancelReason: shipment?.cancelReason, cancelledBy: shipment?.cancelledBy }
    }
    await expect
      .poll(northwindShipment, FOR_JOBS)
      .toEqual({ cancelReason: expect.any(String), cancelledBy: 'TANDEM' })
  }, 60_000)
})

describe('a reversal Stripe keeps failing (review of issue 46)', () => {
  it("holds up neither the brands' orders of a later refund nor the other parties' money", async () => {
    const server = await world.transferred1001()
    // Every call to reverse Northwind's transfer fails (its account is unreachable to Stripe for
    // the day, say): the outcome of its reversal stays unknown to Tandem.
    server.stripe.script({
      operation: 'transfers.createReversal',
      mode: 'fail',
      status: 500,
      target: NORTHWIND_ACCOUNT,
      times: 1000,
    })
    // The customer returns an overshirt: Maya gives back her 10.20; Northwind's 51.00 waits.
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([reversal(MAYA_ACCOUNT, 1020, '1001', MAYA)])

    // Then the face oil: Lumen's order must stop shipping it, and Lumen's 24.84 and Maya's 6.90
    // go back, whatever Stripe answers about Northwind's transfer. Today each run of the order's
    // refund job stops at Northwind's unsettled reversal, before anything else.
    await world.creatorRefunds(ORDER_1001, [{ line: 1, quantity: 1 }])
    await expect
      .poll(
        () => ({
          lumenCancelled: world.brandOrder(LUMEN, '1001').cancelledAt !== null,
          reversals: world.reversals(),
        }),
        FOR_JOBS,
      )
      .toEqual({
        lumenCancelled: true,
        reversals: [
          reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
          reversal(MAYA_ACCOUNT, 690, '1001', MAYA, 1),
          reversal(LUMEN_ACCOUNT, 2484, '1001', LUMEN),
        ],
      })
  }, 60_000)
})
