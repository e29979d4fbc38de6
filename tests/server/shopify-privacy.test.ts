import { afterEach, describe, expect, it } from 'vitest'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import {
  startListeningServer,
  startServerUnderTest,
  type ServerUnderTest,
} from './support/server-under-test'
import { signedByShop } from './support/signed-webhook'
import { transferCalls } from './support/transfer-calls'
import { orderInShop } from './support/order-in-shop'
import { schemaTables } from './support/schema-tables'

// Shopify's mandatory compliance topics (docs/privacy.md), as a creator who holds its own app's
// secret would abuse them and as Shopify sends them: a customer's data request answered with
// exactly what Tandem holds on them for the shop, a customer's data erased from every table for
// that shop only, a shop's data erased once Shopify confirms the app is gone, its money records
// kept under a pseudonym.

const MAYA = 'maya-makes.myshopify.com'
const URBAN = 'urban-trail-edits.myshopify.com'

let server: ServerUnderTest
afterEach(() => server.close())
const { processOrder } = transferCalls(() => server)

const signed = (shop: string, topic: string, payload: object) =>
  signedByShop(server, shop, topic, payload)

/** Every table of the live schema. */
const tableNames = async () => (await schemaTables(server.db)).map((table) => table.name)

const rowsOf = (table: string) =>
  server.db
    .selectFrom(table as 'stores')
    .selectAll()
    .execute() as Promise<Record<string, unknown>[]>

/** The tables any of whose rows holds the text anywhere. */
async function tablesHolding(text: string) {
  const holding: string[] = []
  for (const table of await tableNames()) {
    if (JSON.stringify(await rowsOf(table)).includes(text)) holding.push(table)
  }
  return holding
}

/** The money records the law requires kept, as they stand. */
const moneyRecords = async () => ({
  transfers: await server.db
    .selectFrom('order_transfers')
    .select(['creator_order_id', 'creator_store_shop', 'currency', 'status', 'processed_at'])
    .orderBy('creator_order_id')
    .execute(),
  brands: await server.db
    .selectFrom('order_transfer_brands')
    .select(['creator_order_id', 'brand_store_shop', 'brand_order_id', 'brand_amount_minor'])
    .select(['creator_commission_minor', 'tandem_commission_minor', 'payment_transfer_id'])
    .orderBy('creator_order_id')
    .orderBy('position')
    .execute(),
  payments: await server.db
    .selectFrom('payment_intent_orders')
    .select(['payment_intent_id', 'creator_order_id', 'creator_store_shop'])
    .execute(),
})

/**
 * The entries of `action`, by target: jobs act on deliveries four at once, so the order they are
 * written in is not the order the deliveries came in.
 */
const auditEntries = (action: string) =>
  server.db
    .selectFrom('audit_log')
    .select(['actor_email', 'target', 'details'])
    .where('action', '=', action)
    .orderBy('target')
    .orderBy('id')
    .execute()

/**
 * How long a poll waits for jobs: on PostgreSQL pg-boss takes one job at a time, polling every
 * half second or more, so a few deliveries take seconds.
 */
const FOR_JOBS = { timeout: 20_000 }

/** Whether every delivery of the topic was acted on (or, for a shop's erasure, erased with it). */
const topicDone = async (topic: string) => {
  const waiting = server.db
    .selectFrom('webhook_deliveries')
    .select('webhook_id')
    .where('topic', '=', topic)
    .where('done_at', 'is', null)
  return (await waiting.executeTakeFirst()) === undefined
}

// A customer's paid orders as Shopify's orders/paid bodies carry them: name, email, addresses.
const JANE = { id: 7001, email: 'jane.gdpr@example.com', phone: '+15035550123' }
const paidOrder = (id: number, customer: { id: number; email: string }) => ({
  id,
  admin_graphql_api_id: `gid://shopify/Order/${id}`,
  name: `#${id}`,
  created_at: '2026-11-20T10:00:00Z',
  currency: 'USD',
  total_price: '12.00',
  email: customer.email,
  customer: { id: customer.id, email: customer.email, first_name: 'Jane', last_name: 'Gdpr' },
  shipping_address: { name: 'Jane Gdpr', address1: '9 Privacy Lane', city: 'Portland' },
  line_items: [],
})
const OTHER_CUSTOMER = { id: 7002, email: 'sam.other@example.com' }

