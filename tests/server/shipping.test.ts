import { afterEach, describe, expect, it } from 'vitest'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { brandVariantId, creatorVariantId, sandboxApp } from '../../server/src/seed/sandbox-data'
import { INSTALL_SCOPES } from '../../server/src/services/shop-connections'
import { catchUpShipments } from '../../server/src/shipping/shipping-catch-up'
import { postWebhook, signBody } from './support/signed-webhook'
import { MAYA_ACCOUNT, ORDER_1001, reversal, transferTo } from './support/refund-world'
import {
  CREATOR_1001,
  FOR_JOBS,
  LUMEN,
  MAYA,
  NORTHWIND,
  UPS,
  shippingWorld,
} from './support/shipping-world'
import { NORTHWIND_ACCOUNT } from '../support/sandbox-figures'

// Shipping (issue 35): what a brand ships of an order Tandem made reaches the creator's order in
// the creator's Shopify, once, with the brand's tracking, and the Shipping screen's list shows
// each brand order as the brand's Shopify has it. Order 1001: 2 × Linen Overshirt (Northwind),
// 1 × Rosehip Face Oil (Lumen), 1 × Sticker Pack (Maya's own).

const world = shippingWorld()
afterEach(() => world.server()?.close())

/** The units of Maya's order 1001 each of her fulfillments ships, by line item, and its tracking. */
const creatorShipped = () =>
  world.creatorFulfillments().map((fulfillment) => ({
    lines: fulfillment.lines.map(({ lineItemId, quantity }) => ({ lineItemId, quantity })),
    tracking: fulfillment.tracking,
    customerNotifications: fulfillment.customerNotifications,
  }))

const OVERSHIRT_LINE = 'gid://shopify/LineItem/10011'

