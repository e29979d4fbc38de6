import { createHmac } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startShopifyEmulator } from '../../emulators/shopify/emulator'
import { headerTopic, type WebhookTopic } from '../../emulators/shopify/webhooks'
import { sandboxApp } from '../../server/src/seed/sandbox-data'
import { shopifyEmulatorPerTest, webhookReceiver, type Json } from './support/shopify-admin-client'
import {
  fulfillmentCalls,
  FULFILLMENT_CREATE,
  HOLD,
  ROOTS,
  SHIPPING,
} from './support/shopify-fulfillment-calls'
import {
  BRAND,
  CREATOR,
  lineItem,
  ORDER_1001,
  OVERSHIRT_COPY,
  variant,
} from './support/shopify-refund-calls'

// Shipping in the Shopify emulator, as Tandem will use it to ship a creator's order with the
// tracking of the brand's shipment: fulfillment orders and their holds, fulfillmentCreate (which,
// like Shopify's, ships the same units twice if asked twice), tracking updates, the webhooks of
// each, and the scopes all of it needs.

const under = shopifyEmulatorPerTest()
const { shippingOf, fulfillmentCreate, trackingUpdate, hold, release } = fulfillmentCalls(under)

const UPS = { company: 'UPS', number: '1Z999AA10123456784', url: 'https://ups.test/1Z999' }

/** An order's one fulfillment order and its line items, in the order's line order. */
async function fulfillmentOrderOf(shop: string, orderId: string) {
  const order = await shippingOf(shop, orderId)
  const [fulfillmentOrder] = order.fulfillmentOrders.nodes
  return { id: fulfillmentOrder.id as string, items: fulfillmentOrder.lineItems.nodes as Json[] }
}

const remaining = (order: Json) =>
  order.fulfillmentOrders.nodes[0].lineItems.nodes.map((item: Json) => item.remainingQuantity)

