import { expect } from 'vitest'
import type { ShopifyEmulator } from '../../../emulators/shopify/emulator'
import { API_VERSION } from '../../../emulators/shopify/schema'
import { createStripePaidOrder } from '../../../emulators/stripe-paid-order'
import { BRAND_PRODUCTS, creatorVariantId } from '../../../server/src/seed/sandbox-data'
import { LUMEN_ACCOUNT, NORTHWIND_ACCOUNT } from '../../support/sandbox-figures'
import { startListeningServer, type ServerOptions, type ServerUnderTest } from './server-under-test'
import { appToken } from './shopify-admin-client'

// The marketplace a refund test works in (issue 33): a listening server whose creator shop Maya
// is connected (her refunds/create and orders/cancelled reach it), her payout account known to
// Stripe, and what Stripe and the shops show afterwards, as a person reading them sees it.

export const MAYA = 'maya-makes.myshopify.com'
export const MAYA_ACCOUNT = 'acct_maya_makes'
export const IRONPEAK = 'ironpeak-outdoor.myshopify.com'
export const IRONPEAK_ACCOUNT = 'acct_ironpeak_outdoor'
/** The background jobs' work is polled for. */
export const FOR_JOBS = { timeout: 20_000, interval: 100 }

/** Stripe's retries are not waited for. */
export const NO_STRIPE_WAITS = { stripeApi: { wait: async () => {} } }

const adminCall = (
  server: ServerUnderTest,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) => server.app.inject({ method, url, headers: server.asAdmin, payload })

/** Stripe's transfer to the account, as its dashboard shows it. */
export const transferTo = (server: ServerUnderTest, account: string) =>
  server.stripe.transfers().find((transfer) => transfer.destination === account)

/** The store's payout account, known to Stripe and set in Tandem. */
async function setAccount(server: ServerUnderTest, shop: string, accountId: string) {
  server.stripe.addAccount({ id: accountId })
  const set = await adminCall(server, 'POST', '/admin-set-store-payment-account', {
    shop,
    accountId,
  })
  expect(set.statusCode).toBe(200)
}

/** Maya connected (her refunds and cancellations reach the server), her account set if told. */
async function connectMaya(server: ServerUnderTest, { creatorAccount = true } = {}) {
  const connected = await adminCall(server, 'POST', '/admin-test-shop-connection', { shop: MAYA })
  expect(connected.json()).toMatchObject({ state: 'CONNECTED' })
  await expect.poll(() => server.shopify.webhookSubscriptions(MAYA).length).toBe(5)
  if (creatorAccount) await setAccount(server, MAYA, MAYA_ACCOUNT)
}

/**
 * The `data` of a GraphQL request to the shop's Admin API, as its own app (whose secret the shop
 * holds) makes it; it must have no GraphQL errors.
 */
export async function asShopApp(
  shopify: ShopifyEmulator,
  shop: string,
  query: string,
  variables: object,
) {
  const answer = await fetch(`${shopify.url}/${shop}/admin/api/${API_VERSION}/graphql.json`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Shopify-Access-Token': await appToken(shopify, shop),
    },
    body: JSON.stringify({ query, variables }),
  })
  const { data, errors } = (await answer.json()) as {
    data: Record<string, unknown>
    errors?: unknown
  }
  expect(errors).toBeUndefined()
  return data
}

/**
 * The creator deletes her app's subscriptions to refunds/create and orders/cancelled, with her own
 * app's token (webhookSubscriptionDelete): Shopify tells the server of none of her refunds since.
 */
export async function creatorStopsRefundNews(shopify: ShopifyEmulator, shop = MAYA) {
  const news = shopify
    .webhookSubscriptions(shop)
    .filter((subscription) => ['REFUNDS_CREATE', 'ORDERS_CANCELLED'].includes(subscription.topic))
  expect(news).toHaveLength(2)
  for (const { id } of news) {
    const deleted = await asShopApp(
      shopify,
      shop,
      `mutation ($id: ID!) { webhookSubscriptionDelete(id: $id) { userErrors { message } } }`,
      { id },
    )
    expect(deleted).toEqual({ webhookSubscriptionDelete: { userErrors: [] } })
  }
}