describe('a brand fulfillment reaches the creator’s order', { timeout: 60_000 }, () => {
  it('once, with its tracking, even when its webhook is delivered twice', async () => {
    const server = await world.transferred1001()
    await server.shopify.fulfill(NORTHWIND, world.brandOrderId(NORTHWIND), { tracking: UPS })
    await expect.poll(creatorShipped, FOR_JOBS).toEqual([
      {
        lines: [{ lineItemId: OVERSHIRT_LINE, quantity: 2 }],
        tracking: [UPS],
        customerNotifications: 1,
      },
    ])

    // Shopify sends a delivery again (a new id, as a resend after a timeout has), and an update.
    const brandFulfillment = server.shopify.fulfillments(
      NORTHWIND,
      world.brandOrderId(NORTHWIND),
    )[0]!
    const body = JSON.stringify({
      id: Number(brandFulfillment.id.split('/').pop()),
      admin_graphql_api_id: brandFulfillment.id,
      order_id: Number(world.brandOrderId(NORTHWIND).split('/').pop()),
      status: 'success',
    })
    const secret = sandboxApp(NORTHWIND).clientSecret
    const sentAgainAt = new Date()
    for (const topic of ['fulfillments/create', 'fulfillments/update']) {
      const delivered = await postWebhook(server, {
        shop: NORTHWIND,
        topic,
        body,
        signature: signBody(body, secret),
      })
      expect(delivered.statusCode).toBe(200)
    }
    await world.followedAfter(NORTHWIND, sentAgainAt)
    expect(creatorShipped()).toHaveLength(1)
    expect(server.shopify.calls(MAYA, 'fulfillmentCreate')).toBe(1)

    const northwind = await world.shipmentOf(NORTHWIND)
    expect(northwind).toMatchObject({
      creatorOrderId: '1001',
      creatorOrderName: '#1001',
      creatorStoreShop: MAYA,
      fulfillmentOrderStatus: 'CLOSED',
      holds: [],
      cancelReason: null,
      cancelledBy: null,
      late: false,
      fulfillments: [
        {
          status: 'SUCCESS',
          tracking: [UPS],
          quantity: 2,
          mirrorState: 'MIRRORED',
          mirrorMessage: null,
        },
      ],
    })
    // Lumen has shipped nothing: its order is open, and Maya's face oil unfulfilled.
    expect(await world.shipmentOf(LUMEN)).toMatchObject({ fulfillments: [] })
    expect(server.shopify.fulfillmentOrders(MAYA, CREATOR_1001)[0]!.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ lineItemId: OVERSHIRT_LINE, remainingQuantity: 0 }),
        expect.objectContaining({
          lineItemId: 'gid://shopify/LineItem/10012',
          remainingQuantity: 1,
        }),
      ]),
    )
  })

  it('in part: one of the two brands ships one of its two units, then the other', async () => {
    const server = await world.transferred1001()
    const northwindOrder = world.brandOrderId(NORTHWIND)
    await server.shopify.fulfill(NORTHWIND, northwindOrder, {
      lines: [{ line: 0, quantity: 1 }],
      tracking: UPS,
    })
    await expect.poll(creatorShipped, FOR_JOBS).toEqual([
      {
        lines: [{ lineItemId: OVERSHIRT_LINE, quantity: 1 }],
        tracking: [UPS],
        customerNotifications: 1,
      },
    ])
    const sinceFirst = new Date()
    const northwind = await world.followedAfter(NORTHWIND, new Date(0))
    expect(northwind.fulfillmentOrderStatus).toBe('IN_PROGRESS')
    expect(
      server.shopify.orders(MAYA).find((o) => o.id === CREATOR_1001)?.displayFulfillmentStatus,
    ).toBe('PARTIALLY_FULFILLED')

    const second = { company: 'UPS', number: '1Z999AA10123456785', url: null }
    await server.shopify.fulfill(NORTHWIND, northwindOrder, {
      lines: [{ line: 0, quantity: 1 }],
      tracking: { company: second.company, number: second.number },
    })
    await expect.poll(() => creatorShipped().length, FOR_JOBS).toBe(2)
    await world.followedAfter(NORTHWIND, sinceFirst)
    expect(creatorShipped()).toEqual([
      expect.objectContaining({
        lines: [{ lineItemId: OVERSHIRT_LINE, quantity: 1 }],
        tracking: [UPS],
      }),
      expect.objectContaining({
        lines: [{ lineItemId: OVERSHIRT_LINE, quantity: 1 }],
        tracking: [second],
      }),
    ])
    await expect
      .poll(async () => (await world.shipmentOf(NORTHWIND)).fulfillmentOrderStatus, FOR_JOBS)
      .toBe('CLOSED')
    // Lumen's face oil and Maya's own sticker pack are still to ship.
    expect(
      server.shopify
        .fulfillmentOrders(MAYA, CREATOR_1001)
        .flatMap((fulfillmentOrder) => fulfillmentOrder.lines)
        .filter((line) => line.remainingQuantity > 0)
        .map((line) => line.lineItemId)
        .sort(),
    ).toEqual(['gid://shopify/LineItem/10012', 'gid://shopify/LineItem/10013'])
  })

  it('and its tracking follows a change of the brand’s', async () => {
    const server = await world.transferred1001()
    const brandFulfillment = await server.shopify.fulfill(
      NORTHWIND,
      world.brandOrderId(NORTHWIND),
      {
        tracking: UPS,
      },
    )
    await expect.poll(() => creatorShipped().length, FOR_JOBS).toBe(1)
    const corrected = {
      company: 'FedEx',
      number: '449044304137821',
      url: 'https://www.fedex.com/fedextrack/?trknbr=449044304137821',
    }
    await server.shopify.updateTracking(NORTHWIND, brandFulfillment, corrected)
    await expect.poll(() => creatorShipped()[0]?.tracking, FOR_JOBS).toEqual([corrected])
    expect(creatorShipped()).toHaveLength(1)
    // Shopify emailed Jane Doe at the shipment; its new tracking is on her order's status page.
    expect(creatorShipped()[0]!.customerNotifications).toBe(1)
    // The run keeps its reading after it wrote the creator's tracking: waited for, not raced.
    await expect
      .poll(async () => (await world.shipmentOf(NORTHWIND)).fulfillments[0]!.tracking, FOR_JOBS)
      .toEqual([corrected])
  })
})