/** Maya's orders 5001 (Jane's) and 5002 (another customer's), Urban's 5003 (Jane's too). */
async function deliverPaidOrders() {
  for (const [shop, order] of [
    [MAYA, paidOrder(5001, JANE)],
    [MAYA, paidOrder(5002, OTHER_CUSTOMER)],
    [URBAN, paidOrder(5003, JANE)],
  ] as const) {
    await orderInShop(server, shop, order.id)
    expect((await signed(shop, 'orders/paid', order)).statusCode).toBe(200)
  }
  await expect.poll(() => topicDone('orders/paid'), FOR_JOBS).toBe(true)
}

const indexed = async () =>
  (
    await server.db
      .selectFrom('creator_order_index')
      .select(['order_id', 'store_shop'])
      .orderBy('order_id')
      .execute()
  ).map((row) => `${row.store_shop} ${row.order_id}`)

describe('customers/redact', () => {
  it('erases the customer from every table for the shop that asked, and keeps the money records and which shop has each order', async () => {
    server = await startServerUnderTest()
    expect((await processOrder('1001')).statusCode).toBe(201)
    await deliverPaidOrders()
    const dataRequest = {
      shop_id: 2,
      shop_domain: MAYA,
      orders_requested: [5001],
      customer: JANE,
      data_request: { id: 901 },
    }
    expect((await signed(MAYA, 'customers/data_request', dataRequest)).statusCode).toBe(200)
    await expect
      .poll(() => tablesHolding(JANE.email), FOR_JOBS)
      .toEqual(['data_requests', 'webhook_deliveries'])
    const money = await moneyRecords()

    const redact = {
      shop_id: 2,
      shop_domain: MAYA,
      customer: JANE,
      orders_to_redact: [1001, 5001, 5003],
    }
    expect((await signed(MAYA, 'customers/redact', redact)).statusCode).toBe(200)
    await expect.poll(() => topicDone('customers/redact'), FOR_JOBS).toBe(true)

    // The index still says which shop has each order (its number, date and total name no one):
    // what the orders' refunds, holds and transfers are settled by.
    expect(await indexed()).toEqual([
      `${MAYA} 1001`,
      `${URBAN} 1002`,
      `${MAYA} 1003`,
      `${URBAN} 1004`,
      `${MAYA} 1005`,
      `${MAYA} 5001`,
      `${MAYA} 5002`,
      `${URBAN} 5003`,
    ])
    // Nothing of Jane is left for Maya; Urban's own order body is Urban's to redact.
    const urbanBodies = await server.db
      .selectFrom('webhook_deliveries')
      .select(['shop', 'body'])
      .where('body', 'like', `%${JANE.email}%`)
      .execute()
    expect(urbanBodies.map((delivery) => delivery.shop)).toEqual([URBAN])
    expect(await tablesHolding('9 Privacy Lane')).toEqual(['webhook_deliveries'])
    expect(await tablesHolding(JANE.phone)).toEqual([])
    expect(await tablesHolding(OTHER_CUSTOMER.email)).toEqual(['webhook_deliveries'])
    // The transfer of order 1001 is a money record: kept as it was.
    expect(await moneyRecords()).toEqual(money)
    expect(await auditEntries('privacy.customer-redact')).toEqual([
      {
        actor_email: null,
        target: MAYA,
        details: JSON.stringify({
          orders: [1001, 5001, 5003],
          erased: { orderBodies: 1, dataRequests: 1 },
        }),
      },
    ])
  })

  it('is refused when it names another shop than the one that signed it', async () => {
    server = await startServerUnderTest()
    const redact = { shop_id: 3, shop_domain: URBAN, customer: JANE, orders_to_redact: [1004] }
    const answer = await signed(MAYA, 'customers/redact', redact)
    expect(answer.statusCode).toBe(400)
    expect(answer.json().message).toBe(
      `The webhook body does not fit its topic customers/redact: Shopify sends shop_id, shop_domain ${MAYA}, customer { id, email, phone } and orders_to_redact`,
    )
    expect(await indexed()).toContain(`${URBAN} 1004`)
  })
})

