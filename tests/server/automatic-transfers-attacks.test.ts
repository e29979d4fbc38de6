import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { FRAUD_RELEASE_HINT, type OrderReadiness } from '@shared/contract'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import type { CommercePort } from '../../server/src/adapters/commerce/commerce-port'
import type { PaymentsPort } from '../../server/src/adapters/payments/payments-port'
import type { Db } from '../../server/src/db/connect'
import { BRAND_PRODUCTS, creatorVariantId, sandboxApp } from '../../server/src/seed/sandbox-data'
import {
  TRANSFER_RETRIES,
  transferAutomatically,
} from '../../server/src/services/automatic-transfers'
import { NORTHWIND, LUMEN, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { postWebhook, signBody } from './support/signed-webhook'
import {
  startListeningServer,
  type ServerOptions,
  type ServerUnderTest,
} from './support/server-under-test'

// Automatic transfers under attack (issue 32): a creator holds its app's secret and signs any
// orders/paid body it likes for its own shop, and an administrator's changes race the jobs. Each
// test is an attack an adversarial review found, and failed before its fix.

const MAYA = 'maya-makes.myshopify.com'
const URBAN = 'urban-trail-edits.myshopify.com'
const IRONPEAK = 'ironpeak-outdoor.myshopify.com'
const ALL_SHOPS = [MAYA, URBAN, NORTHWIND, LUMEN, IRONPEAK]
const copyOf = (creator: string, key: string) =>
  creatorVariantId(
    creator,
    BRAND_PRODUCTS.findIndex((product) => product.key === key),
  )

let server: ServerUnderTest
afterEach(() => server.close())

/** The server's clock, `offsetMs` from the real one. */
let offsetMs = 0
const captured: { commerce?: CommercePort; payments?: PaymentsPort } = {}

async function start(options: ServerOptions = {}) {
  offsetMs = 0
  server = await startListeningServer({
    stripeApi: { wait: async () => {} },
    now: () => new Date(Date.now() + offsetMs),
    commerce: (commerce) => (captured.commerce = commerce),
    payments: (payments) => (captured.payments = payments),
    ...options,
  })
  for (const shop of [MAYA, URBAN]) {
    const connected = await call('POST', '/admin-test-shop-connection', { shop })
    expect(connected.json()).toMatchObject({ state: 'CONNECTED' })
    await expect.poll(() => server.shopify.webhookSubscriptions(shop).length).toBe(5)
  }
}

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: server.asAdmin, payload })

const setPolicy = async (mode: 'MANUAL' | 'AUTOMATIC', holdMinutes: number) =>
  expect((await call('POST', '/admin-set-transfer-policy', { mode, holdMinutes })).statusCode).toBe(
    200,
  )

async function customerPays(shop: string, key: string, amountMinor = 6800) {
  const { orderId } = await createStripePaidOrder(
    server,
    shop,
    { lines: [{ variantId: copyOf(shop, key), quantity: 1 }] },
    { amountMinor, currency: 'usd' },
  )
  return orderId
}

async function readiness(orderId: string): Promise<OrderReadiness | undefined> {
  const response = await call('GET', `/admin-creator-orders?q=${orderId}`)
  const rows = response.json().orders as { id: string; readiness: OrderReadiness }[]
  return rows.find((row) => row.id === orderId)?.readiness
}

const automation = (orderId: string) =>
  server.db
    .selectFrom('order_automation')
    .select(['state', 'store_shop', 'paused_brand', 'generation'])
    .where('creator_order_id', '=', orderId)
    .executeTakeFirst()

const transfers = () => server.stripe.transfers()

/** The id Shopify gives the next order, in any shop (ids are global and increasing). */
const nextOrderId = () =>
  Math.max(
    ...ALL_SHOPS.flatMap((shop) =>
      server.shopify.orders(shop).map((order) => Number(order.id.split('/').pop())),
    ),
  ) + 1

/** Whether the delivery was acted on (a forged one: looked into, and ignored). */
const actedOn = async (webhookId: string) =>
  Boolean(
    (
      await server.db
        .selectFrom('webhook_deliveries')
        .select('done_at')
        .where('webhook_id', '=', webhookId)
        .executeTakeFirst()
    )?.done_at,
  )