describe('a brand’s tracking changes', { timeout: 90_000 }, () => {
  it('flipped back and forth over two days, unannounced by the brand, are followed without emailing the customer again', async () => {
    let clock = Date.now()
    const server = await world.transferred1001({ now: () => new Date(clock) })
    const brandFulfillment = await server.shopify.fulfill(
      NORTHWIND,
      world.brandOrderId(NORTHWIND),
      { tracking: UPS },
    )
    await expect.poll(() => creatorShipped()[0]?.tracking, FOR_JOBS).toEqual([UPS])
    const fedex = {
      company: 'FedEx',
      number: '449044304137821',
      url: 'https://www.fedex.com/fedextrack/?trknbr=449044304137821',
    }
    const upsElsewhere = { ...UPS, url: 'https://www.ups.com/track?loc=en_GB&tracknum=' }
    // Northwind tells its own customer nothing of these (notifyCustomer: false); the last two
    // come a day later.
    for (const [flip, tracking] of [fedex, UPS, fedex, UPS, upsElsewhere, fedex].entries()) {
      if (flip === 4) clock += 86_400_000 + 60_000
      await server.shopify.updateTracking(NORTHWIND, brandFulfillment, tracking, {
        notifyCustomer: false,
      })
      // Followed on Maya's order, and the run that followed it over (its reading kept after).
      await expect.poll(() => creatorShipped()[0]?.tracking, FOR_JOBS).toEqual([tracking])
      await expect
        .poll(async () => (await world.shipmentOf(NORTHWIND)).fulfillments[0]?.tracking, FOR_JOBS)
        .toEqual([tracking])
    }
    // Jane Doe was emailed once, by the shipment; its tracking is the brand's last.
    expect(creatorShipped()).toEqual([
      {
        lines: [{ lineItemId: OVERSHIRT_LINE, quantity: 2 }],
        tracking: [fedex],
        customerNotifications: 1,
      },
    ])
    expect(server.shopify.calls(MAYA, 'fulfillmentTrackingInfoUpdate')).toBe(6)
  })
})

describe('the Shipping list', { timeout: 60_000 }, () => {
  it('shows a brand’s hold with its reason, until it is released', async () => {
    const server = await world.transferred1001()
    const heldAt = new Date()
    await server.shopify.holdFulfillment(
      LUMEN,
      world.brandOrderId(LUMEN),
      'INCORRECT_ADDRESS',
      'Apartment number missing',
    )
    const held = await world.followedAfter(LUMEN, heldAt)
    expect(held).toMatchObject({
      fulfillmentOrderStatus: 'ON_HOLD',
      holds: [{ reason: 'INCORRECT_ADDRESS', notes: 'Apartment number missing' }],
    })
    expect(await world.shipments('?status=ON_HOLD')).toEqual([held])

    const releasedAt = new Date()
    await server.shopify.releaseFulfillmentHold(LUMEN, world.brandOrderId(LUMEN))
    expect(await world.followedAfter(LUMEN, releasedAt)).toMatchObject({
      fulfillmentOrderStatus: 'OPEN',
      holds: [],
    })
  })

  it('shows a brand order the brand cancelled, with its reason, as cancelled by the brand', async () => {
    const server = await world.transferred1001()
    const cancelledAt = new Date()
    await server.shopify.cancel(LUMEN, world.brandOrderId(LUMEN), { reason: 'INVENTORY' })
    expect(await world.followedAfter(LUMEN, cancelledAt)).toMatchObject({
      cancelReason: 'INVENTORY',
      cancelledBy: 'BRAND',
      fulfillmentOrderStatus: 'CANCELLED',
      late: false,
    })
  })

  it('flags a brand order not shipped in full within the policy’s days, and filters', async () => {
    let clock = Date.now()
    const server = await world.transferred1001({ now: () => new Date(clock) })
    await server.shopify.fulfill(NORTHWIND, world.brandOrderId(NORTHWIND), { tracking: UPS })
    await expect.poll(() => creatorShipped().length, FOR_JOBS).toBe(1)
    await world.followedAfter(NORTHWIND, new Date(0))
    expect((await world.call('GET', '/admin-shipping-policy')).json()).toEqual({ lateAfterDays: 3 })

    clock += 3 * 86_400_000 + 60_000
    const late = await world.shipments('?late=true')
    expect(late.map((shipment) => shipment.brandStoreShop)).toEqual([LUMEN])
    expect((await world.shipmentOf(NORTHWIND)).late).toBe(false)

    const set = await world.call('POST', '/admin-set-shipping-policy', { lateAfterDays: 5 })
    expect(set.json()).toEqual({ lateAfterDays: 5 })
    expect(await world.shipments('?late=true')).toEqual([])
    expect(await world.activity('shipping-policy.set')).toEqual([
      { before: { lateAfterDays: 3 }, after: { lateAfterDays: 5 } },
    ])
    // Each refused in the words the console's field says (tests/renderer/shipping.test.tsx).
    for (const lateAfterDays of [0, -5, 1.5, '10,5', 61]) {
      const refused = await world.call('POST', '/admin-set-shipping-policy', { lateAfterDays })
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({
        status: 400,
        body: {
          error: 'invalid_input',
          message: 'lateAfterDays must be a whole number of days from 1 to 60',
        },
      })
    }
    expect((await world.call('GET', '/admin-shipping-policy')).json()).toEqual({ lateAfterDays: 5 })

    expect((await world.shipments(`?brandShop=${LUMEN}`)).map((s) => s.brandStoreShop)).toEqual([
      LUMEN,
    ])
    expect(await world.shipments(`?creatorShop=urban-trail-edits.myshopify.com`)).toEqual([])
  })
})