describe('customers/data_request', () => {
  it('is answered, for brand shops too, with exactly what Tandem holds on the customer for the shop, as JSON an administrator downloads', async () => {
    server = await startServerUnderTest()
    expect((await processOrder('1001')).statusCode).toBe(201)
    await deliverPaidOrders()
    const request = (shop: string, orders: number[], id: number) => ({
      shop_id: 2,
      shop_domain: shop,
      orders_requested: orders,
      customer: JANE,
      data_request: { id },
    })
    // Maya asks about 1001 and 5001, and (in vain) about Urban's 5003; Northwind about its own
    // brand order of 1001.
    const northwindOrder = await server.db
      .selectFrom('order_transfer_brands')
      .select(['brand_order_id', 'lines'])
      .where('brand_store_shop', '=', NORTHWIND)
      .executeTakeFirstOrThrow()
    const northwindOrderId = Number(northwindOrder.brand_order_id!.split('/').pop())
    expect(
      (await signed(MAYA, 'customers/data_request', request(MAYA, [1001, 5001, 5003], 901)))
        .statusCode,
    ).toBe(200)
    expect(
      (
        await signed(
          NORTHWIND,
          'customers/data_request',
          request(NORTHWIND, [northwindOrderId], 902),
        )
      ).statusCode,
    ).toBe(200)
    await expect.poll(() => topicDone('customers/data_request'), FOR_JOBS).toBe(true)

    const list = await server.app.inject({ url: '/admin-data-requests', headers: server.asAdmin })
    expect(list.json()).toEqual({
      requests: [
        expect.objectContaining({ id: `${NORTHWIND}:902`, shop: NORTHWIND, requestId: '902' }),
        expect.objectContaining({
          id: `${MAYA}:901`,
          shop: MAYA,
          requestId: '901',
          customerId: '7001',
        }),
      ],
      nextCursor: null,
    })
    const download = (id: string) =>
      server.app.inject({
        url: `/admin-data-request.json?id=${encodeURIComponent(id)}`,
        headers: server.asAdmin,
      })
    const maya = await download(`${MAYA}:901`)
    expect(maya.headers['content-type']).toBe('application/json; charset=utf-8')
    const transfer = await server.db
      .selectFrom('order_transfers')
      .select(['created_at', 'processed_at'])
      .executeTakeFirstOrThrow()
    const lumenOrder = await server.db
      .selectFrom('order_transfer_brands')
      .select(['brand_order_id', 'lines'])
      .where('brand_store_shop', '=', LUMEN)
      .executeTakeFirstOrThrow()
    const [payment] = (await moneyRecords()).payments
    expect(maya.json()).toEqual({
      shop: MAYA,
      dataRequestId: 901,
      customer: JANE,
      ordersRequested: [1001, 5001, 5003],
      compiledAt: expect.any(String),
      held: {
        creatorOrders: [
          {
            id: 1001,
            name: '#1001',
            createdAt: expect.any(String),
            currency: 'USD',
            totalMinor: 19754,
          },
          {
            id: 5001,
            name: '#5001',
            // Shopify's header, not the body's: one sticker pack, made today.
            createdAt: expect.any(String),
            currency: 'USD',
            totalMinor: 500,
          },
        ],
        orderWebhooks: [
          {
            webhookId: expect.any(String),
            receivedAt: expect.any(String),
            body: paidOrder(5001, JANE),
          },
        ],
        orderTransfers: [
          {
            creatorOrderId: '1001',
            currency: 'USD',
            status: 'COMPLETED',
            createdAt: transfer.created_at,
            processedAt: transfer.processed_at,
            paymentIntentIds: [payment!.payment_intent_id],
            brands: [
              {
                brandStoreShop: NORTHWIND,
                brandOrderId: northwindOrder.brand_order_id,
                baseMinor: 13600,
                brandAmountMinor: 10200,
                creatorCommissionMinor: 2040,
                tandemCommissionMinor: 1360,
                lines: JSON.parse(northwindOrder.lines),
              },
              {
                brandStoreShop: LUMEN,
                brandOrderId: lumenOrder.brand_order_id,
                baseMinor: 3450,
                brandAmountMinor: 2484,
                creatorCommissionMinor: 690,
                tandemCommissionMinor: 276,
                lines: JSON.parse(lumenOrder.lines),
              },
            ],
          },
        ],
        brandOrders: [],
      },
    })
    expect((await download(`${NORTHWIND}:902`)).json().held).toEqual({
      creatorOrders: [],
      orderWebhooks: [],
      orderTransfers: [],
      brandOrders: [
        {
          brandOrderId: northwindOrder.brand_order_id,
          creatorOrderId: '1001',
          baseMinor: 13600,
          brandAmountMinor: 10200,
          paidAt: expect.any(String),
          lines: JSON.parse(northwindOrder.lines),
        },
      ],
    })
    expect(await auditEntries('privacy.data-request')).toEqual([
      {
        actor_email: null,
        target: MAYA,
        details: JSON.stringify({ dataRequestId: 901, orders: 3 }),
      },
      {
        actor_email: null,
        target: NORTHWIND,
        details: JSON.stringify({ dataRequestId: 902, orders: 1 }),
      },
    ])
    const unknown = await download(`${MAYA}:999`)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().message).toBe(
      `No data request ${MAYA}:999: pick one from the list of data requests (it may have been erased since)`,
    )
  })
})

