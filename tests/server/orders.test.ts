import { parse } from 'csv-parse/sync'
import { afterEach, describe, expect, it } from 'vitest'
import { LUMEN, NO_COMMISSION_1002, NORTHWIND } from '../support/sandbox-figures'
import { recordAutomation } from './support/order-automation'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// The orders inbox (GET /admin-creator-orders), the transfer history (GET /admin-order-transfers)
// and its CSV export, on the sandbox marketplace caught up from the Shopify emulator.

const MAYA = 'maya-makes.myshopify.com'
const URBAN = 'urban-trail-edits.myshopify.com'

let server: ServerUnderTest
afterEach(() => server.close())

const get = (url: string) => server.app.inject({ url, headers: server.asAdmin })
const orders = async (query = '') => {
  const response = await get(`/admin-creator-orders${query}`)
  expect(response.statusCode).toBe(200)
  return response.json() as {
    orders: { id: string; transferStatus: string; processedAt: string | null }[]
    nextCursor: string | null
  }
}
const ids = async (query = '') => (await orders(query)).orders.map((order) => order.id)
const processOrder = (creatorOrderId: string) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-create-order-transfer',
    headers: server.asAdmin,
    payload: { creatorOrderId },
  })

describe('GET /admin-creator-orders', () => {
  it('lists the sandbox’s five orders newest first, with their totals and transfer status', async () => {
    server = await startServerUnderTest()
    const { orders: listed, nextCursor } = await orders()
    expect(nextCursor).toBeNull()
    expect(listed).toEqual([
      {
        id: '1005',
        name: '#1005',
        creatorStoreShop: MAYA,
        createdAt: '2026-11-06T08:20:00.000Z',
        currency: 'EUR',
        totalAmount: '80.78',
        transferStatus: 'NOT_STARTED',
        processedAt: null,
        // Paid before the policy turned automatic (when the server was installed): by hand.
        readiness: { state: 'MANUAL' },
      },
      expect.objectContaining({ id: '1004', creatorStoreShop: URBAN, totalAmount: '54.41' }),
      expect.objectContaining({ id: '1003', totalAmount: '13.80' }),
      expect.objectContaining({ id: '1002', totalAmount: '51.36' }),
      expect.objectContaining({ id: '1001', currency: 'USD', totalAmount: '197.54' }),
    ])
  })

  it('says of each order an administrator processes what its preview would, before anyone previews it', async () => {
    server = await startServerUnderTest()
    const { orders: listed } = (await orders()) as unknown as {
      orders: { id: string; readiness: unknown }[]
    }
    expect(Object.fromEntries(listed.map((order) => [order.id, order.readiness]))).toEqual({
      '1005': { state: 'MANUAL' },
      '1004': { state: 'MANUAL' },
      '1003': { state: 'NOTHING_TO_TRANSFER', message: 'No brand orders found' },
      // The fix is an administrator's, on the brand's store page, as the inbox says it.
      '1002': {
        state: 'NEEDS_ATTENTION',
        reasons: [
          {
            sentence: NO_COMMISSION_1002,
            remedy: {
              party: { role: 'ADMINISTRATOR', shop: null },
              fix: 'set it on its store page',
              link: {
                label: "ironpeak outdoor's store page",
                to: '/main/stores/ironpeak-outdoor.myshopify.com?type=BRAND',
              },
            },
          },
        ],
      },
      '1001': { state: 'MANUAL' },
    })
    // Nothing was recorded or moved by reading the list.
    expect(await server.db.selectFrom('order_automation').selectAll().execute()).toEqual([])
    expect(server.stripe.transfers()).toEqual([])
  })

  it('filters by transfer status and creator store, and finds by name or id', async () => {
    server = await startServerUnderTest()
    expect((await processOrder('1004')).statusCode).toBe(201)
    const completed = await orders('?status=COMPLETED')
    expect(completed.orders).toEqual([
      expect.objectContaining({
        id: '1004',
        transferStatus: 'COMPLETED',
        processedAt: expect.any(String),
        readiness: { state: 'COMPLETED' },
      }),
    ])
    expect(await ids('?status=NOT_STARTED')).toEqual(['1005', '1003', '1002', '1001'])
    expect(await ids('?status=PARTIAL')).toEqual([])
    expect(await ids(`?creatorShop=${URBAN}`)).toEqual(['1004', '1002'])
    expect(await ids(`?creatorShop=${URBAN}&status=NOT_STARTED`)).toEqual(['1002'])
    expect(await ids('?q=%231003')).toEqual(['1003'])
    expect(await ids('?q=1001')).toEqual(['1001'])
    expect(await ids('?q=100')).toEqual(['1005', '1004', '1003', '1002', '1001'])
    expect(await ids('?q=nothing')).toEqual([])
    // Typed text is taken literally: no wildcard, and a backslash is no escape.
    expect(await ids('?q=%25')).toEqual([])
    expect(await ids('?q=10_1')).toEqual([])
    expect(await ids('?q=%5C')).toEqual([])
  })

  it('pages by cursor, each order once, and refuses a cursor or limit it did not give', async () => {
    server = await startServerUnderTest()
    const first = await orders('?limit=2')
    expect(first.orders.map((order) => order.id)).toEqual(['1005', '1004'])
    const second = await orders(`?limit=2&cursor=${first.nextCursor}`)
    expect(second.orders.map((order) => order.id)).toEqual(['1003', '1002'])
    const third = await orders(`?limit=2&cursor=${second.nextCursor}`)
    expect(third).toEqual({ orders: [expect.objectContaining({ id: '1001' })], nextCursor: null })

    const auditCursor = Buffer.from(JSON.stringify(['2026-11-01', 'not-an-order'])).toString(
      'base64url',
    )
    for (const [query, message] of [
      ['?cursor=bogus', 'cursor must be one a previous page answered as nextCursor'],
      [`?cursor=${auditCursor}`, 'cursor must be one a previous page answered as nextCursor'],
      ['?limit=501', 'limit must be at most 500'],
      ['?limit=0', 'limit must be at least 1'],
      ['?status=DONE', expect.stringContaining('status')],
    ] as const) {
      const response = await get(`/admin-creator-orders${query}`)
      expect({ status: response.statusCode, message: response.json().message }).toEqual({
        status: 400,
        message,
      })
    }
  })

  it('stops reading for an inbox whose caller left: nothing more asked of Shopify, no timer left', async () => {
    server = await startServerUnderTest()
    await server.app.listen({ host: '127.0.0.1', port: 0 })
    const address = server.app.server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    const ordersRead = () =>
      server.shopify.calls(MAYA, 'order') + server.shopify.calls(URBAN, 'order')
    // The process's pending timers (deadlines, waits), counted inside expect.poll both times, so
    // that its own timer is counted alike.
    const timers = () =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length
    let timersBefore = -1
    await expect.poll(() => (timersBefore = timers())).toBeGreaterThanOrEqual(0)
    // Every read of an order answers after a second: the inbox's first previews (of 1005 and 1003
    // on Maya's store, 1004 and 1002 on Urban's, four at once) wait on the first read of each store.
    server.shopify.script({ operation: 'order', mode: 'delay', delayMs: 1000, times: 50 })
    const caller = new AbortController()
    const listing = fetch(`http://127.0.0.1:${port}/admin-creator-orders`, {
      headers: server.asAdmin,
      signal: caller.signal,
    })
    await expect.poll(ordersRead).toBe(2)
    caller.abort()
    await expect(listing).rejects.toThrow()
    // Once the delayed reads have answered, the process is back to the timers it had before, and
    // Shopify was asked nothing more: no other order's read, no fraud signals, no brand's variants.
    await expect.poll(timers, { timeout: 10_000 }).toBeLessThanOrEqual(timersBefore)
    expect(ordersRead()).toBe(2)
    expect(server.shopify.calls(NORTHWIND, 'nodes')).toBe(0)
  })

  it('lists an order the moment a lookup finds it', async () => {
    server = await startServerUnderTest()
    const id = await server.shopify.createPaidOrder(MAYA, {
      lines: [{ variantId: 'gid://shopify/ProductVariant/401', quantity: 1 }],
    })
    const orderId = id.split('/').pop()!
    expect(await ids('?q=' + orderId)).toEqual([])
    await get(`/admin-preview-order-transfer?creatorOrderId=${orderId}`)
    expect(await ids('?q=' + orderId)).toEqual([orderId])
  })
})