describe('news Tandem does not act on', { timeout: 60_000 }, () => {
  it('another brand’s signed fulfillment news of Northwind’s order changes nothing', async () => {
    const server = await world.transferred1001()
    const northwindOrder = world.brandOrderId(NORTHWIND)
    // Lumen holds its own app's secret: it can sign any body, naming any order.
    const body = JSON.stringify({
      id: 999001,
      admin_graphql_api_id: 'gid://shopify/Fulfillment/999001',
      order_id: Number(northwindOrder.split('/').pop()),
      status: 'success',
      tracking_number: 'FORGED',
    })
    const delivered = await postWebhook(server, {
      shop: LUMEN,
      topic: 'fulfillments/create',
      body,
      signature: signBody(body, sandboxApp(LUMEN).clientSecret),
    })
    expect(delivered.statusCode).toBe(200)
    // Then a real shipment of Lumen's, which is followed: the forged one before it was not.
    const sentAt = new Date()
    await server.shopify.fulfill(LUMEN, world.brandOrderId(LUMEN), { tracking: UPS })
    await world.followedAfter(LUMEN, sentAt)
    expect(creatorShipped()).toEqual([
      expect.objectContaining({
        lines: [{ lineItemId: 'gid://shopify/LineItem/10012', quantity: 1 }],
      }),
    ])
    expect((await world.shipmentOf(NORTHWIND)).readAt).toBeNull()
  })

  it('a tracking address that is no web page reaches neither the console nor the customer', async () => {
    const server = await world.transferred1001()
    // The brand writes its tracking: a link it would have the console and the email open.
    const forged = { company: 'UPS', number: '1Z999AA10123456784', url: 'javascript:alert(1)' }
    await server.shopify.fulfill(NORTHWIND, world.brandOrderId(NORTHWIND), { tracking: forged })
    const safe = { ...forged, url: null }
    await expect.poll(() => creatorShipped()[0]?.tracking, FOR_JOBS).toEqual([safe])
    await expect
      .poll(async () => (await world.shipmentOf(NORTHWIND)).fulfillments[0]?.tracking, FOR_JOBS)
      .toEqual([safe])
  })

  it('the catch-up finds a shipment made while no webhook reached the server', async () => {
    // Northwind never subscribed: its fulfillment is announced to nobody.
    const server = await world.transferred1001({ brandsSubscribed: false })
    await server.shopify.fulfill(NORTHWIND, world.brandOrderId(NORTHWIND), { tracking: UPS })
    expect(
      await catchUpShipments({ db: server.db, jobs: server.jobs, now: () => new Date() }),
    ).toBe(2)
    await expect.poll(creatorShipped, FOR_JOBS).toEqual([
      expect.objectContaining({
        lines: [{ lineItemId: OVERSHIRT_LINE, quantity: 2 }],
        tracking: [UPS],
      }),
    ])
  })
})