describe('fulfillmentCreate', () => {
  it('ships part of an order with tracking, then the rest, and then nothing more', async () => {
    const before = await shippingOf(CREATOR, ORDER_1001)
    expect(before).toMatchObject({
      displayFulfillmentStatus: 'UNFULFILLED',
      fulfillmentOrders: {
        nodes: [
          {
            status: 'OPEN',
            requestStatus: 'UNSUBMITTED',
            orderId: ORDER_1001,
            fulfillmentHolds: [],
            lineItems: {
              nodes: [
                { totalQuantity: 2, remainingQuantity: 2, lineItem: { id: lineItem(10011) } },
                { totalQuantity: 1, remainingQuantity: 1, lineItem: { id: lineItem(10012) } },
                { totalQuantity: 1, remainingQuantity: 1, lineItem: { id: lineItem(10013) } },
              ],
            },
          },
        ],
      },
      fulfillments: [],
    })
    const { id, items } = await fulfillmentOrderOf(CREATOR, ORDER_1001)

    // One of the two overshirts, with the brand's tracking.
    const partial = await fulfillmentCreate(CREATOR, {
      lineItemsByFulfillmentOrder: [
        { fulfillmentOrderId: id, fulfillmentOrderLineItems: [{ id: items[0].id, quantity: 1 }] },
      ],
      trackingInfo: UPS,
      notifyCustomer: true,
    })
    expect(partial).toEqual({
      fulfillment: {
        id: expect.stringMatching(/^gid:\/\/shopify\/Fulfillment\/\d+$/),
        name: '#1001-F1',
        status: 'SUCCESS',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        trackingInfo: [UPS],
        fulfillmentLineItems: {
          nodes: [
            {
              id: expect.stringMatching(/^gid:\/\/shopify\/FulfillmentLineItem\/\d+$/),
              quantity: 1,
              lineItem: { id: lineItem(10011), variant: { id: OVERSHIRT_COPY } },
            },
          ],
        },
        order: { id: ORDER_1001 },
      },
      userErrors: [],
    })
    const shipping = await shippingOf(CREATOR, ORDER_1001)
    expect(shipping.displayFulfillmentStatus).toBe('PARTIALLY_FULFILLED')
    expect(shipping.fulfillmentOrders.nodes[0].status).toBe('IN_PROGRESS')
    expect(remaining(shipping)).toEqual([1, 1, 1])

    // Without line items: everything left.
    const rest = await fulfillmentCreate(CREATOR, {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: id }],
    })
    expect(rest.userErrors).toEqual([])
    expect(rest.fulfillment).toMatchObject({
      name: '#1001-F2',
      trackingInfo: [],
      fulfillmentLineItems: {
        nodes: [
          { quantity: 1, lineItem: { id: lineItem(10011) } },
          { quantity: 1, lineItem: { id: lineItem(10012) } },
          { quantity: 1, lineItem: { id: lineItem(10013) } },
        ],
      },
    })
    const shipped = await shippingOf(CREATOR, ORDER_1001)
    expect(shipped.displayFulfillmentStatus).toBe('FULFILLED')
    expect(shipped.fulfillmentOrders.nodes[0].status).toBe('CLOSED')
    expect(remaining(shipped)).toEqual([0, 0, 0])
    expect(shipped.fulfillments.map((f: Json) => f.name)).toEqual(['#1001-F1', '#1001-F2'])

    const closed = await fulfillmentCreate(CREATOR, {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: id }],
    })
    const number = id.slice(id.lastIndexOf('/') + 1)
    expect(closed).toEqual({
      fulfillment: null,
      userErrors: [
        {
          field: ['fulfillment'],
          message: `Fulfillment order ${number} has an unfulfillable status= closed.`,
        },
      ],
    })

    // Each is found by its id, in its own shop only.
    const ids = { fulfillment: partial.fulfillment.id, fulfillmentOrder: id }
    expect(await under.data(CREATOR, ROOTS, ids)).toEqual({
      fulfillment: { id: ids.fulfillment, name: '#1001-F1', order: { id: ORDER_1001 } },
      fulfillmentOrder: { id, status: 'CLOSED', orderId: ORDER_1001, order: { id: ORDER_1001 } },
    })
    expect(await under.data(BRAND, ROOTS, ids)).toEqual({
      fulfillment: null,
      fulfillmentOrder: null,
    })
    // The merchant sees what the API made.
    expect(under.emulator.fulfillments(CREATOR, ORDER_1001)).toEqual([
      {
        id: ids.fulfillment,
        name: '#1001-F1',
        status: 'SUCCESS',
        tracking: [UPS],
        notifyCustomer: true,
        customerNotifications: 1,
        lines: [{ lineItemId: lineItem(10011), variantId: OVERSHIRT_COPY, quantity: 1 }],
      },
      expect.objectContaining({
        name: '#1001-F2',
        notifyCustomer: false,
        customerNotifications: 0,
      }),
    ])
    expect(under.emulator.orders(CREATOR).find((o) => o.id === ORDER_1001)).toMatchObject({
      displayFulfillmentStatus: 'FULFILLED',
    })
    expect(under.emulator.calls(CREATOR, 'fulfillmentCreate')).toBe(3)
  })

  it('ships the same units twice when asked twice, and refuses more than is left', async () => {
    const orderId = await under.emulator.createPaidOrder(CREATOR, {
      lines: [{ variantId: OVERSHIRT_COPY, quantity: 3 }],
    })
    const { id, items } = await fulfillmentOrderOf(CREATOR, orderId)
    const one = {
      lineItemsByFulfillmentOrder: [
        { fulfillmentOrderId: id, fulfillmentOrderLineItems: [{ id: items[0].id, quantity: 1 }] },
      ],
      trackingInfo: UPS,
    }
    expect((await fulfillmentCreate(CREATOR, one)).userErrors).toEqual([])
    expect((await fulfillmentCreate(CREATOR, one)).userErrors).toEqual([])
    expect(remaining(await shippingOf(CREATOR, orderId))).toEqual([1])

    const refused = (message: string) => ({
      fulfillment: null,
      userErrors: [{ field: ['fulfillment'], message }],
    })
    const quantity = 'Invalid fulfillment order line item quantity requested.'
    const units = (n: number) => ({
      lineItemsByFulfillmentOrder: [
        { fulfillmentOrderId: id, fulfillmentOrderLineItems: [{ id: items[0].id, quantity: n }] },
      ],
    })
    expect(await fulfillmentCreate(CREATOR, units(2))).toEqual(refused(quantity))
    expect(await fulfillmentCreate(CREATOR, units(0))).toEqual(refused(quantity))
    const unknown = { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: `${id}999` }] }
    expect(await fulfillmentCreate(CREATOR, unknown)).toEqual(
      refused('Fulfillment order does not exist.'),
    )
    // A line item of another order's fulfillment order.
    const other = await fulfillmentOrderOf(CREATOR, ORDER_1001)
    const stranger = {
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: id,
          fulfillmentOrderLineItems: [{ id: other.items[0].id, quantity: 1 }],
        },
      ],
    }
    expect(await fulfillmentCreate(CREATOR, stranger)).toEqual(
      refused(`Fulfillment order line item ${other.items[0].id} does not exist.`),
    )
    const twoOrders = {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: id }, { fulfillmentOrderId: other.id }],
    }
    expect(await fulfillmentCreate(CREATOR, twoOrders)).toEqual(
      refused('All fulfillment orders must belong to the same order.'),
    )
    // Another shop's token finds none of this shop's fulfillment orders.
    expect(await fulfillmentCreate(BRAND, units(1))).toEqual(
      refused('Fulfillment order does not exist.'),
    )
    expect(under.emulator.fulfillments(CREATOR, orderId)).toHaveLength(2)

    // A refund of the last unit leaves nothing to ship.
    await under.emulator.refund(CREATOR, orderId, [{ line: 0, quantity: 1 }])
    const refunded = await shippingOf(CREATOR, orderId)
    expect(remaining(refunded)).toEqual([0])
    expect(refunded.fulfillmentOrders.nodes[0].status).toBe('CLOSED')
    expect(refunded.displayFulfillmentStatus).toBe('FULFILLED')
  })
})

