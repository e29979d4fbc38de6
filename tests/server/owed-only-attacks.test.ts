import { afterEach, describe, expect, it } from 'vitest'
import type { PaymentsPort } from '../../server/src/adapters/payments/payments-port'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { automaticOrders, copyOf } from './support/automatic-orders'
import {
  FOR_JOBS,
  MAYA,
  MAYA_ACCOUNT,
  ORDER_1001,
  refundWorld,
  reversal,
  transferTo,
} from './support/refund-world'

// Money moves only for what is owed (issue 45, attacks 3, 4, 9 and 12). Order 1001 of maya-makes sells
// two Linen Overshirts of Northwind (one: Northwind 51.00, Maya 10.20), a Rosehip Face Oil of
// Lumen (Lumen 24.84, Maya 6.90) and a sticker pack of Maya's own (nobody else's money).

/** What an attack would have done shows within this: waiting longer only delays its failure. */
const FOR_THE_JOB = { timeout: 10_000, interval: 100 }

const world = refundWorld()
afterEach(() => world.server().close())
const { call, setPolicy, customerPays, readiness, made, pause, resume, heldByPause, completes } =
  automaticOrders(world.server)

/** The amounts Stripe transferred to the account, as its dashboard lists them. */
const paidTo = (account: string) =>
  world
    .server()
    .stripe.transfers()
    .filter((made) => made.destination === account)
    .map((made) => made.amount)

/** What Stripe shows the account kept of its transfers: transferred less reversed. */
const kept = (account: string) => {
  const stripe = world.server().stripe
  const to = <T extends { destination: string; amount: number }>(made: T[]) =>
    made.filter((one) => one.destination === account).reduce((sum, one) => sum + one.amount, 0)
  return to(stripe.transfers()) - to(stripe.reversals())
}

/** Once the server recorded the order's refunds/create (Tandem noticed the refund). */
const refundNoticed = (orderId: string) =>
  expect
    .poll(
      async () =>
        (await world
          .server()
          .db.selectFrom('order_refund_notices')
          .select('creator_order_id')
          .where('creator_order_id', '=', orderId)
          .executeTakeFirst()) !== undefined,
      FOR_JOBS,
    )
    .toBe(true)

describe('a refund made in Shopify alone, after one the customer got back before the transfer', () => {
  it('moves no money: what the customer got back is measured from the transfer on', async () => {
    await world.start()
    // Before the transfer, an overshirt is refunded in Shopify and to the customer in Stripe:
    // the transfer pays only what is still sold.
    const overshirt = await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await refundNoticed('1001')
    await world.transfer('1001')
    expect(paidTo(NORTHWIND_ACCOUNT)).toEqual([5100])
    expect(paidTo(LUMEN_ACCOUNT)).toEqual([2484])
    // Maya: 27.30 less the refunded overshirt's 10.20.
    await expect.poll(() => paidTo(MAYA_ACCOUNT), FOR_JOBS).toEqual([1710])

    // Maya refunds the face oil in her Shopify, and nobody refunds the customer: the charge's
    // earlier refund, for the overshirt, covers nothing refunded since.
    const faceOil = await world.creatorRefunds(ORDER_1001, [{ line: 1, quantity: 1 }], {
      stripeToo: false,
    })
    await expect.poll(world.troubledJobs, FOR_THE_JOB).toEqual([
      expect.objectContaining({
        kind: 'order-refund',
        errorMessage: `Stripe shows 0.00 USD refunded of charge ch_sandbox_order_1001 since the transfer of creator order 1001 (${overshirt.amount} USD in all), less than the 34.50 USD Shopify's refunds gave back for the brands' units refunded since: nothing goes back until the customer is refunded`,
      }),
    ])
    expect(world.reversals()).toEqual([])
    // Lumen's order no longer ships the face oil the creator refunded, all the same.
    await expect.poll(() => world.brandOrder(LUMEN, '1001').cancelledAt, FOR_JOBS).not.toBeNull()

    // The customer is refunded for the face oil: Lumen and Maya give back its share, once.
    world.paymentAppRefunds(ORDER_1001.chargeId, faceOil)
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 690, '1001', MAYA),
        reversal(LUMEN_ACCOUNT, 2484, '1001', LUMEN),
      ])
  })
})

