import { afterEach, describe, expect, it } from 'vitest'
import { ATTENTION_RECHECK_JOB } from '../../server/src/services/automatic-transfers'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { automaticOrders } from './support/automatic-orders'
import {
  FOR_JOBS,
  MAYA,
  MAYA_ACCOUNT,
  ORDER_1001,
  refundWorld,
  reversal,
} from './support/refund-world'
import { signedByShop } from './support/signed-webhook'

// Shopify's compliance webhooks against the money after the sale (issue 45): a shop's erasure
// renames it, and a customer's erasure blanks what names the customer, but neither makes a brand
// give back twice nor lets a creator's order escape its refund or an administrator's hold. A
// creator holds its own app's secret and signs its own customers/redact whenever it likes.
//
// Order 1001 of maya-makes, transferred: Northwind was paid 102.00 for two Linen Overshirts (line
// 0), Lumen 24.84 for a face oil (line 1), Maya her commission of 27.30. One overshirt refunded
// gives back 51.00 from Northwind and 10.20 from Maya; the face oil 24.84 from Lumen and 6.90 from
// Maya.

const world = refundWorld()
afterEach(() => world.server().close())

/** Maya asks, for the customer of her order, that Tandem erase what it holds on them. */
async function mayaRedactsCustomerOf(orderId: string) {
  const redact = {
    shop_id: 2,
    shop_domain: MAYA,
    customer: { id: 7001, email: 'jane.gdpr@example.com', phone: null },
    orders_to_redact: [Number(orderId)],
  }
  const sent = await signedByShop(world.server(), MAYA, 'customers/redact', redact)
  expect(sent.statusCode).toBe(200)
  await expect.poll(() => world.activity('privacy.customer-redact'), FOR_JOBS).toHaveLength(1)
}

/** What each account holds in Stripe, in cents. */
const balances = () =>
  Object.fromEntries(
    [MAYA_ACCOUNT, NORTHWIND_ACCOUNT, LUMEN_ACCOUNT].map((account) => [
      account,
      world.server().stripe.balance(account).usd,
    ]),
  )

/** What one overshirt refunded gives back: 10.20 of Maya's commission, 51.00 of Northwind's. */
const ONE_OVERSHIRT_BACK = [
  reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
  reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND),
]

/** The refunds of the brand's order of 1001, as the brand's Shopify admin lists them. */
const brandRefunds = (shop: string) =>
  world.server().shopify.refunds(shop, world.brandOrder(shop, '1001').id)

describe("a brand's erasure (shop/redact) after a refund", () => {
  it('takes back nothing of the brand a second time when the order is refunded again', async () => {
    await world.transferred1001()
    const server = world.server()
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect.poll(world.reversals, FOR_JOBS).toEqual(ONE_OVERSHIRT_BACK)
    await expect.poll(() => brandRefunds(NORTHWIND), FOR_JOBS).toHaveLength(1)

    // Northwind uninstalls the app; 48 hours on, Shopify asks for its erasure.
    await server.shopify.uninstall(NORTHWIND)
    const redact = { shop_id: 1, shop_domain: NORTHWIND }
    expect((await signedByShop(server, NORTHWIND, 'shop/redact', redact)).statusCode).toBe(200)
    await expect.poll(() => world.activity('privacy.shop-redact'), FOR_JOBS).toHaveLength(1)

    // Maya refunds the face oil: Lumen and Maya give back its share, and Northwind, which gave
    // back its 51.00 already, nothing more.
    await world.creatorRefunds(ORDER_1001, [{ line: 1, quantity: 1 }])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
        reversal(MAYA_ACCOUNT, 690, '1001', MAYA, 1),
        reversal(LUMEN_ACCOUNT, 2484, '1001', LUMEN),
        reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND),
      ])
    await expect.poll(() => world.brandOrder(LUMEN, '1001').cancelledAt, FOR_JOBS).not.toBeNull()
    expect(balances()).toEqual({
      [MAYA_ACCOUNT]: 2730 - 1020 - 690,
      [NORTHWIND_ACCOUNT]: 10200 - 5100,
      [LUMEN_ACCOUNT]: 0,
    })
    // Northwind's order refunded its one overshirt, once.
    expect(brandRefunds(NORTHWIND)).toEqual([
      expect.objectContaining({ lines: [expect.objectContaining({ line: 0, quantity: 1 })] }),
    ])
  })
})

describe("a creator's customers/redact of its own order", () => {
  it('does not take the order out of its refund: every party gives back, and the brand refunds', async () => {
    await world.transferred1001()
    await mayaRedactsCustomerOf('1001')

    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect.poll(world.reversals, FOR_JOBS).toEqual(ONE_OVERSHIRT_BACK)
    // Northwind's order no longer ships the overshirt.
    await expect
      .poll(() => brandRefunds(NORTHWIND), FOR_JOBS)
      .toEqual([
        expect.objectContaining({
          amount: '0.00',
          lines: [expect.objectContaining({ line: 0, quantity: 1, restockType: 'CANCEL' })],
        }),
      ])
    expect(balances()).toEqual({
      [MAYA_ACCOUNT]: 2730 - 1020,
      [NORTHWIND_ACCOUNT]: 10200 - 5100,
      [LUMEN_ACCOUNT]: 2484,
    })
  })

  it('does not take the order out of its cancellation: everything is given back, every brand order cancelled', async () => {
    await world.transferred1001()
    await mayaRedactsCustomerOf('1001')

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
    expect(balances()).toEqual({ [MAYA_ACCOUNT]: 0, [NORTHWIND_ACCOUNT]: 0, [LUMEN_ACCOUNT]: 0 })
  })

  it('leaves an automatic order in the inbox, where an administrator holds it, and the hold stops its job', async () => {
    /** The server's clock, ahead of the queue's by this much. */
    let aheadMs = 0
    await world.start({ now: () => new Date(Date.now() + aheadMs) })
    const server = world.server()
    const { setPolicy, customerPays, readiness, made } = automaticOrders(world.server)
    await setPolicy('AUTOMATIC', 30)
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect.poll(() => readiness(orderId), FOR_JOBS).toMatchObject({ state: 'WAITING' })

    await mayaRedactsCustomerOf(orderId)
    // Still in the inbox, waiting out its hold.
    expect(await readiness(orderId)).toMatchObject({ state: 'WAITING' })
    const reason = 'The customer asked for their data to be erased: checking the order first'
    const held = await world.call('POST', '/admin-hold-order', { creatorOrderId: orderId, reason })
    expect(held.statusCode).toBe(200)
    expect(await readiness(orderId)).toEqual({
      state: 'HELD',
      reason,
      by: 'claim-admin@tandem.test',
      since: expect.any(String),
    })

    // Two hours on, long past its hold: the recheck runs the order's job, which finds it held.
    aheadMs = 2 * 60 * 60_000
    await server.jobs.send(ATTENTION_RECHECK_JOB, {})
    await expect
      .poll(
        async () =>
          (
            await server.db
              .selectFrom('order_automation')
              .select('state')
              .where('creator_order_id', '=', orderId)
              .executeTakeFirstOrThrow()
          ).state,
        FOR_JOBS,
      )
      .toBe('HELD')
    expect(made()).toEqual({ brandOrders: [], transfers: [] })
    expect(await readiness(orderId)).toMatchObject({ state: 'HELD', reason })
  })
})