describe('holds', () => {
  it('stop fulfillmentCreate until released', async () => {
    const { id } = await fulfillmentOrderOf(CREATOR, ORDER_1001)
    const held = await hold(CREATOR, id, {
      reason: 'INCORRECT_ADDRESS',
      reasonNotes: 'No such street',
    })
    expect(held).toEqual({
      fulfillmentOrder: { id, status: 'ON_HOLD' },
      fulfillmentHold: {
        id: expect.stringMatching(/^gid:\/\/shopify\/FulfillmentHold\/\d+$/),
        reason: 'INCORRECT_ADDRESS',
        reasonNotes: 'No such street',
      },
      userErrors: [],
    })
    const shipping = await shippingOf(CREATOR, ORDER_1001)
    expect(shipping.displayFulfillmentStatus).toBe('ON_HOLD')
    expect(shipping.fulfillmentOrders.nodes[0].fulfillmentHolds).toEqual([held.fulfillmentHold])

    const all = { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: id }] }
    const number = id.slice(id.lastIndexOf('/') + 1)
    expect((await fulfillmentCreate(CREATOR, all)).userErrors).toEqual([
      {
        field: ['fulfillment'],
        message: `Fulfillment order ${number} has an unfulfillable status= on_hold.`,
      },
    ])
    expect(await release(CREATOR, id)).toEqual({
      fulfillmentOrder: { id, status: 'OPEN', fulfillmentHolds: [] },
      userErrors: [],
    })
    expect((await fulfillmentCreate(CREATOR, all)).userErrors).toEqual([])

    // A fulfillment order with nothing left to ship cannot be held.
    expect((await hold(CREATOR, id, { reason: 'OTHER' })).userErrors).toEqual([
      { field: ['id'], message: 'The fulfillment order cannot be put on hold.', code: null },
    ])
    const unknown = `gid://shopify/FulfillmentOrder/999999`
    expect((await hold(CREATOR, unknown, { reason: 'OTHER' })).userErrors).toEqual([
      {
        field: ['id'],
        message: 'The fulfillment order could not be found.',
        code: 'FULFILLMENT_ORDER_NOT_FOUND',
      },
    ])
  })

  it('are the merchant’s to place and release in the admin too', async () => {
    await under.emulator.holdFulfillment(CREATOR, ORDER_1001, 'AWAITING_PAYMENT', 'bank transfer')
    expect(under.emulator.fulfillmentOrders(CREATOR, ORDER_1001)).toEqual([
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/FulfillmentOrder\/\d+$/),
        location: 'Shop location',
        status: 'ON_HOLD',
        holds: [
          { id: expect.any(String), reason: 'AWAITING_PAYMENT', reasonNotes: 'bank transfer' },
        ],
        lines: [
          { lineItemId: lineItem(10011), totalQuantity: 2, remainingQuantity: 2 },
          { lineItemId: lineItem(10012), totalQuantity: 1, remainingQuantity: 1 },
          { lineItemId: lineItem(10013), totalQuantity: 1, remainingQuantity: 1 },
        ],
      },
    ])
    await expect(under.emulator.fulfill(CREATOR, ORDER_1001)).rejects.toThrow(
      /^Order #1001: Fulfillment order \d+ has an unfulfillable status= on_hold\.$/,
    )
    await under.emulator.releaseFulfillmentHold(CREATOR, ORDER_1001)
    const id = await under.emulator.fulfill(CREATOR, ORDER_1001, {
      lines: [{ line: 2, quantity: 1 }],
    })
    expect(under.emulator.fulfillments(CREATOR, ORDER_1001)).toEqual([
      expect.objectContaining({
        id,
        tracking: [],
        lines: [{ lineItemId: lineItem(10013), variantId: expect.any(String), quantity: 1 }],
      }),
    ])
    expect(under.emulator.fulfillmentOrders(CREATOR, ORDER_1001)[0]).toMatchObject({
      status: 'IN_PROGRESS',
      holds: [],
    })
  })
})