describe('a refund of a transfer frozen before Tandem recorded what the customer had been refunded', () => {
  it('moves nothing by itself when a refund came before the transfer: a person checks Stripe', async () => {
    await world.start()
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await refundNoticed('1001')
    await world.transfer('1001')
    // The refund job completion sent has looked at the order (and paid Maya what it earns her).
    await expect.poll(() => paidTo(MAYA_ACCOUNT), FOR_JOBS).toEqual([1710])
    // As a transfer frozen before migration 021 is: without what the charge was refunded then.
    await world
      .server()
      .db.updateTable('order_transfers')
      .set({ refunded_at_freeze_minor: null })
      .where('creator_order_id', '=', '1001')
      .execute()

    await world.creatorRefunds(ORDER_1001, [{ line: 1, quantity: 1 }])
    await expect.poll(world.troubledJobs, FOR_THE_JOB).toEqual([
      expect.objectContaining({
        kind: 'order-refund',
        errorMessage:
          "The transfer of creator order 1001 froze before Tandem recorded what its customer had been refunded, and a refund of it came before: nothing goes back by itself. Check in Stripe that charge ch_sandbox_order_1001 was refunded, since the transfer, at least the 34.50 USD the units refunded since cost, and reverse the brands' and creator's shares by hand",
      }),
    ])
    expect(world.reversals()).toEqual([])
  })
})

describe('a refund noticed before the order completed that owes nothing back', () => {
  it("pays the creator's commission at once", async () => {
    await world.start()
    // Stripe fails Lumen's transfer: the transfer stops with Northwind ordered and paid.
    await world.stoppedAtLumen()
    // Maya refunds her own sticker pack: nobody else's money, nothing goes back.
    await world.creatorRefunds(ORDER_1001, [{ line: 2, quantity: 1 }])
    await refundNoticed('1001')

    world.server().stripe.unscript()
    await world.transfer('1001')
    await expect.poll(() => paidTo(MAYA_ACCOUNT), FOR_THE_JOB).toEqual([2730])
    expect(paidTo(NORTHWIND_ACCOUNT)).toEqual([10200])
    expect(paidTo(LUMEN_ACCOUNT)).toEqual([2484])
    expect(world.reversals()).toEqual([])
    expect(world.brandOrder(NORTHWIND, '1001').cancelledAt).toBeNull()
  })
})

describe('a paused brand whose lines are free', () => {
  it('gets no order from the automatic transfer until it is resumed', async () => {
    await world.start()
    await setPolicy('AUTOMATIC', 0)
    const reason = 'Northwind is moving warehouses this week'
    await pause(NORTHWIND, reason)
    // A code takes the whole 68.00 off the overshirt: Northwind is owed nothing, and its line is
    // let through by a price exception.
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 0, {
      code: 'FREESHIRT',
      amountMinor: 6800,
    })
    await expect
      .poll(() => readiness(orderId), FOR_JOBS)
      .toMatchObject({ state: 'NEEDS_ATTENTION' })
    const accepted = await call('POST', '/admin-accept-price-exception', {
      creatorOrderId: orderId,
      reason: 'A gift agreed with Northwind',
    })
    expect(accepted.statusCode).toBe(200)

    await heldByPause(orderId, NORTHWIND, reason)
    expect(made()).toEqual({ brandOrders: [], transfers: [] })

    await resume(NORTHWIND)
    await completes(orderId)
    expect(made()).toEqual({
      brandOrders: [{ shop: NORTHWIND, lines: [['gid://shopify/ProductVariant/201', 1]] }],
      transfers: [],
    })
  })
})