describe('shop/redact', () => {
  const SHOP_REDACT = (shop: string) => ({ shop_id: 2, shop_domain: shop })

  /** Every row of every table but the inbox's own (the delivery itself and its job). */
  const everything = async () => {
    const rows: Record<string, unknown> = {}
    for (const table of await tableNames())
      if (table !== 'webhook_deliveries' && table !== 'jobs') rows[table] = await rowsOf(table)
    return rows
  }

  it.each([
    ['a shop Tandem holds a token for', MAYA],
    ['a shop Tandem never connected (it stays unconnected)', NORTHWIND],
  ])('signed by the owner of %s, still installed, erases nothing', async (_name, shop) => {
    server = await startServerUnderTest()
    const before = await everything()
    const subscriptions = server.shopify.webhookSubscriptions(shop)
    // The shop's owner holds its app's secret: it signs the erasure of its own shop, installed.
    expect((await signed(shop, 'shop/redact', SHOP_REDACT(shop))).statusCode).toBe(200)
    await expect.poll(() => topicDone('shop/redact'), FOR_JOBS).toBe(true)
    expect(server.jobLog).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'shop/redact ignored: Shopify says the app is still installed in the shop',
      }),
    )
    // Shopify was asked without connecting the shop: no token kept (shop_connections is as it
    // was), no webhook registered.
    expect(await everything()).toEqual(before)
    expect(server.shopify.webhookSubscriptions(shop)).toEqual(subscriptions)
  })

  it('erases the shop once Shopify confirms the app is gone, and keeps its money records under a pseudonym', async () => {
    server = await startListeningServer()
    await expect.poll(() => server.shopify.webhookSubscriptions(MAYA).length).toBe(5)
    expect((await processOrder('1001')).statusCode).toBe(201)
    await deliverPaidOrders()
    const money = await moneyRecords()
    expect(await tablesHolding(MAYA)).toEqual(
      expect.arrayContaining(['stores', 'app_configs', 'shop_connections', 'order_transfers']),
    )
    // The merchant uninstalls the app: Shopify says so at once, and asks for the erasure later.
    await server.shopify.uninstall(MAYA)
    await expect
      .poll(
        () =>
          server.db
            .selectFrom('shop_connections')
            .select('shop')
            .where('shop', '=', MAYA)
            .execute(),
        FOR_JOBS,
      )
      .toEqual([])
    expect((await signed(MAYA, 'shop/redact', SHOP_REDACT(MAYA))).statusCode).toBe(200)
    await expect.poll(() => auditEntries('privacy.shop-redact'), FOR_JOBS).toHaveLength(1)

    expect(await tablesHolding(MAYA)).toEqual([])
    expect(await tablesHolding(JANE.email)).toEqual(['webhook_deliveries'])
    expect(await indexed()).toEqual([`${URBAN} 1002`, `${URBAN} 1004`, `${URBAN} 5003`])
    const [entry] = await auditEntries('privacy.shop-redact')
    const pseudonym = entry!.target
    expect(pseudonym).toMatch(/^redacted-shop-[0-9a-f]{12}$/)
    expect(entry!.actor_email).toBeNull()
    // The money records are kept, naming the pseudonym where they named Maya.
    const renamed = (shop: string) => (shop === MAYA ? pseudonym : shop)
    expect(await moneyRecords()).toEqual({
      transfers: money.transfers.map((t) => ({
        ...t,
        creator_store_shop: renamed(t.creator_store_shop),
      })),
      brands: money.brands,
      payments: money.payments.map((p) => ({
        ...p,
        creator_store_shop: renamed(p.creator_store_shop),
      })),
    })
    expect(await auditEntries('transfer.process')).toHaveLength(1)
  })

  it('refuses a customer’s erasure relabelled as the shop’s', async () => {
    server = await startServerUnderTest()
    const redact = { shop_id: 2, shop_domain: MAYA, customer: JANE, orders_to_redact: [] }
    const answer = await signed(MAYA, 'shop/redact', redact)
    expect(answer.statusCode).toBe(400)
    expect(answer.json().message).toBe(
      `The webhook body does not fit its topic shop/redact: Shopify sends shop_id and shop_domain ${MAYA}, and nothing else`,
    )
  })
})