describe('what could make the creator’s order ship twice', { timeout: 60_000 }, () => {
  // Short, so that a run after a lost answer looks for what it made within seconds.
  const transferTiming = { leaseMs: 6000 }

  it('a lost answer, then tracking the brand added: the made fulfillment is found, and updated', async () => {
    const server = await world.transferred1001({ transferTiming })
    server.shopify.script({ operation: 'fulfillmentCreate', mode: 'drop_after_write', shop: MAYA })
    const brandFulfillment = await server.shopify.fulfill(
      NORTHWIND,
      world.brandOrderId(NORTHWIND),
      {
        lines: [{ line: 0, quantity: 1 }],
      },
    )
    // Made in Maya's store, its answer lost; the brand then adds the tracking it forgot.
    await expect.poll(() => creatorShipped().length, FOR_JOBS).toBe(1)
    await server.shopify.updateTracking(NORTHWIND, brandFulfillment, UPS)
    // Whichever run reads the brand first (before or after its tracking), Maya's order ends with
    // the one fulfillment, carrying the brand's tracking.
    await expect.poll(creatorShipped, FOR_JOBS).toEqual([
      {
        lines: [{ lineItemId: OVERSHIRT_LINE, quantity: 1 }],
        tracking: [UPS],
        customerNotifications: 1,
      },
    ])
    await expect
      .poll(async () => (await world.shipmentOf(NORTHWIND)).fulfillments[0]?.mirrorState, FOR_JOBS)
      .toBe('MIRRORED')
    expect(server.shopify.calls(MAYA, 'fulfillmentCreate')).toBe(1)
  })

  it('two lines of one variant: each ships its own unit, in one fulfillment', async () => {
    const server = await world.transferred1001()
    const overshirt = creatorVariantId(MAYA, 0)
    const { orderId } = await createStripePaidOrder(
      server,
      MAYA,
      {
        lines: [
          { variantId: overshirt, quantity: 1 },
          { variantId: overshirt, quantity: 1 },
        ],
      },
      { amountMinor: 13_600, currency: 'usd' },
    )
    await world.transfer(orderId)
    const brandOrder = world.brandOrder(NORTHWIND, orderId)
    await server.shopify.fulfill(NORTHWIND, brandOrder.id, { tracking: UPS })
    const creatorOrder = `gid://shopify/Order/${orderId}`
    await expect
      .poll(
        () =>
          server.shopify
            .fulfillmentOrders(MAYA, creatorOrder)[0]!
            .lines.map((line) => line.remainingQuantity),
        FOR_JOBS,
      )
      .toEqual([0, 0])
    expect(server.shopify.fulfillments(MAYA, creatorOrder)).toHaveLength(1)
  })
})

describe('a brand shipping from a third-party warehouse (issue 46)', { timeout: 60_000 }, () => {
  /** Northwind has its overshirts stocked, and shipped, by its 3PL's location. */
  const OVERSHIRT = brandVariantId(0)
  /** What a shop connected before Tandem asked for the third-party fulfillment orders granted. */
  const SCOPES_BEFORE = INSTALL_SCOPES.replace(',read_third_party_fulfillment_orders', '')

  it('is shown as units Tandem cannot see, naming the location, when the app may not see it', async () => {
    const server = await world.transferred1001({
      beforeConnecting: (shopify) => {
        shopify.stockAtFulfillmentService(NORTHWIND, OVERSHIRT)
        shopify.setScopes(NORTHWIND, SCOPES_BEFORE)
      },
    })
    const shippedAt = new Date()
    await server.shopify.fulfill(NORTHWIND, world.brandOrderId(NORTHWIND), { tracking: UPS })

    // Shopify leaves the 3PL's fulfillment order out of the app's reading, not refused: the
    // order's lines say two overshirts are somewhere Tandem cannot see.
    expect(await world.followedAfter(NORTHWIND, shippedAt)).toMatchObject({
      fulfillmentOrderStatus: null,
      fulfillments: [],
      unseen: { units: 2, locations: ['Harbor 3PL'] },
      late: false,
    })
    // Lumen, shipping from its own location, is seen whole.
    expect((await world.shipmentOf(LUMEN)).unseen).toBeNull()
    expect(creatorShipped()).toEqual([])
  })

  it('is mirrored on the creator’s order once the app may see it', async () => {
    const server = await world.transferred1001({
      beforeConnecting: (shopify) => shopify.stockAtFulfillmentService(NORTHWIND, OVERSHIRT),
    })
    expect(
      server.shopify.fulfillmentOrders(NORTHWIND, world.brandOrderId(NORTHWIND)),
    ).toMatchObject([{ location: 'Harbor 3PL' }])
    await server.shopify.fulfill(NORTHWIND, world.brandOrderId(NORTHWIND), { tracking: UPS })
    await expect.poll(creatorShipped, FOR_JOBS).toEqual([
      {
        lines: [{ lineItemId: OVERSHIRT_LINE, quantity: 2 }],
        tracking: [UPS],
        customerNotifications: 1,
      },
    ])
    expect(await world.followedAfter(NORTHWIND, new Date(0))).toMatchObject({
      fulfillmentOrderStatus: 'CLOSED',
      unseen: null,
      fulfillments: [{ status: 'SUCCESS', quantity: 2, mirrorState: 'MIRRORED' }],
    })
  })
})