describe('an order its creator added a line to after checkout', () => {
  it('needs attention: neither the automatic transfer nor a click orders or pays what nobody paid for', async () => {
    await world.start()
    const server = world.server()
    await setPolicy('AUTOMATIC', 0)
    // Northwind's pause keeps the order waiting while its creator edits it.
    const reason = 'Northwind is moving warehouses this week'
    await pause(NORTHWIND, reason)
    const { orderId, intentId } = await world.customerBuys({ 'linen-overshirt': 1 })
    await heldByPause(orderId, NORTHWIND, reason)

    // Maya adds Northwind's socks (18.00) to the customer's order and marks it paid by hand.
    const gid = `gid://shopify/Order/${orderId}`
    server.shopify.addUnits(MAYA, gid, copyOf('merino-crew-socks'), 1)
    await server.shopify.markAsPaid(MAYA, gid)
    const sentence = `Creator order #${orderId} totals 86.00 USD, more than the 68.00 USD its payment ${intentId} received: lines were added or prices raised after checkout, or paid outside Tandem. Check the order's edits and payments in the creator's Shopify admin, and have the creator remove or refund what the customer did not pay through Tandem. Nothing was ordered or paid`

    await resume(NORTHWIND)
    await expect
      .poll(() => readiness(orderId), FOR_THE_JOB)
      .toEqual({
        state: 'NEEDS_ATTENTION',
        // Maya's to mend, in her Shopify admin: no brand can.
        reasons: [
          {
            sentence,
            remedy: {
              party: { role: 'CREATOR', shop: MAYA },
              fix: "remove or refund, in the creator's Shopify admin, what the customer did not pay through Tandem",
              link: {
                label: "maya makes's store page",
                to: '/main/stores/maya-makes.myshopify.com?type=CREATOR',
              },
            },
          },
        ],
      })
    const clicked = await call('POST', '/admin-create-order-transfer', { creatorOrderId: orderId })
    expect(clicked.statusCode).toBe(422)
    expect(clicked.json()).toEqual({ error: 'business_rule', message: sentence })
    expect(made()).toEqual({ brandOrders: [], transfers: [] })
  })
})

describe('a refund between the order read and the charge read of the freeze', () => {
  it("takes back the refunded overshirt's 51.00 from Northwind", async () => {
    // The payments port as the server uses it, with a moment just before the charge is read.
    let beforeChargeRead: (() => Promise<void>) | null = null
    const payments = (port: PaymentsPort): PaymentsPort => ({
      ...port,
      async charge(id, options) {
        const moment = beforeChargeRead
        beforeChargeRead = null
        if (moment) await moment()
        return port.charge(id, options)
      },
    })
    await world.start({ payments })
    // A customer buys five overshirts (340.00); Northwind is owed 255.00, Maya 51.00.
    const order = await world.customerBuys({ 'linen-overshirt': 5 })
    // Maya refunds one overshirt, in Shopify and Stripe (68.00), while the transfer is under
    // way: after it read her order (five overshirts), before it read the charge (which still
    // covers what the brands are owed).
    beforeChargeRead = async () => {
      await world.creatorRefunds(order, [{ line: 0, quantity: 1 }])
    }
    await world.transfer(order.orderId)
    expect(beforeChargeRead).toBeNull()
    expect(transferTo(world.server(), NORTHWIND_ACCOUNT)?.amount).toBe(25500)
    // The customer has 68.00 back for one overshirt: Northwind keeps 204.00 of four, Maya 40.80.
    await expect.poll(() => kept(NORTHWIND_ACCOUNT), FOR_JOBS).toBe(20400)
    await expect.poll(() => kept(MAYA_ACCOUNT), FOR_JOBS).toBe(4080)
  }, 60_000)
})

describe('a refund the customer got in Stripe before its creator made it in Shopify, around the transfer', () => {
  it('takes back the overshirt once Shopify refunds it: the transfer had paid for it', async () => {
    const server = await world.start()
    const order = await world.customerBuys({ 'linen-overshirt': 5 })
    // The customer has 68.00 back in Stripe; Maya's Shopify still sells five overshirts.
    server.stripe.refund(order.chargeId, 6800)
    await world.transfer(order.orderId)
    expect(transferTo(server, NORTHWIND_ACCOUNT)?.amount).toBe(25500)
    // Maya then refunds the overshirt in Shopify alone: the customer had its money already.
    await world.creatorRefunds(order, [{ line: 0, quantity: 1 }], { stripeToo: false })
    await expect.poll(() => kept(NORTHWIND_ACCOUNT), FOR_JOBS).toBe(20400)
    await expect.poll(() => kept(MAYA_ACCOUNT), FOR_JOBS).toBe(4080)
  }, 60_000)
})
