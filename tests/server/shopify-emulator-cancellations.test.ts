import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sandboxApp } from '../../server/src/seed/sandbox-data'
import { shopifyEmulatorPerTest, webhookReceiver } from './support/shopify-admin-client'
import {
  BRAND,
  CREATOR,
  lineItem,
  ORDER_1001,
  OVERSHIRT_COPY,
  refundCalls,
  usd,
} from './support/shopify-refund-calls'

// Cancellations in the Shopify emulator (orderCancel, and the merchant in the admin), which shop
// may touch which order, and the refunds/create and orders/cancelled webhooks that Tandem will
// react to when a creator order is refunded or cancelled after its transfer (issue 33).

const under = shopifyEmulatorPerTest()
const { orderOf, refundCreate, cancel } = refundCalls(under)

describe('orderCancel', () => {
  it('cancels with a refund of everything left and the units back in stock, once', async () => {
    const stock = under.emulator.stockOf(OVERSHIRT_COPY)
    // Some of it was refunded already: the cancellation gives back the rest.
    await under.emulator.refund(CREATOR, ORDER_1001, [{ line: 1, quantity: 1 }])
    const cancelled = await cancel(CREATOR, {
      orderId: ORDER_1001,
      refund: true,
      restock: true,
      staffNote: 'customer changed their mind',
    })
    expect(cancelled).toEqual({
      job: { id: expect.stringMatching(/^gid:\/\/shopify\/Job\/[0-9a-f-]{36}$/), done: false },
      orderCancelUserErrors: [],
      userErrors: [],
    })
    const order = await orderOf(CREATOR, ORDER_1001)
    expect(order).toMatchObject({
      displayFinancialStatus: 'REFUNDED',
      cancelledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      cancelReason: 'CUSTOMER',
      closed: true,
      cancellation: { staffNote: 'customer changed their mind' },
      totalRefundedSet: usd('197.54'),
      lineItems: {
        nodes: [{ currentQuantity: 0 }, { currentQuantity: 0 }, { currentQuantity: 0 }],
      },
    })
    expect(order.refunds[1]).toMatchObject({
      note: 'Order canceled',
      refundLineItems: {
        nodes: [
          { lineItem: { id: lineItem(10011) }, quantity: 2, restockType: 'CANCEL' },
          { lineItem: { id: lineItem(10013) }, quantity: 1, restockType: 'CANCEL' },
        ],
      },
    })
    expect(under.emulator.stockOf(OVERSHIRT_COPY)).toBe(stock + 2)

    const twice = await cancel(CREATOR, { orderId: ORDER_1001 })
    expect(twice).toEqual({
      job: null,
      orderCancelUserErrors: [
        {
          field: ['orderId'],
          message: 'Cannot cancel an order that has already been canceled',
          code: 'INVALID',
        },
      ],
      userErrors: [
        { field: ['orderId'], message: 'Cannot cancel an order that has already been canceled' },
      ],
    })
  })

  it('refuses refund and refundMethod together, and a staff note over 255 characters', async () => {
    const both = await cancel(CREATOR, {
      orderId: ORDER_1001,
      refund: false,
      refundMethod: { originalPaymentMethodsRefund: true },
    })
    expect(both.orderCancelUserErrors).toEqual([
      {
        field: ['refund'],
        message: 'Only one of the arguments `refund` or `refund_method` is allowed.',
        code: 'INVALID',
      },
    ])
    const long = await cancel(CREATOR, { orderId: ORDER_1001, staffNote: 'x'.repeat(256) })
    expect(long.orderCancelUserErrors).toEqual([
      {
        field: ['staffNote'],
        message: 'Staff note is too long. Maximum length is 255 characters.',
        code: 'INVALID',
      },
    ])
    // refundMethod alone refunds, without restocking unless told.
    const stock = under.emulator.stockOf(OVERSHIRT_COPY)
    await cancel(CREATOR, {
      orderId: ORDER_1001,
      refundMethod: { originalPaymentMethodsRefund: true },
    })
    expect(await orderOf(CREATOR, ORDER_1001)).toMatchObject({ displayFinancialStatus: 'REFUNDED' })
    expect(under.emulator.stockOf(OVERSHIRT_COPY)).toBe(stock)
  })
})

