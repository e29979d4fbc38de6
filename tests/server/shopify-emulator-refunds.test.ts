import { describe, expect, it } from 'vitest'
import { shopifyEmulatorPerTest, type Json } from './support/shopify-admin-client'
import {
  CREATOR,
  lineItem,
  ORDER_1001,
  OVERSHIRT_COPY,
  refundCalls,
  transactionsOf,
  usd,
  variant,
} from './support/shopify-refund-calls'

// Refunds in the Shopify emulator through the Admin API, as Tandem will make them to give a
// brand's order back when its creator order is refunded (issue 33): Order.suggestedRefund for the
// amount, refundCreate, and what Shopify refuses (its idempotency key: shopify-emulator-refund-keys).

const under = shopifyEmulatorPerTest()
const { orderOf, suggested, refundCreate } = refundCalls(under)

describe('refundCreate', () => {
  it('refunds part of a line, to the cent, through the payment suggestedRefund names', async () => {
    // 2 overshirts and a face oil, less a 10.00 code: 7.98 of it on the overshirts.
    const id = await under.emulator.createCustomerOrder(CREATOR, {
      lines: [
        { variantId: OVERSHIRT_COPY, quantity: 2 },
        { variantId: variant(403), quantity: 1 },
      ],
      discount: { code: 'SPRING10', amountMinor: 1000 },
    })
    const [overshirts, faceOil] = (await orderOf(CREATOR, id)).lineItems.nodes
    const stock = under.emulator.stockOf(OVERSHIRT_COPY)

    // One overshirt: what the customer paid for it, (136.00 − 7.98) ÷ 2 = 64.01.
    const one = [{ lineItemId: overshirts.id, quantity: 1 }]
    const suggestion = await suggested(CREATOR, id, one)
    expect(suggestion).toMatchObject({
      amountSet: usd('64.01'),
      subtotalSet: usd('64.01'),
      suggestedTransactions: [
        { kind: 'SUGGESTED_REFUND', gateway: 'shopify_payments', amountSet: usd('64.01') },
      ],
    })
    const lines = [{ ...one[0], restockType: 'RETURN' }]
    const transactions = transactionsOf(suggestion, id)
    const made = await refundCreate(CREATOR, {
      orderId: id,
      note: 'returned',
      refundLineItems: lines,
      transactions,
    })
    expect(made).toEqual({
      refund: {
        id: expect.stringMatching(/^gid:\/\/shopify\/Refund\/\d+$/),
        note: 'returned',
        totalRefundedSet: usd('64.01'),
        refundLineItems: {
          nodes: [
            {
              lineItem: { id: overshirts.id },
              quantity: 1,
              restockType: 'RETURN',
              restocked: true,
            },
          ],
        },
        transactions: {
          nodes: [
            {
              kind: 'REFUND',
              gateway: 'shopify_payments',
              amountSet: usd('64.01'),
              parentTransaction: { id: transactions[0].parentId },
            },
          ],
        },
      },
      order: { id, displayFinancialStatus: 'PARTIALLY_REFUNDED', totalRefundedSet: usd('64.01') },
      userErrors: [],
    })
    // Returned: the overshirt is back in stock.
    expect(under.emulator.stockOf(OVERSHIRT_COPY)).toBe(stock + 1)

    // Not restocked: the face oil's stock stays as it was.
    const oilStock = under.emulator.stockOf(variant(403))
    const oil = [{ lineItemId: faceOil.id, quantity: 1, restockType: 'NO_RESTOCK' }]
    const oilMoney = transactionsOf(await suggested(CREATOR, id, oil), id)
    await refundCreate(CREATOR, { orderId: id, refundLineItems: oil, transactions: oilMoney })
    expect(under.emulator.stockOf(variant(403))).toBe(oilStock)

    const order = await orderOf(CREATOR, id)
    expect(order.lineItems.nodes.map((line: Json) => line.currentQuantity)).toEqual([1, 0])
    // 64.01 and the face oil's 34.50 − 2.02.
    expect(order.totalRefundedSet).toEqual(usd('96.49'))
    expect(order.refunds.map((refund: Json) => refund.note)).toEqual(['returned', null])
    expect(under.emulator.refunds(CREATOR, id)).toMatchObject([
      {
        note: 'returned',
        amount: '64.01',
        lines: [{ line: 0, quantity: 1, restockType: 'RETURN' }],
      },
      { note: null, amount: '32.48', lines: [{ line: 1, quantity: 1, restockType: 'NO_RESTOCK' }] },
    ])
  })

  it('takes the rest back with the last units, shipping and tax included, then refuses more', async () => {
    const first = [{ lineItemId: lineItem(10011), quantity: 2 }]
    const firstMoney = transactionsOf(await suggested(CREATOR, ORDER_1001, first), ORDER_1001)
    expect(firstMoney[0]).toMatchObject({ amount: '136.00' })
    await refundCreate(CREATOR, {
      orderId: ORDER_1001,
      refundLineItems: first,
      transactions: firstMoney,
    })

    const rest = [
      { lineItemId: lineItem(10012), quantity: 1 },
      { lineItemId: lineItem(10013), quantity: 1 },
    ]
    // 197.54 − 136.00: the face oil and stickers (39.50), the tax (14.04), the shipping (8.00).
    const suggestion = await suggested(CREATOR, ORDER_1001, rest, true)
    expect(suggestion).toMatchObject({
      amountSet: usd('61.54'),
      subtotalSet: usd('39.50'),
      totalTaxSet: usd('14.04'),
      shipping: { amountSet: usd('8.00') },
    })
    const last = await refundCreate(CREATOR, {
      orderId: ORDER_1001,
      refundLineItems: rest,
      shipping: { fullRefund: true },
      transactions: transactionsOf(suggestion, ORDER_1001),
    })
    expect(last.order).toMatchObject({
      displayFinancialStatus: 'REFUNDED',
      totalRefundedSet: usd('197.54'),
    })
    const order = await orderOf(CREATOR, ORDER_1001)
    expect(order).toMatchObject({
      totalRefundedShippingSet: usd('8.00'),
      netPaymentSet: usd('0.00'),
      lineItems: {
        nodes: [{ currentQuantity: 0 }, { currentQuantity: 0 }, { currentQuantity: 0 }],
      },
    })

    // Nothing is left to refund: neither money nor units.
    const [sale] = order.transactions
    const cent = {
      orderId: ORDER_1001,
      parentId: sale.id,
      gateway: sale.gateway,
      kind: 'REFUND',
      amount: '0.01',
    }
    expect(
      (await refundCreate(CREATOR, { orderId: ORDER_1001, transactions: [cent] })).userErrors,
    ).toEqual([
      { field: null, message: 'Refund amount $0.01 is greater than net payment received $0.00' },
    ])
    const again = await refundCreate(CREATOR, { orderId: ORDER_1001, refundLineItems: [first[0]] })
    expect(again.userErrors).toEqual([
      {
        field: ['refundLineItems', '0', 'quantity'],
        message: 'Quantity cannot refund more items than were purchased',
      },
    ])
  })

  it('refuses more units than are left, a line of another order and an unknown order, changing nothing', async () => {
    const other = await under.emulator.createPaidOrder(CREATOR, {
      lines: [{ variantId: OVERSHIRT_COPY, quantity: 1 }],
    })
    const otherLine = (await orderOf(CREATOR, other)).lineItems.nodes[0].id
    const refused = (input: object) => refundCreate(CREATOR, { orderId: ORDER_1001, ...input })

    const tooMany = await refused({
      refundLineItems: [{ lineItemId: lineItem(10011), quantity: 3 }],
    })
    expect(tooMany).toEqual({
      refund: null,
      order: { id: ORDER_1001, displayFinancialStatus: 'PAID', totalRefundedSet: usd('0.00') },
      userErrors: [
        {
          field: ['refundLineItems', '0', 'quantity'],
          message: 'Quantity cannot refund more items than were purchased',
        },
      ],
    })
    // Two entries for one line count together.
    const twice = await refused({
      refundLineItems: [
        { lineItemId: lineItem(10011), quantity: 2 },
        { lineItemId: lineItem(10011), quantity: 1 },
      ],
    })
    expect(twice.userErrors[0].field).toEqual(['refundLineItems', '1', 'quantity'])
    expect(
      (await refused({ refundLineItems: [{ lineItemId: lineItem(10011), quantity: 0 }] }))
        .userErrors,
    ).toEqual([
      { field: ['refundLineItems', '0', 'quantity'], message: 'Quantity must be greater than 0' },
    ])
    expect(
      (await refused({ refundLineItems: [{ lineItemId: otherLine, quantity: 1 }] })).userErrors,
    ).toEqual([
      { field: ['refundLineItems', '0', 'lineItemId'], message: 'Line item does not exist' },
    ])
    const [sale] = (await orderOf(CREATOR, ORDER_1001)).transactions
    const otherSale = (await orderOf(CREATOR, other)).transactions[0]
    const take = (parentId: string, amount: string, kind = 'REFUND') => ({
      transactions: [{ orderId: ORDER_1001, parentId, gateway: sale.gateway, kind, amount }],
    })
    expect((await refused(take(sale.id, '197.55'))).userErrors).toEqual([
      {
        field: null,
        message: 'Refund amount $197.55 is greater than net payment received $197.54',
      },
    ])
    expect((await refused(take(otherSale.id, '1.00'))).userErrors).toEqual([
      {
        field: ['transactions'],
        message: 'Transactions require a parent_id associated with the order',
      },
    ])
    expect((await refused(take(sale.id, '1.00', 'AUTHORIZATION'))).userErrors).toEqual([
      { field: null, message: 'Kind authorization is not a valid transaction' },
    ])
    // A refund of nothing: no units, no shipping, no money.
    expect((await refused({ refundLineItems: [], note: 'nothing' })).userErrors).toEqual([
      {
        field: null,
        message: 'A refund must give something back: refund line items, shipping or a transaction',
      },
    ])
    const unknown = await refundCreate(CREATOR, { orderId: 'gid://shopify/Order/999999' })
    expect(unknown).toEqual({
      refund: null,
      order: null,
      userErrors: [{ field: ['orderId'], message: 'Order does not exist' }],
    })

    const order = await orderOf(CREATOR, ORDER_1001)
    expect(order).toMatchObject({ displayFinancialStatus: 'PAID', refunds: [] })
    expect(order.lineItems.nodes[0].currentQuantity).toBe(2)
  })

  it('cancels only units that never shipped, and takes shipped ones back as returns to their location', async () => {
    // One of the two overshirts shipped.
    await under.emulator.fulfill(CREATOR, ORDER_1001, { lines: [{ line: 0, quantity: 1 }] })
    const stock = under.emulator.stockOf(OVERSHIRT_COPY)

    // Both cancelled: the shipped one cannot be.
    const both = await refundCreate(CREATOR, {
      orderId: ORDER_1001,
      refundLineItems: [{ lineItemId: lineItem(10011), quantity: 2, restockType: 'CANCEL' }],
    })
    expect(both).toMatchObject({
      refund: null,
      userErrors: [
        {
          field: ['refundLineItems', '0', 'restockType'],
          message:
            'Restock type cancel only restocks unfulfilled items, and this line item has 1 unfulfilled: refund fulfilled items with restock type return (at a location) or no_restock',
        },
      ],
    })
    expect(under.emulator.stockOf(OVERSHIRT_COPY)).toBe(stock)
    const shipping = async () =>
      (
        await under.data(
          CREATOR,
          `query ($id: ID!) { order(id: $id) {
            lineItems(first: 1) { nodes { currentQuantity unfulfilledQuantity } }
            fulfillments { location { id } } } }`,
          { id: ORDER_1001 },
        )
      ).order
    const shipped = await shipping()
    expect(shipped.lineItems.nodes).toEqual([{ currentQuantity: 2, unfulfilledQuantity: 1 }])
    const [{ location }] = shipped.fulfillments
    expect(location.id).toMatch(/^gid:\/\/shopify\/Location\/\d+$/)

    // The unshipped one cancelled, the shipped one returned: both back in stock.
    const made = await refundCreate(CREATOR, {
      orderId: ORDER_1001,
      refundLineItems: [
        { lineItemId: lineItem(10011), quantity: 1, restockType: 'CANCEL' },
        {
          lineItemId: lineItem(10011),
          quantity: 1,
          restockType: 'RETURN',
          locationId: location.id,
        },
      ],
    })
    expect(made.userErrors).toEqual([])
    expect(made.refund.refundLineItems.nodes).toEqual([
      { lineItem: { id: lineItem(10011) }, quantity: 1, restockType: 'CANCEL', restocked: true },
      { lineItem: { id: lineItem(10011) }, quantity: 1, restockType: 'RETURN', restocked: true },
    ])
    expect(under.emulator.stockOf(OVERSHIRT_COPY)).toBe(stock + 2)
    expect(under.emulator.refunds(CREATOR, ORDER_1001)[0]!.lines).toEqual([
      expect.objectContaining({ restockType: 'CANCEL', locationId: null }),
      expect.objectContaining({ restockType: 'RETURN', locationId: location.id }),
    ])
    expect((await shipping()).lineItems.nodes).toEqual([
      { currentQuantity: 0, unfulfilledQuantity: 0 },
    ])
  })

  it('gives no money back for lines without transactions, as Shopify moves money only through them', async () => {
    const made = await refundCreate(CREATOR, {
      orderId: ORDER_1001,
      refundLineItems: [{ lineItemId: lineItem(10012), quantity: 1 }],
    })
    expect(made.refund).toMatchObject({
      totalRefundedSet: usd('0.00'),
      transactions: { nodes: [] },
    })
    expect(made.order).toMatchObject({
      displayFinancialStatus: 'PAID',
      totalRefundedSet: usd('0.00'),
    })
    expect((await orderOf(CREATOR, ORDER_1001)).lineItems.nodes[1].currentQuantity).toBe(0)
  })

  it("lists an order's refunds as far as `first` asks, and a refund's lines page by page as a node", async () => {
    const id = await under.emulator.createCustomerOrder(CREATOR, {
      lines: [
        { variantId: OVERSHIRT_COPY, quantity: 2 },
        { variantId: variant(403), quantity: 1 },
      ],
    })
    const [overshirts, faceOil] = (await orderOf(CREATOR, id)).lineItems.nodes
    const units = (lines: [Json, number][]) => ({
      orderId: id,
      refundLineItems: lines.map(([line, quantity]) => ({ lineItemId: line.id, quantity })),
    })
    await refundCreate(
      CREATOR,
      units([
        [overshirts, 1],
        [faceOil, 1],
      ]),
      'first-refund',
    )
    await refundCreate(CREATOR, units([[overshirts, 1]]), 'second-refund')

    // Order.refunds is a list its `first` truncates, with no cursor to read on.
    const listed = await under.data(
      CREATOR,
      `query ($id: ID!) { order(id: $id) { refunds(first: 1) { id } } }`,
      { id },
    )
    expect(listed.order.refunds).toHaveLength(1)

    // Refund.refundLineItems is a connection: read on by its cursor.
    const page = async (after: string | null) =>
      (
        await under.data(
          CREATOR,
          `query ($id: ID!, $after: String) { node(id: $id) { ... on Refund {
            refundLineItems(first: 1, after: $after) {
              nodes { lineItem { id } quantity } pageInfo { hasNextPage endCursor } } } } }`,
          { id: listed.order.refunds[0].id, after },
        )
      ).node.refundLineItems
    const first = await page(null)
    expect(first.nodes).toEqual([{ lineItem: { id: overshirts.id }, quantity: 1 }])
    expect(first.pageInfo.hasNextPage).toBe(true)
    const second = await page(first.pageInfo.endCursor)
    expect(second.nodes).toEqual([{ lineItem: { id: faceOil.id }, quantity: 1 }])
    expect(second.pageInfo.hasNextPage).toBe(false)
  })
})