describe('GET /admin-orders-needing-attention', () => {
  const count = async () => {
    const response = await get('/admin-orders-needing-attention')
    expect(response.statusCode).toBe(200)
    return response.json()
  }

  it('counts the orders the needsAttention filter lists, and only those', async () => {
    server = await startServerUnderTest()
    expect(await count()).toEqual({ count: 0 })

    await recordAutomation(server.db, {
      '1002': 'NEEDS_ATTENTION',
      '1003': 'NOTHING_TO_TRANSFER',
      // An order the inbox does not list (its header never read) is not counted either.
      '2001': 'NEEDS_ATTENTION',
    })

    expect(await ids('?needsAttention=true')).toEqual(['1002'])
    expect(await count()).toEqual({ count: 1 })
  })
})

describe('GET /admin-order-transfers and its CSV', () => {
  it('shows processed transfers with their frozen rates and amounts, and who processed them', async () => {
    server = await startServerUnderTest()
    expect((await get('/admin-order-transfers')).json()).toEqual({
      transfers: [],
      nextCursor: null,
    })
    expect((await processOrder('1004')).statusCode).toBe(201)
    // A later rate change does not touch what was frozen.
    await server.db.updateTable('default_commissions').set({ creator_rate_hundredths: 0 }).execute()

    const history = (await get('/admin-order-transfers')).json()
    expect(history).toEqual({
      transfers: [
        {
          creatorOrderId: '1004',
          creatorOrderName: '#1004',
          creatorStoreShop: URBAN,
          currency: 'USD',
          status: 'COMPLETED',
          startedAt: expect.any(String),
          processedBy: 'claim-admin@tandem.test',
          processedAt: expect.any(String),
          brands: [
            {
              brandStoreShop: LUMEN,
              brandOrderId: expect.stringMatching(/^gid:\/\/shopify\/Order\//),
              tandemCommissionRate: 8,
              creatorCommissionRate: 12,
              baseAmount: '27.75',
              brandAmount: '22.20',
              creatorCommissionAmount: '3.33',
              tandemCommissionAmount: '2.22',
              // Charged and settled in USD: the same figures, at a rate of 1.
              settlement: {
                currency: 'USD',
                exchangeRate: '1',
                brandAmount: '22.20',
                creatorCommissionAmount: '3.33',
                tandemCommissionAmount: '2.22',
              },
              paymentTransferId: expect.stringMatching(/^tr_/),
              failedMessage: null,
            },
            expect.objectContaining({
              brandStoreShop: NORTHWIND,
              tandemCommissionRate: 10,
              creatorCommissionRate: 15,
              baseAmount: '18.00',
              brandAmount: '13.50',
            }),
          ],
          // Each brand's Stripe transfer (the brands are paid at once, in either order); urban
          // trail edits has no payout account, so its commission waits and nothing was paid to it.
          moneyTrail: expect.arrayContaining(
            [LUMEN, NORTHWIND].map((storeShop, index) => ({
              at: expect.any(String),
              kind: 'TRANSFER',
              party: 'BRAND',
              storeShop,
              amount: ['22.20', '13.50'][index],
              currency: 'USD',
              stripeId: expect.stringMatching(/^tr_/),
            })),
          ),
        },
      ],
      nextCursor: null,
    })
    expect(history.transfers[0].moneyTrail).toHaveLength(2)
  })

  it('exports one RFC 4180 row per brand transfer, amounts as decimal strings', async () => {
    server = await startServerUnderTest()
    expect((await processOrder('1004')).statusCode).toBe(201)
    expect((await processOrder('1001')).statusCode).toBe(201)
    const response = await get('/admin-order-transfers.csv')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.body.split('\r\n')[0]).toBe(
      'creatorOrderId,creatorStoreShop,status,currency,startedAt,processedAt,processedBy,' +
        'brandStoreShop,brandOrderId,tandemCommissionRate,creatorCommissionRate,baseAmount,' +
        'brandAmount,creatorCommissionAmount,tandemCommissionAmount,paymentTransferId,' +
        'settlementCurrency,exchangeRate,settlementBrandAmount,settlementCreatorCommissionAmount,' +
        'settlementTandemCommissionAmount,entry,party,partyStoreShop,movedAt,movedAmount,' +
        'movedCurrency,stripeId',
    )
    const rows = parse(response.body, { columns: true }) as Record<string, string>[]
    const brandRows = rows.filter((row) => row.entry === 'BRAND')
    expect(
      brandRows.map((row) => [
        row.creatorOrderId,
        row.brandStoreShop,
        row.brandAmount,
        row.processedBy,
      ]),
    ).toEqual([
      ['1001', NORTHWIND, '102.00', 'claim-admin@tandem.test'],
      ['1001', LUMEN, '24.84', 'claim-admin@tandem.test'],
      ['1004', LUMEN, '22.20', 'claim-admin@tandem.test'],
      ['1004', NORTHWIND, '13.50', 'claim-admin@tandem.test'],
    ])
    // Each transfer's money trail after its brands: here, each brand's Stripe transfer (the
    // creators have no payout account yet, so their commissions wait).
    const trailRows = rows.filter((row) => row.entry !== 'BRAND')
    expect(
      trailRows.map((row) => [row.creatorOrderId, row.entry, row.partyStoreShop, row.movedAmount]),
    ).toEqual(
      expect.arrayContaining([
        ['1001', 'TRANSFER', NORTHWIND, '102.00'],
        ['1001', 'TRANSFER', LUMEN, '24.84'],
        ['1004', 'TRANSFER', LUMEN, '22.20'],
        ['1004', 'TRANSFER', NORTHWIND, '13.50'],
      ]),
    )
    expect(trailRows).toHaveLength(4)
    expect(trailRows.every((row) => /^tr_/.test(row.stripeId!) && row.brandAmount === '')).toBe(
      true,
    )
  })
})