describe('orderCancel’s job and refusals (Admin GraphQL 2026-10)', () => {
  it('cancels only when its job runs, after the delay, which job(id:) tells', async () => {
    under.emulator.setCancelDelay(500)
    const stock = under.emulator.stockOf(OVERSHIRT_COPY)
    const started = await cancel(CREATOR, { orderId: ORDER_1001, restock: true })
    expect(started).toMatchObject({ job: { done: false }, orderCancelUserErrors: [] })
    const job = async () =>
      (
        await under.data(CREATOR, 'query ($id: ID!) { job(id: $id) { id done } }', {
          id: started.job.id,
        })
      ).job
    // Right after, Shopify's job has not run: the order stands, its units still sold.
    expect(await job()).toEqual({ id: started.job.id, done: false })
    expect(await orderOf(CREATOR, ORDER_1001)).toMatchObject({ cancelledAt: null, closed: false })
    expect(under.emulator.stockOf(OVERSHIRT_COPY)).toBe(stock)

    await expect.poll(job, { timeout: 5_000, interval: 50 }).toEqual({ ...started.job, done: true })
    expect(await orderOf(CREATOR, ORDER_1001)).toMatchObject({
      cancelledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      closed: true,
    })
    // Its committed units back in stock: the two overshirts it never shipped.
    expect(under.emulator.stockOf(OVERSHIRT_COPY)).toBe(stock + 2)
    expect(await job()).toEqual({ ...started.job, done: true })
  })

  it('refuses an order that shipped, whose fulfillments it cannot cancel, restocking nothing', async () => {
    await under.emulator.fulfill(CREATOR, ORDER_1001, { lines: [{ line: 0, quantity: 1 }] })
    const stock = under.emulator.stockOf(OVERSHIRT_COPY)
    const refused = await cancel(CREATOR, { orderId: ORDER_1001, refund: true, restock: true })
    const message =
      'Cannot cancel an order with fulfillments that cannot be canceled: refund its fulfilled items instead'
    expect(refused).toEqual({
      job: null,
      orderCancelUserErrors: [{ field: ['orderId'], message, code: 'INVALID' }],
      userErrors: [{ field: ['orderId'], message }],
    })
    // The merchant cannot either, in the admin.
    expect(() => under.emulator.cancel(CREATOR, ORDER_1001, { restock: true })).toThrow(message)
    expect(await orderOf(CREATOR, ORDER_1001)).toMatchObject({
      cancelledAt: null,
      displayFinancialStatus: 'PAID',
      refunds: [],
    })
    expect(under.emulator.stockOf(OVERSHIRT_COPY)).toBe(stock)
  })
})

describe('another shop’s token', () => {
  it('finds no order of this shop to refund or cancel', async () => {
    const refunded = await refundCreate(BRAND, {
      orderId: ORDER_1001,
      refundLineItems: [{ lineItemId: lineItem(10011), quantity: 1 }],
    })
    expect(refunded.userErrors).toEqual([{ field: ['orderId'], message: 'Order does not exist' }])
    const cancelled = await cancel(BRAND, { orderId: ORDER_1001, refund: true })
    expect(cancelled.orderCancelUserErrors).toEqual([
      { field: ['orderId'], message: 'Order does not exist', code: 'NOT_FOUND' },
    ])
    expect(await orderOf(CREATOR, ORDER_1001)).toMatchObject({
      displayFinancialStatus: 'PAID',
      cancelledAt: null,
      refunds: [],
    })
  })
})