describe('fulfillmentOrderReleaseHold', () => {
  it('releases only the holds named by holdIds, and every hold when none are named', async () => {
    const { id } = await fulfillmentOrderOf(CREATOR, ORDER_1001)
    const address = await hold(CREATOR, id, { reason: 'INCORRECT_ADDRESS' })
    const payment = await hold(CREATOR, id, { reason: 'AWAITING_PAYMENT' })
    const addressHold = address.fulfillmentHold.id as string
    const paymentHold = payment.fulfillmentHold.id as string

    // Admin GraphQL 2026-10: "Holds will only be released if they belong to the fulfillment
    // order specified by the id argument"; the order stays on hold while one is left.
    expect(await release(CREATOR, id, [addressHold])).toEqual({
      fulfillmentOrder: {
        id,
        status: 'ON_HOLD',
        fulfillmentHolds: [{ id: paymentHold, reason: 'AWAITING_PAYMENT' }],
      },
      userErrors: [],
    })
    expect(await release(CREATOR, id, ['gid://shopify/FulfillmentHold/999999'])).toEqual({
      fulfillmentOrder: null,
      userErrors: [
        { field: ['holdIds'], message: 'None of the holds given belong to the fulfillment order.' },
      ],
    })
    expect(await release(CREATOR, id)).toEqual({
      fulfillmentOrder: { id, status: 'OPEN', fulfillmentHolds: [] },
      userErrors: [],
    })
  })
})

describe('fulfillmentTrackingInfoUpdate', () => {
  it('replaces the tracking of a fulfillment, and refuses an unknown one', async () => {
    const id = await under.emulator.fulfill(CREATOR, ORDER_1001, { tracking: UPS })
    const dhl = { company: 'DHL', number: 'JD014600006281230704' }
    const updated = await trackingUpdate(CREATOR, id, dhl, true)
    expect(updated.userErrors).toEqual([])
    expect(updated.fulfillment.trackingInfo).toEqual([{ ...dhl, url: null }])
    expect((await shippingOf(CREATOR, ORDER_1001)).fulfillments[0].trackingInfo).toEqual([
      { ...dhl, url: null },
    ])
    // The customer got the shipping email and the update's.
    expect(under.emulator.fulfillments(CREATOR, ORDER_1001)[0]?.customerNotifications).toBe(2)
    await trackingUpdate(CREATOR, id, { number: 'JD014600006281230705' })
    expect(under.emulator.fulfillments(CREATOR, ORDER_1001)[0]).toMatchObject({
      tracking: [{ company: null, number: 'JD014600006281230705', url: null }],
      customerNotifications: 2,
    })

    const unknown = await trackingUpdate(CREATOR, 'gid://shopify/Fulfillment/999999', dhl)
    expect(unknown).toEqual({
      fulfillment: null,
      userErrors: [{ field: ['fulfillmentId'], message: 'Fulfillment not found.' }],
    })
    // Another shop's token finds none of this shop's fulfillments.
    expect((await trackingUpdate(BRAND, id, dhl)).userErrors).toHaveLength(1)
  })
})

describe('a cancelled order', () => {
  it('has its fulfillment order cancelled, and nothing of it ships', async () => {
    await under.emulator.cancel(CREATOR, ORDER_1001)
    const shipping = await shippingOf(CREATOR, ORDER_1001)
    expect(shipping.displayFulfillmentStatus).toBe('UNFULFILLED')
    expect(shipping.fulfillmentOrders.nodes[0].status).toBe('CANCELLED')
    await expect(under.emulator.fulfill(CREATOR, ORDER_1001)).rejects.toThrow(
      /has an unfulfillable status= cancelled\.$/,
    )
  })
})