/** Maya's app signs an orders/paid body for an order id of its choosing; answers once acted on. */
async function forgedPaid(orderId: number) {
  const webhookId = randomUUID()
  const body = JSON.stringify({
    id: orderId,
    admin_graphql_api_id: `gid://shopify/Order/${orderId}`,
    name: '#FORGED',
    created_at: new Date().toISOString(),
    currency: 'USD',
    total_price: '1.00',
  })
  const response = await postWebhook(server, {
    shop: MAYA,
    topic: 'orders/paid',
    body,
    signature: signBody(body, sandboxApp(MAYA).clientSecret),
    id: webhookId,
  })
  expect(response.statusCode).toBe(200)
  await expect.poll(() => actedOn(webhookId)).toBe(true)
}

/** Nothing Tandem recorded of the order: neither indexed nor automatic. */
const unknownTo = async (orderId: number) => ({
  indexed: await server.db
    .selectFrom('creator_order_index')
    .select('store_shop')
    .where('order_id', '=', orderId)
    .executeTakeFirst(),
  automatic: await automation(String(orderId)),
})

describe('a creator signing orders/paid for an order id of another creator', () => {
  it("does not make the other creator's order transfer before its own hold ends", async () => {
    await start()
    await setPolicy('AUTOMATIC', 1)
    const predicted = nextOrderId()
    // Maya signs orders/paid for the next order id before Urban's customer pays for it: Maya's
    // Shopify has no such order, so Tandem records nothing of it.
    await forgedPaid(predicted)
    expect(await unknownTo(predicted)).toEqual({ indexed: undefined, automatic: undefined })
    const paidAt = Date.now()
    const orderId = await customerPays(URBAN, 'linen-overshirt')
    expect(orderId).toBe(String(predicted))
    // Urban's order, Urban's, waits out its own hold from its own payment.
    await expect.poll(() => automation(orderId)).toMatchObject({ store_shop: URBAN })
    const waiting = await readiness(orderId)
    expect(waiting).toMatchObject({ state: 'WAITING' })
    expect(Date.parse((waiting as { until: string }).until) - paidAt).toBeGreaterThanOrEqual(60_000)
    expect(transfers()).toEqual([])
  }, 40_000)

  it("does not stop the other creator's order from transferring itself", async () => {
    await start()
    await setPolicy('AUTOMATIC', 0)
    const predicted = nextOrderId()
    await forgedPaid(predicted)
    expect(await unknownTo(predicted)).toEqual({ indexed: undefined, automatic: undefined })
    const orderId = await customerPays(URBAN, 'linen-overshirt')
    expect(orderId).toBe(String(predicted))
    await expect.poll(() => readiness(orderId), { timeout: 10_000 }).toEqual({ state: 'COMPLETED' })
  }, 40_000)

  it("leaves another creator's known order where Shopify says it is", async () => {
    await start()
    await setPolicy('AUTOMATIC', 0)
    // Urban's order 1004 (its sandbox order), claimed by Maya's signature.
    await forgedPaid(1004)
    expect(await unknownTo(1004)).toEqual({
      indexed: { store_shop: URBAN },
      automatic: undefined,
    })
    expect(transfers()).toEqual([])
  })
})

describe('an order paid while the policy was MANUAL', () => {
  it('stays for an administrator when its creator signs orders/paid again once AUTOMATIC', async () => {
    await start()
    await setPolicy('MANUAL', 0)
    const orderId = await customerPays(MAYA, 'linen-overshirt')
    await expect.poll(() => readiness(orderId)).toEqual({ state: 'MANUAL' })
    // The administrator turns the policy on: only orders paid from now on are automatic.
    await setPolicy('AUTOMATIC', 0)
    const body = JSON.stringify({
      id: Number(orderId),
      admin_graphql_api_id: `gid://shopify/Order/${orderId}`,
    })
    const webhookId = randomUUID()
    const replay = await postWebhook(server, {
      shop: MAYA,
      topic: 'orders/paid',
      body,
      signature: signBody(body, sandboxApp(MAYA).clientSecret),
      id: webhookId,
    })
    expect(replay.statusCode).toBe(200)
    await expect.poll(() => actedOn(webhookId)).toBe(true)
    expect(await automation(orderId)).toBeUndefined()
    expect(transfers()).toEqual([])
    expect(await readiness(orderId)).toEqual({ state: 'MANUAL' })
  }, 40_000)
})