describe('refunds/create and orders/cancelled', () => {
  it('are delivered, signed, for the admin’s refunds and cancellations and for the mutations', async () => {
    const receiver = await webhookReceiver()
    try {
      const subscribe = `mutation ($topic: WebhookSubscriptionTopic!, $uri: String!) {
        webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri, format: JSON }) {
          webhookSubscription { topic } userErrors { message } } }`
      for (const topic of ['REFUNDS_CREATE', 'ORDERS_CANCELLED']) {
        const created = await under.data(CREATOR, subscribe, { topic, uri: receiver.uri })
        expect(created.webhookSubscriptionCreate).toEqual({
          webhookSubscription: { topic },
          userErrors: [],
        })
      }
      const secret = sandboxApp(CREATOR).clientSecret
      const delivered = (i: number) => {
        const delivery = receiver.received[i]
        if (!delivery) throw new Error(`No delivery ${i}`)
        expect(delivery.headers['x-shopify-hmac-sha256']).toBe(
          createHmac('sha256', secret).update(delivery.body).digest('base64'),
        )
        expect(delivery.headers['x-shopify-shop-domain']).toBe(CREATOR)
        return { topic: delivery.headers['x-shopify-topic'], body: JSON.parse(delivery.body) }
      }

      // The merchant refunds an overshirt in the admin, and puts it back in stock.
      await under.emulator.refund(CREATOR, ORDER_1001, [{ line: 0, quantity: 1 }], {
        restockType: 'RETURN',
        note: 'damaged in transit',
      })
      const set = (amount: string) => ({
        shop_money: { amount, currency_code: 'USD' },
        presentment_money: { amount, currency_code: 'USD' },
      })
      expect(delivered(0)).toEqual({
        topic: 'refunds/create',
        body: expect.objectContaining({
          id: expect.any(Number),
          admin_graphql_api_id: expect.stringMatching(/^gid:\/\/shopify\/Refund\//),
          order_id: 1001,
          note: 'damaged in transit',
          restock: true,
          refund_line_items: [
            expect.objectContaining({
              line_item_id: 10011,
              quantity: 1,
              restock_type: 'return',
              subtotal: 68,
              subtotal_set: set('68.00'),
              line_item: expect.objectContaining({ id: 10011, current_quantity: 1 }),
            }),
          ],
          transactions: [
            expect.objectContaining({
              kind: 'refund',
              status: 'success',
              gateway: 'shopify_payments',
              amount: '68.00',
              currency: 'USD',
              order_id: 1001,
              parent_id: expect.any(Number),
            }),
          ],
          order_adjustments: [],
        }),
      })

      // Tandem's refundCreate of the rest of the shipping is announced the same way.
      await refundCreate(CREATOR, {
        orderId: ORDER_1001,
        shipping: { amount: '3.00' },
        note: 'shipping',
      })
      await expect.poll(() => receiver.received.length).toBe(2)
      expect(delivered(1).body).toMatchObject({
        note: 'shipping',
        refund_line_items: [],
        transactions: [],
        order_adjustments: [{ kind: 'shipping_refund', amount: '-3.00', amount_set: set('-3.00') }],
      })

      // The merchant cancels, refunding the rest: refunds/create, then orders/cancelled.
      await under.emulator.cancel(CREATOR, ORDER_1001, { refund: true, reason: 'INVENTORY' })
      expect(delivered(2)).toMatchObject({
        topic: 'refunds/create',
        body: { note: 'Order canceled', transactions: [{ amount: '129.54' }] },
      })
      expect(delivered(3)).toEqual({
        topic: 'orders/cancelled',
        body: expect.objectContaining({
          id: 1001,
          admin_graphql_api_id: ORDER_1001,
          cancelled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          cancel_reason: 'inventory',
          financial_status: 'refunded',
          total_price: '197.54',
          refunds: [
            expect.objectContaining({ note: 'damaged in transit' }),
            expect.objectContaining({ note: 'shipping' }),
            expect.objectContaining({ note: 'Order canceled' }),
          ],
        }),
      })

      // orderCancel from the API announces too.
      const other = await under.emulator.createPaidOrder(CREATOR, {
        lines: [{ variantId: OVERSHIRT_COPY, quantity: 1 }],
      })
      await cancel(CREATOR, { orderId: other, reason: 'FRAUD' })
      await expect.poll(() => receiver.received.length).toBe(5)
      expect(delivered(4)).toMatchObject({
        topic: 'orders/cancelled',
        body: {
          admin_graphql_api_id: other,
          cancel_reason: 'fraud',
          financial_status: 'paid',
          refunds: [],
        },
      })
    } finally {
      await receiver.close()
    }
  })
})