describe('shipping webhooks', () => {
  it('are delivered, signed, under Shopify’s topics, with Shopify’s bodies', async () => {
    const receiver = await webhookReceiver()
    try {
      const subscribe = `mutation ($topic: WebhookSubscriptionTopic!, $uri: String!) {
        webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri }) {
          userErrors { message } } }`
      const topics = [
        'FULFILLMENTS_CREATE',
        'FULFILLMENTS_UPDATE',
        'FULFILLMENT_ORDERS_PLACED_ON_HOLD',
        'FULFILLMENT_ORDERS_HOLD_RELEASED',
      ]
      for (const topic of topics) {
        const created = await under.data(CREATOR, subscribe, { topic, uri: receiver.uri })
        expect(created.webhookSubscriptionCreate.userErrors).toEqual([])
      }
      const secret = sandboxApp(CREATOR).clientSecret
      const delivered = (i: number) => {
        const delivery = receiver.received[i]
        if (!delivery) throw new Error(`No delivery ${i}`)
        expect(delivery.headers['x-shopify-hmac-sha256']).toBe(
          createHmac('sha256', secret).update(delivery.body).digest('base64'),
        )
        return { topic: delivery.headers['x-shopify-topic'], body: JSON.parse(delivery.body) }
      }
      const { id: fulfillmentOrderId } = await fulfillmentOrderOf(CREATOR, ORDER_1001)

      await under.emulator.holdFulfillment(CREATOR, ORDER_1001, 'INCORRECT_ADDRESS', 'No street')
      expect(delivered(0)).toEqual({
        topic: 'fulfillment_orders/placed_on_hold',
        body: {
          fulfillment_order: {
            id: fulfillmentOrderId,
            status: 'on_hold',
            fulfillment_holds: [{ reason: 'incorrect_address', reason_notes: 'No street' }],
          },
          created_fulfillment_hold: {
            id: expect.stringMatching(/^gid:\/\/shopify\/FulfillmentHold\/\d+$/),
            reason: 'incorrect_address',
            reason_notes: 'No street',
          },
        },
      })
      await under.emulator.releaseFulfillmentHold(CREATOR, ORDER_1001)
      expect(delivered(1)).toEqual({
        topic: 'fulfillment_orders/hold_released',
        body: { fulfillment_order: { id: fulfillmentOrderId, status: 'open' } },
      })

      const fulfillmentId = await under.emulator.fulfill(CREATOR, ORDER_1001, {
        lines: [{ line: 0, quantity: 2 }],
        tracking: UPS,
      })
      const created = delivered(2)
      expect(created).toEqual({
        topic: 'fulfillments/create',
        body: {
          id: Number(fulfillmentId.slice(fulfillmentId.lastIndexOf('/') + 1)),
          admin_graphql_api_id: fulfillmentId,
          order_id: 1001,
          name: '#1001-F1',
          status: 'success',
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          service: 'manual',
          tracking_company: 'UPS',
          tracking_number: UPS.number,
          tracking_numbers: [UPS.number],
          tracking_url: UPS.url,
          tracking_urls: [UPS.url],
          shipment_status: null,
          location_id: expect.any(Number),
          line_items: [
            {
              id: 10011,
              admin_graphql_api_id: lineItem(10011),
              variant_id: 401,
              title: expect.any(String),
              quantity: 2,
            },
          ],
        },
      })

      // Tandem's tracking update is announced the same way, once the mutation answered.
      await trackingUpdate(CREATOR, fulfillmentId, { company: 'DHL', number: 'JD01' })
      await expect.poll(() => receiver.received.length).toBe(4)
      expect(delivered(3)).toEqual({
        topic: 'fulfillments/update',
        body: {
          ...created.body,
          updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          tracking_company: 'DHL',
          tracking_number: 'JD01',
          tracking_numbers: ['JD01'],
          tracking_url: null,
          tracking_urls: [],
        },
      })
    } finally {
      await receiver.close()
    }
  })

  it('name their topics resource/event in their headers, underscores and all', () => {
    const expected: Record<WebhookTopic, string> = {
      APP_UNINSTALLED: 'app/uninstalled',
      ORDERS_PAID: 'orders/paid',
      ORDERS_CANCELLED: 'orders/cancelled',
      REFUNDS_CREATE: 'refunds/create',
      PRODUCTS_CREATE: 'products/create',
      PRODUCTS_UPDATE: 'products/update',
      PRODUCTS_DELETE: 'products/delete',
      INVENTORY_LEVELS_UPDATE: 'inventory_levels/update',
      FULFILLMENTS_CREATE: 'fulfillments/create',
      FULFILLMENTS_UPDATE: 'fulfillments/update',
      FULFILLMENT_ORDERS_PLACED_ON_HOLD: 'fulfillment_orders/placed_on_hold',
      FULFILLMENT_ORDERS_HOLD_RELEASED: 'fulfillment_orders/hold_released',
    }
    for (const [topic, header] of Object.entries(expected))
      expect(headerTopic(topic as WebhookTopic)).toBe(header)
  })
})