describe(
  'a refund of units a brand shipped from a third-party warehouse the app may not see (issue 46, review)',
  { timeout: 60_000 },
  () => {
    const OVERSHIRT = brandVariantId(0)
    const SCOPES_BEFORE = INSTALL_SCOPES.replace(',read_third_party_fulfillment_orders', '')

    /**
     * Order 1001 transferred and Maya paid her 27.30; Northwind's 3PL then shipped both overshirts,
     * out of the sight of an app connected before Tandem asked for the third-party scopes.
     */
    async function shippedUnseen() {
      const server = await world.transferred1001({
        beforeConnecting: (shopify) => {
          shopify.stockAtFulfillmentService(NORTHWIND, OVERSHIRT)
          shopify.setScopes(NORTHWIND, SCOPES_BEFORE)
        },
      })
      await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
      await server.shopify.fulfill(NORTHWIND, world.brandOrderId(NORTHWIND), { tracking: UPS })
      return server
    }

    /** The units each refund of Northwind's order gave back, as its Shopify admin lists them. */
    const northwindRefundedUnits = () =>
      world
        .server()
        .shopify.refunds(NORTHWIND, world.brandOrderId(NORTHWIND))
        .map((refund) => refund.lines.reduce((sum, line) => sum + line.quantity, 0))

    it('refunds the shipped order in full rather than asking Shopify, for ever, to cancel it', async () => {
      await shippedUnseen()
      // The customer returns both overshirts: Maya refunds and restocks them. Northwind's 102.00
      // and Maya's 20.40 go back.
      await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 2 }])
      await expect
        .poll(world.reversals, FOR_JOBS)
        .toEqual([
          reversal(MAYA_ACCOUNT, 2040, '1001', MAYA),
          reversal(NORTHWIND_ACCOUNT, 10200, '1001', NORTHWIND),
        ])
      // Northwind's order shipped (Shopify cancels no order with fulfillments): it is refunded for
      // both units, never cancelled, and the refund job ends well. Today Tandem sees no shipment
      // and asks Shopify to cancel it on every run, refused each time, and never refunds it.
      await expect
        .poll(
          async () => ({
            refunded: northwindRefundedUnits(),
            cancelledAt: world.brandOrder(NORTHWIND, '1001').cancelledAt,
            troubled: (await world.troubledJobs()).map((job) => job.errorMessage),
          }),
          FOR_JOBS,
        )
        .toEqual({ refunded: [2], cancelledAt: null, troubled: [] })
      // The job records its run as settled after Shopify's refund answers: wait for it.
      await expect.poll(() => world.refundsSettled('1001'), FOR_JOBS).toBe(true)
      expect(northwindRefundedUnits()).toEqual([2])
    })

    it('refunds in the brand order every unit Activity says it refunded', async () => {
      await shippedUnseen()
      // The customer returns one overshirt of two: Maya refunds and restocks it; Northwind's 51.00
      // and Maya's 10.20 go back.
      await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
      await expect
        .poll(world.reversals, FOR_JOBS)
        .toEqual([
          reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
          reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND),
        ])
      await expect.poll(() => world.refundsSettled('1001'), FOR_JOBS).toBe(true)
      // What the administrator reads in Activity is what Northwind's Shopify shows: one overshirt
      // refunded of its order. Today Tandem drops the unit it cannot place (neither unshipped nor
      // in a shipment it sees), sends Shopify a refund of no units, and says one in Activity.
      expect({
        activity: await world.activity('order.brand-refund'),
        refunded: northwindRefundedUnits(),
      }).toEqual({
        activity: [{ brandShop: NORTHWIND, brandOrderId: world.brandOrderId(NORTHWIND), units: 1 }],
        refunded: [1],
      })
    })
  },
)