/** Processes the order as an administrator's click does, and expects it completed. */
async function transfer(server: ServerUnderTest, orderId: string) {
  const processed = await adminCall(server, 'POST', '/admin-create-order-transfer', {
    creatorOrderId: orderId,
  })
  expect(processed.json()).toMatchObject({ status: 'COMPLETED' })
}

/**
 * Order 1001 transferred on a listening server (the test's own, or a stack's), with Maya connected
 * and paid her 27.30 commission.
 */
export async function transfer1001(server: ServerUnderTest): Promise<void> {
  await connectMaya(server)
  await transfer(server, '1001')
  await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
}

/** A listening server of the test's own with order 1001 transferred (transfer1001). */
export async function transferred1001(): Promise<ServerUnderTest> {
  const server = await startListeningServer(NO_STRIPE_WAITS)
  await transfer1001(server)
  return server
}

/**
 * Maya refunds units in her Shopify admin; unless told otherwise, her payment app then refunds
 * the customer's Stripe charge by as much. Answers the refund as her Shopify shows it.
 */
export async function creatorRefunds(
  server: ServerUnderTest,
  order: { orderId: string; chargeId: string },
  units: { line: number; quantity: number }[],
  { restockType = 'RETURN' as 'RETURN' | 'NO_RESTOCK', stripeToo = true } = {},
) {
  const gid = `gid://shopify/Order/${order.orderId}`
  await server.shopify.refund(MAYA, gid, units, { restockType })
  const made = server.shopify.refunds(MAYA, gid).at(-1)!
  if (stripeToo) server.stripe.refund(order.chargeId, minor(made.amount))
  return made
}

/**
 * Maya cancels the order in her Shopify admin, refunding and restocking everything; her payment
 * app then refunds the customer's Stripe charge by as much.
 */
export async function creatorCancels(
  server: ServerUnderTest,
  order: { orderId: string; chargeId: string },
) {
  const gid = `gid://shopify/Order/${order.orderId}`
  await server.shopify.cancel(MAYA, gid, { refund: true, restock: true })
  const refunded = server.shopify.refunds(MAYA, gid).at(-1)!
  server.stripe.refund(order.chargeId, minor(refunded.amount))
}

/**
 * Order 1001's transfer stopped PARTIAL on Stripe failing Lumen's transfer, Northwind ordered and
 * paid; the failure stays scripted until the test unscripts it.
 */
async function stoppedAtLumen(server: ServerUnderTest) {
  server.stripe.script({
    operation: 'transfers.create',
    mode: 'fail',
    status: 500,
    target: LUMEN_ACCOUNT,
    times: 1000,
  })
  const first = await adminCall(server, 'POST', '/admin-create-order-transfer', {
    creatorOrderId: '1001',
  })
  expect(first.statusCode).toBe(502)
  expect(server.stripe.transfers().map((made) => made.destination)).toEqual([NORTHWIND_ACCOUNT])
}

