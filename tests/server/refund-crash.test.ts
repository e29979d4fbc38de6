import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { ShopifyEmulator } from '../../emulators/shopify/emulator'
import type { StripeEmulator } from '../../emulators/stripe/emulator'
import type { Db } from '../../server/src/db/connect'
import { JOB_SCHEMA } from '../../server/src/jobs/open-job-queue'
import { REFUND_CATCH_UP_FAILPOINTS } from '../../server/src/refunds/refund-catch-up'
import { ORDER_REFUND_JOB } from '../../server/src/transfers/order-refunds'
import { LUMEN, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { crashScenarios } from './support/crash-scenario'
import { creatorStopsRefundNews } from './support/refund-world'
import type { ServerProcess } from './support/server-process'
import { jobSchema, startListeningServer, type ServerUnderTest } from './support/server-under-test'

// The crash harness after the sale (issue 33): what a creator's refund sets off (each party's
// transfer reversed, the brand's order refunded or cancelled) is killed with SIGKILL at each
// boundary of its steps, in the real server in processes of its own on SQLite (and on PostgreSQL
// when TANDEM_TEST_DATABASE_URL is set), and a process started again takes the job over; and each
// call's answer is lost once, in a server of the test's own, and the job's next run reconciles.
// Whatever happened, each reversal and each brand refund or cancellation exists exactly once in
// Stripe and Shopify, and the ledger (order_reversals) and Activity say what was done, once.
//
// Order 1001 of maya-makes, transferred: Northwind was paid 102.00 for two Linen Overshirts (line
// 0), Lumen 24.84 for a face oil, Maya her commission of 27.30. The customer gets one overshirt's
// 68.00 back: 51.00 goes back from Northwind's transfer, 10.20 from Maya's, and Northwind's order
// refunds the overshirt. Both refunded: 102.00 and 20.40 go back, and Northwind's order, which then
// sells nothing, is cancelled.

/**
 * Each fires where it is first passed: at Northwind's reversal (Lumen's, of nothing, passes none;
 * the creator's, which the same code makes, comes after), and at Northwind's order.
 */
const BOUNDARIES = [
  'reversal:before-intent',
  'reversal:before-call',
  'reversal:after-call',
  'brandRefund:before-call',
  'brandRefund:after-call',
] as const

/**
 * Short, so that a killed server's hold on the order's refunds runs out soon; remote calls get a
 * third of it, as in crash-harness.test.ts.
 */
const LEASE_MS = 3600
/**
 * How soon a killed process's job is run again: past the lease above, so that the run taking it
 * over finds the order's refunds free. pg-boss takes at least 10 s, then the retry delay (1 s).
 */
const JOB_LEASE_MS = 4000
/** Twice the longest takeover (pg-boss's), for a loaded machine. */
const TAKEOVER_MS = 60_000

const MAYA = 'maya-makes.myshopify.com'
const MAYA_ACCOUNT = 'acct_maya_makes'
const ORDER_1001 = 'gid://shopify/Order/1001'
const CHARGE = 'ch_sandbox_order_1001'
const OVERSHIRT = 'gid://shopify/ProductVariant/201'
const FACE_OIL = 'gid://shopify/ProductVariant/203'
/** What one Linen Overshirt cost the customer: what Stripe gives back for it. */
const OVERSHIRT_MINOR = 6800

/** A server (a process, or one of the test's own) and what it works with, as a test sees them. */
interface Market {
  shopify: ShopifyEmulator
  stripe: StripeEmulator
  db: Db
  /** Where the queue keeps its jobs: its own table on SQLite, pg-boss's on PostgreSQL. */
  jobTable: string
  /** Where the server answers, Shopify's deliveries included. */
  url: string
  admin: { authorization: string }
}

async function call(market: Market, method: 'GET' | 'POST', path: string, body?: object) {
  const response = await fetch(`${market.url}${path}`, {
    method,
    headers: { ...market.admin, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/**
 * Order 1001 transferred, with Maya connected (her refunds/create deliveries reach this server)
 * and her commission paid.
 */
async function transferred(market: Market) {
  market.stripe.addAccount({ id: MAYA_ACCOUNT })
  const connected = await call(market, 'POST', '/admin-test-shop-connection', { shop: MAYA })
  expect(connected.body).toMatchObject({ state: 'CONNECTED' })
  await expect
    .poll(() =>
      market.shopify
        .webhookSubscriptions(MAYA)
        .filter((subscription) => subscription.topic === 'REFUNDS_CREATE')
        .map((subscription) => subscription.uri),
    )
    .toEqual([`${market.url}/webhooks/shopify`])
  const account = await call(market, 'POST', '/admin-set-store-payment-account', {
    shop: MAYA,
    accountId: MAYA_ACCOUNT,
  })
  expect(account.status).toBe(200)
  const processed = await call(market, 'POST', '/admin-create-order-transfer', {
    creatorOrderId: '1001',
  })
  expect(processed.status).toBe(201)
  await expect
    .poll(() => paidTo(market, MAYA_ACCOUNT), { timeout: 20_000, interval: 100 })
    .toEqual([2730])
  expect([paidTo(market, NORTHWIND_ACCOUNT), market.shopify.stockOf(OVERSHIRT)]).toEqual([
    [10200],
    98,
  ])
}

const paidTo = (market: Market, account: string) =>
  market.stripe
    .transfers()
    .filter((transfer) => transfer.destination === account)
    .map((transfer) => transfer.amount)

/**
 * The customer gets `overshirts` Linen Overshirts' money back through the order's payment
 * (Stripe), and Maya refunds them in her Shopify admin, returned to stock: its refunds/create
 * goes to the server she is connected through.
 */
async function creatorRefunds(market: Market, overshirts: 1 | 2) {
  market.stripe.refund(CHARGE, overshirts * OVERSHIRT_MINOR)
  await market.shopify.refund(MAYA, ORDER_1001, [{ line: 0, quantity: overshirts }], {
    restockType: 'RETURN',
  })
  expect(market.shopify.refunds(MAYA, ORDER_1001).map((refund) => refund.amount)).toEqual([
    overshirts === 1 ? '68.00' : '136.00',
  ])
}

const PG_BOSS_STATES: Record<string, string> = { completed: 'done', failed: 'dead' }

/** The states of the order's refund jobs, as the queue holds them. */
async function refundJobs(market: Market): Promise<string[]> {
  const jobs = await sql<{ state: string }>`
    SELECT state FROM ${sql.table(market.jobTable)} WHERE name = ${ORDER_REFUND_JOB}
  `.execute(market.db)
  return jobs.rows.map(({ state }) => PG_BOSS_STATES[state] ?? state)
}

/**
 * Waits until the refund's job ended done (on PostgreSQL, a killed process's delivery may be
 * acted on twice, each sending one): nothing is done after, and what the emulators hold is final.
 */
async function refundSettled(market: Market) {
  await expect
    .poll(
      async () => {
        const states = await refundJobs(market)
        return states.length > 0 && states.every((state) => state === 'done')
      },
      { timeout: TAKEOVER_MS, interval: 200 },
    )
    .toBe(true)
}

/** Every reversal Stripe made, as its dashboard lists them: from whom, how much, for what. */
const reversals = (market: Market) =>
  market.stripe
    .reversals()
    .map(({ destination, amount, currency, metadata }) => ({
      destination,
      amount,
      currency,
      metadata,
    }))
    .sort((a, b) => a.destination.localeCompare(b.destination))

const reversal = (destination: string, amount: number, storeShop: string) => ({
  destination,
  amount,
  currency: 'usd',
  metadata: {
    creator_order_id: '1001',
    store_shop: storeShop,
    // Named after the transfer (tr_…), the first of its reversals.
    reversal_key: expect.stringMatching(/^reversal:tr_[A-Za-z0-9]+:0$/),
  },
})

/** The brand's one order of 1001, as the brand's Shopify admin shows it. */
const brandOrder = (market: Market, shop: string) => {
  const found = market.shopify
    .orders(shop)
    .filter((order) => order.tags.includes('tandem-transfer-1001'))
  expect(found).toHaveLength(1)
  return found[0]!
}

/** Activity's entries of `action`, as the console lists them. */
async function activity(market: Market, action: string) {
  const { body } = await call(market, 'GET', '/admin-audit-log?limit=500')
  return (body.entries as { action: string; actorEmail: string | null; details: object }[])
    .filter((entry) => entry.action === action)
    .map(({ actorEmail, details }) => ({ actorEmail, details }))
}

/** The ledger's reversals of order 1001. */
const ledger = (market: Market) =>
  market.db
    .selectFrom('order_reversals')
    .select(['store_shop', 'seq', 'party', 'amount_minor', 'reversal_id', 'owed_since'])
    .where('creator_order_id', '=', '1001')
    .orderBy('store_shop')
    .orderBy('seq')
    .execute()

const usd = (minor: number) => `${(minor / 100).toFixed(2)} USD`

/**
 * Each party's reversal made once, recorded once with Stripe's id and said once in Activity; and
 * Northwind's order refunded one overshirt, or cancelled (both), once; Lumen's left alone.
 */
async function expectGivenBackOnce(market: Market, overshirts: 1 | 2) {
  await refundSettled(market)
  const northwindBack = overshirts * 5100
  const mayaBack = overshirts * 1020
  expect(reversals(market)).toEqual([
    reversal(MAYA_ACCOUNT, mayaBack, MAYA),
    reversal(NORTHWIND_ACCOUNT, northwindBack, NORTHWIND),
  ])
  const made = market.stripe.reversals()
  const idOf = (account: string) => made.find((one) => one.destination === account)!.id
  const row = (shop: string, party: string, amount: number, account: string) => ({
    store_shop: shop,
    seq: 0,
    party,
    amount_minor: amount,
    reversal_id: idOf(account),
    owed_since: null,
  })
  expect(await ledger(market)).toEqual([
    row(MAYA, 'CREATOR', mayaBack, MAYA_ACCOUNT),
    row(NORTHWIND, 'BRAND', northwindBack, NORTHWIND_ACCOUNT),
  ])
  const said = (party: string, shop: string, amount: number, account: string) => ({
    actorEmail: null,
    details: expect.objectContaining({
      party,
      storeShop: shop,
      amount: usd(amount),
      reversalId: idOf(account),
    }),
  })
  expect(await activity(market, 'transfer.reversal')).toEqual(
    expect.arrayContaining([
      said('BRAND', NORTHWIND, northwindBack, NORTHWIND_ACCOUNT),
      said('CREATOR', MAYA, mayaBack, MAYA_ACCOUNT),
    ]),
  )
  expect(await activity(market, 'transfer.reversal')).toHaveLength(2)

  const northwind = brandOrder(market, NORTHWIND)
  const lumen = brandOrder(market, LUMEN)
  expect([lumen.cancelledAt, market.shopify.refunds(LUMEN, lumen.id)]).toEqual([null, []])
  const northwindRefunds = market.shopify
    .refunds(NORTHWIND, northwind.id)
    .map(({ amount, lines }) => ({
      amount,
      lines: lines.map(({ line, quantity, restockType }) => ({ line, quantity, restockType })),
    }))
  const brandActivity = {
    refunds: await activity(market, 'order.brand-refund'),
    cancellations: await activity(market, 'order.brand-cancel'),
  }
  const onNorthwind = { brandShop: NORTHWIND, brandOrderId: northwind.id }
  if (overshirts === 1) {
    expect(northwind.cancelledAt).toBeNull()
    expect(northwindRefunds).toEqual([
      { amount: '0.00', lines: [{ line: 0, quantity: 1, restockType: 'CANCEL' }] },
    ])
    expect(brandActivity).toEqual({
      refunds: [{ actorEmail: null, details: { ...onNorthwind, units: 1 } }],
      cancellations: [],
    })
  } else {
    expect(northwind.cancelledAt).not.toBeNull()
    expect(northwindRefunds).toEqual([])
    expect(brandActivity).toEqual({
      refunds: [],
      cancellations: [{ actorEmail: null, details: onNorthwind }],
    })
  }
  // Northwind's stock gave the two overshirts once, and got back those given back, once.
  expect([market.shopify.stockOf(OVERSHIRT), market.shopify.stockOf(FACE_OIL)]).toEqual([
    98 + overshirts,
    99,
  ])
}

/** Shopify's job cancels the brand's order this long after orderCancel: Tandem waits for it. */
const CANCEL_JOB_MS = 500
const crash = crashScenarios({ cancelDelayMs: CANCEL_JOB_MS })
const start = (failpoints?: string) =>
  crash.current().start({
    leaseMs: LEASE_MS,
    jobLeaseMs: JOB_LEASE_MS,
    jobRetryDelaySeconds: 1,
    ...(failpoints ? { failpoints } : {}),
  })

/** The scenario as seen through one of its server processes. */
const through = async (on: ServerProcess): Promise<Market> => ({
  shopify: crash.current().shopify,
  stripe: crash.current().stripe,
  db: await crash.current().db(),
  // pg-boss keeps its jobs in its own schema.
  jobTable: crash.current().database.env.DATABASE_URL ? `${JOB_SCHEMA}.job` : 'jobs',
  url: on.url,
  admin: crash.admin(),
})

/** Killed at `failpoint` in the refund's job; a process started after takes the job over. */
async function killedThenRestarted(failpoint: string, overshirts: 1 | 2) {
  await crash.begin()
  const doomed = await start(`${failpoint}=kill`)
  const before = await through(doomed)
  await transferred(before)
  await creatorRefunds(before, overshirts)
  expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })
  await doomed.line(new RegExp(`^failpoint ${failpoint}: kill$`))

  const restarted = await start()
  await expectGivenBackOnce(await through(restarted), overshirts)
}

describe('killed with SIGKILL in a refund’s job, then started again', { timeout: 120_000 }, () => {
  it.each(BOUNDARIES)('at %s: one overshirt refunded', (failpoint) =>
    killedThenRestarted(failpoint, 1),
  )

  it('at brandRefund:after-call: both refunded, Northwind’s order cancelled', () =>
    killedThenRestarted('brandRefund:after-call', 2))
})

/**
 * Maya's refund reaches no server (she deleted her subscriptions, and none runs as she refunds): a
 * process started after learns of it in its start-up refund catch-up, and is killed there; the
 * next one catches it up.
 */
describe(
  'killed with SIGKILL in the refund catch-up, then started again',
  { timeout: 120_000 },
  () => {
    it.each(REFUND_CATCH_UP_FAILPOINTS)('at %s: one overshirt refunded', async (failpoint) => {
      await crash.begin()
      const first = await start()
      const before = await through(first)
      await transferred(before)
      await creatorStopsRefundNews(before.shopify)
      await first.stop()
      await creatorRefunds(before, 1)

      const doomed = await start(`${failpoint}=kill`)
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })
      await doomed.line(new RegExp(`^failpoint ${failpoint}: kill$`))
      const restarted = await start()
      await expectGivenBackOnce(await through(restarted), 1)
    })
  },
)

let server: (ServerUnderTest & { port: number }) | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A server of the test's own, listening, so that Maya's deliveries reach it. */
async function ownServer(): Promise<Market> {
  // Stripe's tries follow each other at once: the first run gives up on its lost answer soon.
  server = await startListeningServer({ stripeApi: { wait: async () => {} } })
  return {
    shopify: server.shopify,
    stripe: server.stripe,
    db: server.db,
    jobTable: server.sqliteFile ? 'jobs' : `${jobSchema(await schemaOf(server.db))}.job`,
    url: `http://127.0.0.1:${server.port}`,
    admin: server.asAdmin,
  }
}

/** The test's own schema on PostgreSQL, after which pg-boss's is named. */
async function schemaOf(db: Db): Promise<string> {
  const found = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)
  return found.rows[0]!.schema
}