describe('a brand resumed while the job is stopping at its pause', () => {
  it('does not leave the order HELD by a pause that no longer exists (shown as MANUAL, never run)', async () => {
    await start()
    const reason = 'Northwind is moving warehouses this week'
    expect((await call('POST', '/admin-pause-brand', { shop: NORTHWIND, reason })).statusCode).toBe(
      200,
    )
    // Recorded automatic, its job due in 30 minutes; the hold then shortened to none.
    await setPolicy('AUTOMATIC', 30)
    const orderId = await customerPays(MAYA, 'linen-overshirt')
    await expect.poll(() => automation(orderId)).toMatchObject({ state: 'WAITING', generation: 1 })
    await setPolicy('AUTOMATIC', 0)

    // The job runs (as its worker would), and the administrator resumes Northwind between the
    // job's reading of the pause and its recording of HELD.
    let pauseRead = false
    let resumed = false
    const db = new Proxy(server.db, {
      get(target, property, receiver) {
        if (property === 'selectFrom') {
          return (table: string) => {
            if (table === 'brand_pauses') pauseRead = true
            return target.selectFrom(table as 'brand_pauses')
          }
        }
        if (property === 'transaction' && pauseRead && !resumed) {
          return () => ({
            execute: async (work: (trx: Db) => Promise<unknown>) => {
              resumed = true
              const resume = await call('POST', '/admin-resume-brand', { shop: NORTHWIND })
              expect(resume.statusCode).toBe(200)
              return target.transaction().execute(work)
            },
          })
        }
        const value = Reflect.get(target, property, receiver) as unknown
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    await transferAutomatically(
      {
        db,
        jobs: server.jobs,
        commerce: captured.commerce!,
        payments: captured.payments!,
        now: () => new Date(),
        transferTiming: undefined,
      },
      { creatorOrderId: orderId, generation: 1 },
      { id: 'review', attempt: 1, signal: new AbortController().signal },
      TRANSFER_RETRIES,
      { warn: () => {} },
    )
    expect(resumed).toBe(true)
    // Northwind is no longer paused: the order must transfer itself (or at least be queued).
    await expect.poll(() => readiness(orderId), { timeout: 10_000 }).toEqual({ state: 'COMPLETED' })
  }, 40_000)
})

describe('an order Shopify found a risk of fraud on', () => {
  /** What the orders inbox and the transfer screen say of an overshirt order Shopify flagged. */
  const flagged = (orderId: string) =>
    `Creator order #${orderId} may be fraudulent: Shopify recommends cancelling it; Shopify rates its risk of fraud high (Card verification (CVV) failed; Billing address is far from the IP address); its fulfillment is on hold for a high risk of fraud (Flagged by Shopify's fraud analysis). Review it in maya makes's Shopify admin and cancel it there if it is fraud; an administrator may release it for transfer once satisfied that the order is genuine`

  /** An automatic order of an overshirt, waiting out its 30-minute hold. */
  async function overshirtWaiting() {
    await setPolicy('AUTOMATIC', 30)
    const orderId = await customerPays(MAYA, 'linen-overshirt')
    await expect.poll(() => readiness(orderId)).toMatchObject({ state: 'WAITING' })
    return orderId
  }

  /** Its hold ends: two hours on, the recheck runs the job it finds overdue. */
  async function holdEnds() {
    offsetMs = 2 * 60 * 60_000
    await server.jobs.send('attention-recheck', {})
  }

  const RELEASE_REASON = 'Called the customer, who confirmed the order'
  const release = (orderId: string) =>
    call('POST', '/admin-release-fraud-check', { creatorOrderId: orderId, reason: RELEASE_REASON })

  it('is neither ordered nor paid when its hold ends, nor on a click, until an administrator releases it', async () => {
    await start()
    const orderId = await overshirtWaiting()
    // During the hold, Shopify's fraud analysis rates the order high and holds its fulfillment.
    const gid = `gid://shopify/Order/${orderId}`
    server.shopify.assessRisk(MAYA, gid, {
      riskLevel: 'HIGH',
      provider: null,
      facts: [
        { description: 'Card verification (CVV) failed', sentiment: 'NEGATIVE' },
        { description: 'Billing address is far from the IP address', sentiment: 'NEGATIVE' },
        { description: 'The customer has ordered before', sentiment: 'POSITIVE' },
      ],
    })
    await server.shopify.holdFulfillment(
      MAYA,
      gid,
      'HIGH_RISK_OF_FRAUD',
      "Flagged by Shopify's fraud analysis",
    )
    await holdEnds()
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toEqual({
        state: 'NEEDS_ATTENTION',
        reasons: [
          {
            sentence: flagged(orderId),
            // Released by an administrator, on the order's own transfer page.
            remedy: {
              party: { role: 'ADMINISTRATOR', shop: null },
              fix: FRAUD_RELEASE_HINT,
              link: {
                label: "the order's transfer page",
                to: `/main/create-order-transfer?creatorOrderId=${orderId}`,
              },
            },
          },
        ],
      })
    // An administrator's click is stopped the same way.
    const clicked = await call('POST', '/admin-create-order-transfer', { creatorOrderId: orderId })
    expect({ status: clicked.statusCode, body: clicked.json() }).toEqual({
      status: 422,
      body: { error: 'business_rule', message: flagged(orderId) },
    })
    const northwindOrders = () =>
      server.shopify
        .orders(NORTHWIND)
        .filter((order) => order.tags.includes(`tandem-transfer-${orderId}`))
    expect(northwindOrders()).toEqual([])
    expect(transfers()).toEqual([])

    expect((await release(orderId)).statusCode).toBe(200)
    // The order is back on the queue, and transfers itself: one overshirt, Northwind paid 51.00.
    await expect.poll(() => readiness(orderId), { timeout: 10_000 }).toEqual({ state: 'COMPLETED' })
    expect(northwindOrders().map((order) => order.lines.map((line) => line.quantity))).toEqual([
      [1],
    ])
    expect(transfers().map(({ destination, amount }) => ({ destination, amount }))).toEqual([
      { destination: NORTHWIND_ACCOUNT, amount: 5100 },
    ])
    const audit = await call('GET', '/admin-audit-log')
    expect(audit.json().entries).toContainEqual(
      expect.objectContaining({
        action: 'transfer.release-fraud-check',
        target: orderId,
        details: {
          reason: RELEASE_REASON,
          findings: expect.stringContaining('Shopify recommends cancelling it'),
        },
      }),
    )
  })

  it("waits, retried, while Shopify's fraud analysis is pending, and transfers once it rates the order low", async () => {
    await start({ jobRetries: { delaySeconds: 2 } })
    const orderId = await overshirtWaiting()
    const gid = `gid://shopify/Order/${orderId}`
    // Shopify's analysis has not rated the order yet when its hold ends.
    server.shopify.assessRisk(MAYA, gid, { riskLevel: 'PENDING', provider: null, facts: [] })
    await holdEnds()
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toEqual({
        state: 'RETRYING',
        until: expect.any(String),
        message: `Shopify's fraud analysis of creator order #${orderId} is still under way: try again in a few minutes, once it has rated the order`,
      })
    expect(
      server.shopify
        .orders(NORTHWIND)
        .filter((order) => order.tags.includes(`tandem-transfer-${orderId}`)),
    ).toEqual([])
    expect(transfers()).toEqual([])
    // The analysis is done: a low risk. The next attempt transfers the overshirt, 51.00.
    server.shopify.assessRisk(MAYA, gid, { riskLevel: 'LOW', provider: null, facts: [] })
    await expect.poll(() => readiness(orderId), { timeout: 15_000 }).toEqual({ state: 'COMPLETED' })
    expect(transfers().map(({ destination, amount }) => ({ destination, amount }))).toEqual([
      { destination: NORTHWIND_ACCOUNT, amount: 5100 },
    ])
  }, 40_000)

  it('transfers without a click when released while its job decides', async () => {
    let released = false
    await start({
      transferTiming: {
        // The job found the order needs attention; the administrator releases it before it says so.
        failpoint: async (name) => {
          if (name !== 'automatic:before-attention' || released) return
          released = true
          expect((await release(orderId)).statusCode).toBe(200)
        },
      },
    })
    const orderId = await overshirtWaiting()
    server.shopify.assessRisk(MAYA, `gid://shopify/Order/${orderId}`, {
      riskLevel: 'HIGH',
      provider: null,
      facts: [],
    })
    await holdEnds()
    await expect.poll(() => readiness(orderId), { timeout: 10_000 }).toEqual({ state: 'COMPLETED' })
    expect(released).toBe(true)
    expect(transfers().map(({ destination, amount }) => ({ destination, amount }))).toEqual([
      { destination: NORTHWIND_ACCOUNT, amount: 5100 },
    ])
  })
})