export function refundWorld() {
  let server!: ServerUnderTest
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    adminCall(server, method, url, payload)

  const world = {
    server: () => server,
    call,
    /**
     * A server with Maya connected; her payout account set unless told otherwise; its clock,
     * transfer timing, jobs' retries, payments port and Stripe emulator's settings when given.
     */
    async start({
      creatorAccount = true,
      ...options
    }: { creatorAccount?: boolean } & Pick<
      ServerOptions,
      'now' | 'transferTiming' | 'jobRetries' | 'payments' | 'stripeEmulator'
    > = {}) {
      server = await startListeningServer({ ...NO_STRIPE_WAITS, ...options })
      await connectMaya(server, { creatorAccount })
      return server
    },
    /** Order 1001 transferred and Maya paid her 27.30 commission. */
    async transferred1001() {
      server = await transferred1001()
      return server
    },
    setAccount: (shop: string, accountId: string) => setAccount(server, shop, accountId),
    transfer: (orderId: string) => transfer(server, orderId),
    /** A customer's order on Maya's store of `units` of brand products, paid through Stripe. */
    async customerBuys(units: Record<string, number>) {
      const lines = Object.entries(units).map(([key, quantity]) => ({
        variantId: creatorVariantId(
          MAYA,
          BRAND_PRODUCTS.findIndex((product) => product.key === key),
        ),
        quantity,
      }))
      const amountMinor = Object.entries(units).reduce(
        (sum, [key, quantity]) =>
          sum + BRAND_PRODUCTS.find((product) => product.key === key)!.priceMinor * quantity,
        0,
      )
      return createStripePaidOrder(server, MAYA, { lines }, { amountMinor, currency: 'usd' })
    },
    creatorRefunds: (
      order: { orderId: string; chargeId: string },
      units: { line: number; quantity: number }[],
      options?: { restockType?: 'RETURN' | 'NO_RESTOCK'; stripeToo?: boolean },
    ) => creatorRefunds(server, order, units, options),
    /** The payment app refunds the customer's charge what the creator's refund gave back. */
    paymentAppRefunds: (chargeId: string, refund: { amount: string }) =>
      server.stripe.refund(chargeId, minor(refund.amount)),
    stoppedAtLumen: () => stoppedAtLumen(server),
    /** Every reversal Stripe made, as its dashboard lists them, by account. */
    creatorCancels: (order: { orderId: string; chargeId: string }) => creatorCancels(server, order),
    /** Every reversal Stripe made, as its dashboard lists them: by account, order, then seq. */
    reversals: () =>
      server.stripe
        .reversals()
        .map(({ destination, amount, metadata }) => ({
          destination,
          amount,
          order: metadata.creator_order_id,
          key: metadata.reversal_key,
        }))
        .sort(
          (a, b) =>
            a.destination.localeCompare(b.destination) ||
            a.order!.localeCompare(b.order!) ||
            seqOf(a.key!) - seqOf(b.key!),
        ),
    /** The brand's order of a creator order, as the brand's Shopify admin shows it. */
    brandOrder(shop: string, creatorOrderId: string) {
      const order = server.shopify
        .orders(shop)
        .find((candidate) => candidate.tags.includes(`tandem-transfer-${creatorOrderId}`))
      if (!order) throw new Error(`${shop} has no order of creator order ${creatorOrderId}`)
      return order
    },
    async activity(action: string) {
      const log = (await call('GET', '/admin-audit-log')).json() as {
        entries: { action: string; details: Record<string, unknown> }[]
      }
      return log.entries.filter((entry) => entry.action === action).map((entry) => entry.details)
    },
    /** Whether a run of the order's refund job took in all news of its refunds and ended well. */
    async refundsSettled(creatorOrderId: string) {
      const notice = await server.db
        .selectFrom('order_refund_notices')
        .select(['news', 'settled_news'])
        .where('creator_order_id', '=', creatorOrderId)
        .executeTakeFirst()
      return notice !== undefined && notice.settled_news === notice.news
    },
    async troubledJobs() {
      return (
        (await call('GET', '/admin-troubled-jobs')).json() as {
          jobs: { kind: string; about: unknown; errorMessage: string }[]
        }
      ).jobs
    },
    /** What the creator's Payouts card says she is owed. */
    async commissionOwed(shop = MAYA) {
      const answer = await call(
        'GET',
        `/admin-store-payment-account?shop=${encodeURIComponent(shop)}`,
      )
      return (answer.json() as { commissionOwed: unknown }).commissionOwed
    },
  }
  return world
}

/**
 * A reversal as `reversals()` lists it: `amount` from `destination`'s transfer of `order` (the
 * transfer of `storeShop`), the `seq`th of that transfer. Its key names the transfer only: neither
 * the order nor the store, whose name an erasure changes.
 */
export const reversal = (
  destination: string,
  amount: number,
  order: string,
  storeShop: string,
  seq = 0,
) => ({
  destination,
  amount,
  order,
  key: expect.stringMatching(`^reversal:tr_[A-Za-z0-9]+:${seq}$`),
})

/** The seq a reversal's key ends with. */
const seqOf = (key: string) => Number(key.split(':').at(-1))

const minor = (amount: string) => Math.round(Number(amount) * 100)

/** Order 1001 as the sandbox seeds it: its charge, which the sandbox's Stripe holds. */
export const ORDER_1001 = { orderId: '1001', chargeId: 'ch_sandbox_order_1001' }