/** The failures of the refund's job the server logged: each one's error. */
const failedRuns = () =>
  server!.jobLog
    .filter((line) => line.details.job === ORDER_REFUND_JOB)
    .map((line) => ({ message: line.message, error: (line.details.err as Error).message }))

/** A lost answer of each call: made, its answer never heard; the job's next run reconciles. */
const LOST_ANSWERS = [
  {
    lost: 'transfers.createReversal',
    overshirts: 1,
    reason: 'The connection to Stripe was lost before its answer arrived',
  },
  {
    lost: 'refundCreate',
    overshirts: 1,
    reason: `Shopify did not answer RefundCreate for ${NORTHWIND}`,
  },
  {
    lost: 'orderCancel',
    overshirts: 2,
    reason: `Shopify did not answer OrderCancel for ${NORTHWIND}`,
  },
] as const

describe('a lost answer in a refund’s job', () => {
  it.each(LOST_ANSWERS)('of $lost', async ({ lost, overshirts, reason }) => {
    const market = await ownServer()
    await transferred(market)
    if (lost === 'transfers.createReversal') {
      // Every try of the first run: Northwind's reversal is made, no answer is heard.
      market.stripe.script({
        operation: 'transfers.createReversal',
        mode: 'drop_after_write',
        target: NORTHWIND_ACCOUNT,
        times: 100,
      })
    } else {
      market.shopify.script({ operation: lost, mode: 'drop_after_write', shop: NORTHWIND })
    }
    await creatorRefunds(market, overshirts)
    await expectGivenBackOnce(market, overshirts)

    // The first run failed on the lost answer; the next one found the work done, and did not
    // ask for it again.
    expect(failedRuns()).toEqual([
      {
        message: `a ${ORDER_REFUND_JOB} job failed: it will be retried`,
        error: expect.stringContaining(reason),
      },
    ])
    if (lost === 'transfers.createReversal') {
      const northwindTransfer = market.stripe
        .transfers()
        .find((transfer) => transfer.destination === NORTHWIND_ACCOUNT)!.id
      const asked = market.stripe
        .calls()
        .filter((made) => made.path === `/v1/transfers/${northwindTransfer}/reversals`)
        .map((made) => `${made.method} ${made.idempotencyKey ?? ''}`)
      expect(new Set(asked)).toEqual(new Set([`POST reversal:${northwindTransfer}:0`, 'GET ']))
    } else {
      expect(market.shopify.calls(NORTHWIND, lost)).toBe(1)
    }
  })
})
