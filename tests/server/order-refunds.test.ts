import { afterEach, describe, expect, it } from 'vitest'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import {
  FOR_JOBS,
  IRONPEAK,
  IRONPEAK_ACCOUNT,
  MAYA,
  MAYA_ACCOUNT,
  ORDER_1001,
  refundWorld,
  reversal,
} from './support/refund-world'

// After the sale (issue 33): a creator order refunded or cancelled after its transfer gives back,
// with no click, what the units no longer sold earned each party, at the rates frozen then. Order
// 1001 of maya-makes sells two Linen Overshirts of Northwind (136.00: Northwind 102.00, Maya
// 20.40, Tandem 13.60), a Rosehip Face Oil of Lumen (34.50: Lumen 24.84, Maya 6.90, Tandem 2.76)
// and a sticker pack of Maya's own.

const world = refundWorld()
afterEach(() => world.server().close())

const transferTo = (account: string, order: string) =>
  world
    .server()
    .stripe.transfers()
    .find((made) => made.destination === account && made.transferGroup === `tandem-order-${order}`)

describe('a refund after the transfer', () => {
  it("takes back one overshirt's share from Northwind and Maya, once, and refunds it in Northwind's order", async () => {
    await world.transferred1001()
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])

    // Half of Northwind's 136.00 base is no longer sold: 51.00 of its 102.00, 10.20 of Maya's
    // 20.40; Tandem's 6.80 goes back with the customer's refund. Lumen keeps all of its.
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
        reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND),
      ])
    const server = world.server()
    const northwindOrder = world.brandOrder(NORTHWIND, '1001')
    await expect
      .poll(() => server.shopify.refunds(NORTHWIND, northwindOrder.id), FOR_JOBS)
      .toEqual([
        expect.objectContaining({
          amount: '0.00',
          lines: [expect.objectContaining({ line: 0, quantity: 1, restockType: 'CANCEL' })],
        }),
      ])
    expect(server.shopify.refunds(LUMEN, world.brandOrder(LUMEN, '1001').id)).toEqual([])
    // Each reversal is recorded once Stripe answered it: wait for the record, not the transfer.
    await expect
      .poll(() => world.activity('transfer.reversal'), FOR_JOBS)
      .toEqual(
        expect.arrayContaining([
          expect.objectContaining({ party: 'BRAND', storeShop: NORTHWIND, amount: '51.00 USD' }),
          expect.objectContaining({ party: 'CREATOR', storeShop: MAYA, amount: '10.20 USD' }),
        ]),
      )

    // The other overshirt refunded after, without restocking it.
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }], {
      restockType: 'NO_RESTOCK',
    })
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
        reversal(MAYA_ACCOUNT, 1020, '1001', MAYA, 1),
        reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND),
        reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND, 1),
      ])
    // Northwind's order sells nothing any more: it is cancelled.
    await expect
      .poll(() => world.brandOrder(NORTHWIND, '1001').cancelledAt, FOR_JOBS)
      .not.toBeNull()
  })

  it("of one line of a three-brand order gives back that brand's share alone, to the cent", async () => {
    await world.start()
    const server = world.server()
    await world.setAccount(IRONPEAK, IRONPEAK_ACCOUNT)
    const rate = await world.call('POST', '/admin-set-default-commission-rate', {
      defaultCommission: {
        brandStoreShop: IRONPEAK,
        tandemCommissionRate: 12.5,
        creatorCommissionRate: 7.5,
      },
    })
    expect(rate.statusCode).toBe(200)
    // Northwind 136.00 (10 % Tandem, 15 % Maya): 102.00, 20.40, 13.60. Lumen 103.50 (8 %, Maya's
    // own 20 %): 74.52, 20.70, 8.28. Ironpeak 42.00 (12.5 %, 7.5 %): 33.60, 3.15, 5.25.
    const order = await world.customerBuys({
      'linen-overshirt': 2,
      'rosehip-face-oil': 3,
      'trail-headlamp': 1,
    })
    await world.transfer(order.orderId)
    await expect.poll(() => transferTo(MAYA_ACCOUNT, order.orderId)?.amount, FOR_JOBS).toBe(4425)

    await world.creatorRefunds(order, [{ line: 1, quantity: 1 }])
    // Lumen keeps what 69.00 would have paid: 49.68, Maya 13.80, Tandem 5.52. Back: 24.84 from
    // Lumen, 6.90 from Maya; Tandem's 2.76 went back with the customer's refund.
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 690, order.orderId, MAYA),
        reversal(LUMEN_ACCOUNT, 2484, order.orderId, LUMEN),
      ])
    const transfers = server.stripe
      .transfers()
      .filter((made) => made.transferGroup === `tandem-order-${order.orderId}`)
      .map((made) => [made.destination, made.amount])
    expect(transfers.sort()).toEqual(
      [
        [IRONPEAK_ACCOUNT, 3360],
        [LUMEN_ACCOUNT, 7452],
        [MAYA_ACCOUNT, 4425],
        [NORTHWIND_ACCOUNT, 10200],
      ].sort(),
    )
    // What each keeps is what a transfer of the lines still sold pays: 7452 − 2484 = 4968.
    expect(world.server().stripe.balance(LUMEN_ACCOUNT).usd).toBe(4968)
  })

  it('in full gives everything back from every party, and cancels every brand order', async () => {
    await world.transferred1001()
    await world.creatorRefunds(ORDER_1001, [
      { line: 0, quantity: 2 },
      { line: 1, quantity: 1 },
      { line: 2, quantity: 1 },
    ])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 2730, '1001', MAYA),
        reversal(LUMEN_ACCOUNT, 2484, '1001', LUMEN),
        reversal(NORTHWIND_ACCOUNT, 10200, '1001', NORTHWIND),
      ])
    for (const shop of [NORTHWIND, LUMEN]) {
      await expect.poll(() => world.brandOrder(shop, '1001').cancelledAt, FOR_JOBS).not.toBeNull()
    }
  })
})