/** Shopify's ACCESS_DENIED at the path, for a field needing the scope or any one of a list. */
const denied = (path: string[], ...scopes: string[]) => {
  const each = scopes.map((scope) => `\`${scope}\` access scope`)
  const last = each.pop()
  const requiredAccess = `${each.length > 0 ? `${each.join(', ')} or ` : ''}${last}.`
  return {
    message: `Access denied for ${path.at(-1)} field. Required access: ${requiredAccess}`,
    path,
    extensions: { code: 'ACCESS_DENIED', requiredAccess },
  }
}

/** Admin GraphQL 2026-10: the scopes each shipping field needs, any one of them. */
const FULFILLMENT_ORDER_READS = [
  'read_assigned_fulfillment_orders',
  'read_merchant_managed_fulfillment_orders',
  'read_third_party_fulfillment_orders',
  'read_marketplace_fulfillment_orders',
]
const FULFILLMENT_WRITES = [
  'write_assigned_fulfillment_orders',
  'write_merchant_managed_fulfillment_orders',
  'write_third_party_fulfillment_orders',
]
const HOLD_WRITES = [
  'write_merchant_managed_fulfillment_orders',
  'write_third_party_fulfillment_orders',
  'write_marketplace_fulfillment_orders',
]

describe('access scopes', () => {
  it('refuse shipping to a token without the fulfillment scopes, the rest of the order answering', async () => {
    under.emulator.setScopes(CREATOR, 'read_products,read_orders,write_orders')
    const created = await under.admin(CREATOR, FULFILLMENT_CREATE, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/1' }],
      },
    })
    expect(created.body).toMatchObject({
      data: { fulfillmentCreate: null },
      errors: [denied(['fulfillmentCreate'], ...FULFILLMENT_WRITES)],
    })
    const held = await under.admin(CREATOR, HOLD, {
      id: 'gid://shopify/FulfillmentOrder/1',
      hold: { reason: 'OTHER' },
    })
    expect(held.body.errors).toMatchObject([denied(['fulfillmentOrderHold'], ...HOLD_WRITES)])

    // Order.fulfillmentOrders and Order.fulfillments are refused at their paths; being non-null,
    // they take their order with them, while a request for the rest of the order answers.
    const nested = await under.admin(CREATOR, SHIPPING, { id: ORDER_1001 })
    expect(nested.body).toMatchObject({
      data: { order: null },
      errors: [denied(['order', 'fulfillmentOrders'], ...FULFILLMENT_ORDER_READS)],
    })
    const fulfillments = await under.admin(
      CREATOR,
      'query ($id: ID!) { order(id: $id) { fulfillments { id } } }',
      { id: ORDER_1001 },
    )
    expect(fulfillments.body.errors).toMatchObject([
      denied(['order', 'fulfillments'], 'read_fulfillments'),
    ])
    const name = await under.admin(
      CREATOR,
      'query ($id: ID!) { order(id: $id) { name displayFulfillmentStatus } }',
      { id: ORDER_1001 },
    )
    expect(name.body).toEqual({
      data: { order: { name: '#1001', displayFulfillmentStatus: 'UNFULFILLED' } },
      extensions: expect.anything(),
    })
    const roots = await under.admin(CREATOR, ROOTS, {
      fulfillment: 'gid://shopify/Fulfillment/1',
      fulfillmentOrder: 'gid://shopify/FulfillmentOrder/1',
    })
    expect(roots.body.errors).toMatchObject([
      denied(['fulfillment'], 'read_fulfillments'),
      denied(['fulfillmentOrder'], ...FULFILLMENT_ORDER_READS),
    ])
    const subscribe = await under.data(
      CREATOR,
      `mutation { webhookSubscriptionCreate(topic: FULFILLMENT_ORDERS_PLACED_ON_HOLD,
        webhookSubscription: { uri: "https://tandem.test/webhooks" }) { userErrors { field message } } }`,
    )
    expect(subscribe.webhookSubscriptionCreate.userErrors).toEqual([
      {
        field: ['topic'],
        message:
          'You do not have permission to create or update webhooks with fulfillment_orders/placed_on_hold topic. This topic requires the read_merchant_managed_fulfillment_orders access scope.',
      },
    ])

    // The write scopes grant their reads.
    under.emulator.setScopes(
      CREATOR,
      'read_orders,write_fulfillments,write_merchant_managed_fulfillment_orders',
    )
    expect((await shippingOf(CREATOR, ORDER_1001)).fulfillments).toEqual([])
  })
})