describe('a cancellation', () => {
  it('before the transfer: nothing is ordered or paid', async () => {
    await world.start()
    const server = world.server()
    await server.shopify.cancel(MAYA, 'gid://shopify/Order/1001', { refund: true, restock: true })
    const processed = await world.call('POST', '/admin-create-order-transfer', {
      creatorOrderId: '1001',
    })
    expect(processed.statusCode).toBe(422)
    expect(processed.json().message).toMatch(/was cancelled/)
    expect(server.stripe.transfers()).toEqual([])
    expect(server.shopify.orders(NORTHWIND)).toEqual([])
  })

  it('after the transfer, with its refund: every party gives back, and the brand orders are cancelled', async () => {
    await world.transferred1001()
    await world.creatorCancels(ORDER_1001)
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 2730, '1001', MAYA),
        reversal(LUMEN_ACCOUNT, 2484, '1001', LUMEN),
        reversal(NORTHWIND_ACCOUNT, 10200, '1001', NORTHWIND),
      ])
    for (const shop of [NORTHWIND, LUMEN]) {
      await expect.poll(() => world.brandOrder(shop, '1001').cancelledAt, FOR_JOBS).not.toBeNull()
    }
    expect(
      (await world.activity('order.brand-cancel')).map((entry) => entry.brandShop).sort(),
    ).toEqual([LUMEN, NORTHWIND].sort())
  })
})

describe('a refund Tandem is told of', () => {
  it("moves no money until Stripe shows the customer refunded: the creator's store alone is not believed", async () => {
    await world.transferred1001()
    const refund = await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }], {
      stripeToo: false,
    })
    await expect.poll(world.troubledJobs, FOR_JOBS).toEqual([
      expect.objectContaining({
        kind: 'order-refund',
        about: { order: '#1001', shop: MAYA },
        errorMessage:
          "Stripe shows 0.00 USD refunded of charge ch_sandbox_order_1001 since the transfer of creator order 1001 (0.00 USD in all), less than the 68.00 USD Shopify's refunds gave back for the brands' units refunded since: nothing goes back until the customer is refunded",
      }),
    ])
    const server = world.server()
    expect(server.stripe.reversals()).toEqual([])
    // The order's own screen says why its refund waits, not only the Jobs page.
    const waiting = async () =>
      (await world.call('GET', '/admin-preview-order-transfer?creatorOrderId=1001')).json().preview
        .refundWaiting
    expect(await waiting()).toEqual({
      reason: expect.stringMatching(/: nothing goes back until the customer is refunded$/),
      state: 'RETRYING',
      at: expect.any(String),
    })
    // Northwind's order no longer ships the overshirt the creator refunded, all the same.
    expect(server.shopify.refunds(NORTHWIND, world.brandOrder(NORTHWIND, '1001').id)).toEqual([
      expect.objectContaining({ lines: [expect.objectContaining({ line: 0, quantity: 1 })] }),
    ])

    // The payment app refunds the customer: the next run gives back.
    world.paymentAppRefunds(ORDER_1001.chargeId, refund)
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
        reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND),
      ])
    await expect.poll(waiting, FOR_JOBS).toBeNull()
  })
})

describe('a creator editing an order after its transfer', () => {
  it('takes nothing from the brands for units it removed without refunding them, whatever Stripe refunded otherwise', async () => {
    await world.transferred1001()
    const server = world.server()
    // Maya takes an overshirt off the order (an edit, no refund), and the customer is refunded
    // 80.00 in Stripe for something else (goodwill): more than the overshirt's 68.00.
    server.shopify.removeUnits(MAYA, 'gid://shopify/Order/1001', [{ line: 0, quantity: 1 }])
    server.stripe.refund(ORDER_1001.chargeId, 8000)
    // Then she refunds the face oil, and Stripe the customer for it: Lumen gives back its share;
    // Northwind, whose overshirt nobody was refunded for, nothing. Maya gives back her face oil
    // share and pays the 80.00 goodwill: all her 27.30 goes back, and she owes the 59.60 left.
    await world.creatorRefunds(ORDER_1001, [{ line: 1, quantity: 1 }])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 2730, '1001', MAYA),
        reversal(LUMEN_ACCOUNT, 2484, '1001', LUMEN),
      ])
    await expect
      .poll(() => world.activity('transfer.reversal-owed'), FOR_JOBS)
      .toEqual([expect.objectContaining({ party: 'CREATOR', amount: '59.60 USD' })])
    expect(server.shopify.refunds(NORTHWIND, world.brandOrder(NORTHWIND, '1001').id)).toEqual([])
  })
})