describe('a fulfillment service’s location (a brand shipping from a 3PL)', () => {
  const OVERSHIRT = variant(201)
  const SOCKS = variant(202)
  const FULFILLMENT_ORDERS = `query ($id: ID!) {
    order(id: $id) {
      fulfillmentOrders(first: 5) { nodes { id status assignedLocation { name
        location { name isFulfillmentService fulfillmentService { serviceName } } }
        lineItems(first: 5) { nodes { id remainingQuantity lineItem { variant { id } } } } } }
      fulfillments(first: 5) { id }
      lineItems(first: 5) { nodes { currentQuantity variant { id } } }
    }
  }`
  const THIRD_PARTY_FO = {
    assignedLocation: {
      name: 'Harbor 3PL',
      location: {
        name: 'Harbor 3PL',
        isFulfillmentService: true,
        fulfillmentService: { serviceName: 'Harbor 3PL' },
      },
    },
  }

  /** A Northwind order of an overshirt (stocked by its 3PL) and 2 pairs of socks (its own). */
  async function orderFromBoth() {
    expect(under.emulator.stockAtFulfillmentService(BRAND, OVERSHIRT)).toBe('Harbor 3PL')
    const orderId = await under.emulator.createPaidOrder(BRAND, {
      lines: [
        { variantId: OVERSHIRT, quantity: 1 },
        { variantId: SOCKS, quantity: 2 },
      ],
    })
    const thirdParty = under.emulator.fulfillmentOrders(BRAND, orderId)[1]!
    return { orderId, thirdParty: thirdParty.id }
  }

  it('is listed among the shop’s locations after its own', async () => {
    const { locations } = await under.data(
      BRAND,
      '{ locations(first: 5) { nodes { name isFulfillmentService fulfillmentService { serviceName } } } }',
    )
    expect(locations.nodes).toEqual([
      { name: 'Shop location', isFulfillmentService: false, fulfillmentService: null },
      {
        name: 'Harbor 3PL',
        isFulfillmentService: true,
        fulfillmentService: { serviceName: 'Harbor 3PL' },
      },
    ])
  })

  it('has its fulfillment orders left out, not refused, for a token without the third-party scopes', async () => {
    const { orderId, thirdParty } = await orderFromBoth()
    expect(under.emulator.fulfillmentOrders(BRAND, orderId).map((fo) => fo.location)).toEqual([
      'Shop location',
      'Harbor 3PL',
    ])
    await under.emulator.fulfill(BRAND, orderId, { lines: [{ line: 0, quantity: 1 }] })

    under.emulator.setScopes(
      BRAND,
      'read_orders,read_fulfillments,read_merchant_managed_fulfillment_orders',
    )
    const merchantOnly = await under.admin(BRAND, FULFILLMENT_ORDERS, { id: orderId })
    expect(merchantOnly.body.errors).toBeUndefined()
    expect(merchantOnly.body.data.order).toMatchObject({
      fulfillmentOrders: {
        nodes: [
          {
            status: 'OPEN',
            assignedLocation: { name: 'Shop location' },
            lineItems: { nodes: [{ remainingQuantity: 2, lineItem: { variant: { id: SOCKS } } }] },
          },
        ],
      },
      // The 3PL's shipment, made from a fulfillment order out of reach, is not there either.
      fulfillments: [],
      // The order's lines are: what Tandem counts the units it cannot see by.
      lineItems: {
        nodes: [
          { currentQuantity: 1, variant: { id: OVERSHIRT } },
          { currentQuantity: 2, variant: { id: SOCKS } },
        ],
      },
    })
    const root = await under.admin(BRAND, 'query ($id: ID!) { fulfillmentOrder(id: $id) { id } }', {
      id: thirdParty,
    })
    expect(root.body).toMatchObject({ data: { fulfillmentOrder: null } })
    expect(root.body.errors).toBeUndefined()

    under.emulator.setScopes(
      BRAND,
      'read_orders,read_fulfillments,read_third_party_fulfillment_orders',
    )
    const thirdPartyOnly = await under.data(BRAND, FULFILLMENT_ORDERS, { id: orderId })
    expect(thirdPartyOnly.order.fulfillmentOrders.nodes).toMatchObject([
      {
        id: thirdParty,
        status: 'CLOSED',
        ...THIRD_PARTY_FO,
        lineItems: { nodes: [{ remainingQuantity: 0, lineItem: { variant: { id: OVERSHIRT } } }] },
      },
    ])
    expect(thirdPartyOnly.order.fulfillments).toHaveLength(1)
  })

  it('takes any one of the fulfillment-order write scopes to ship, each kind its own', async () => {
    const { orderId, thirdParty } = await orderFromBoth()
    const own = under.emulator.fulfillmentOrders(BRAND, orderId)[0]!.id
    // write_fulfillments alone no longer ships anything.
    under.emulator.setScopes(BRAND, 'read_orders,write_fulfillments')
    const refused = await under.admin(BRAND, FULFILLMENT_CREATE, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: thirdParty }] },
    })
    expect(refused.body.errors).toMatchObject([
      denied(['fulfillmentCreate'], ...FULFILLMENT_WRITES),
    ])

    under.emulator.setScopes(BRAND, 'read_orders,write_third_party_fulfillment_orders')
    const shipped = await fulfillmentCreate(BRAND, {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: thirdParty }],
      trackingInfo: UPS,
    })
    expect(shipped.userErrors).toEqual([])
    const updated = await trackingUpdate(BRAND, shipped.fulfillment.id, { number: '1Z2' })
    expect(updated.userErrors).toEqual([])
    // The shop's own fulfillment order is out of this token's reach.
    const mine = { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: own }] }
    expect((await fulfillmentCreate(BRAND, mine)).userErrors).toEqual([
      { field: ['fulfillment'], message: 'Fulfillment order does not exist.' },
    ])

    under.emulator.setScopes(BRAND, 'read_orders,write_merchant_managed_fulfillment_orders')
    expect((await fulfillmentCreate(BRAND, mine)).userErrors).toEqual([])
    expect(
      (await trackingUpdate(BRAND, shipped.fulfillment.id, { number: '1Z3' })).userErrors,
    ).toEqual([{ field: ['fulfillmentId'], message: 'Fulfillment not found.' }])
    expect(under.emulator.fulfillments(BRAND, orderId).map((f) => f.tracking)).toEqual([
      [{ company: null, number: '1Z2', url: null }],
      [],
    ])
  })
})

describe('a state file from before shipping', () => {
  it('loads, its orders unshipped, and they ship', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shopify-emulator-'))
    const options = { imageBaseUrl: 'http://tandem.test', stateFile: join(dir, 'state.json') }
    try {
      const first = await startShopifyEmulator(options)
      const lines = [{ variantId: variant(406), quantity: 3 }]
      const open = await first.createPaidOrder(CREATOR, { lines })
      const cancelled = await first.createPaidOrder(CREATOR, { lines })
      await first.cancel(CREATOR, cancelled)
      await first.close()
      const saved = JSON.parse(readFileSync(options.stateFile, 'utf8'))
      for (const shop of Object.values(saved.shops) as Json[])
        for (const order of shop.orders) {
          delete order.fulfillmentOrders
          delete order.fulfillments
        }
      for (const kind of [
        'fulfillmentOrder',
        'fulfillmentOrderLineItem',
        'fulfillment',
        'fulfillmentLineItem',
        'fulfillmentHold',
      ])
        delete saved.lastIds[kind]
      writeFileSync(options.stateFile, JSON.stringify(saved))

      const second = await startShopifyEmulator(options)
      try {
        expect(second.fulfillmentOrders(CREATOR, open)).toEqual([
          {
            id: expect.any(String),
            location: 'Shop location',
            status: 'OPEN',
            holds: [],
            lines: [{ lineItemId: expect.any(String), totalQuantity: 3, remainingQuantity: 3 }],
          },
        ])
        expect(second.fulfillmentOrders(CREATOR, cancelled)[0]?.status).toBe('CANCELLED')
        // Every order got a fulfillment order of its own.
        const ids = Object.keys(saved.shops).flatMap((shop) =>
          second.orders(shop).map((order) => second.fulfillmentOrders(shop, order.id)[0]?.id),
        )
        expect(new Set(ids).size).toBe(ids.length)
        await second.fulfill(CREATOR, open, { lines: [{ line: 0, quantity: 1 }] })
        expect(second.orders(CREATOR).find((o) => o.id === open)).toMatchObject({
          displayFulfillmentStatus: 'PARTIALLY_FULFILLED',
        })
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
