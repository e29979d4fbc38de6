import { expect } from 'vitest'
import { startListeningServer, type ServerUnderTest } from './server-under-test'
import { transferCalls } from './transfer-calls'

// After the sale (issue 33), as tests set it up: order 1001 of maya-makes transferred with its
// creator paid, then refunded by the creator in Shopify and by its payment app in Stripe. Order
// 1001 sells two Linen Overshirts of Northwind (136.00: Northwind 102.00, Maya 20.40, Tandem
// 13.60) and a Rosehip Face Oil of Lumen (34.50: Lumen 24.84, Maya 6.90, Tandem 2.76), and a
// sticker pack of Maya's own.

export const MAYA = 'maya-makes.myshopify.com'
export const MAYA_ACCOUNT = 'acct_maya_makes'
export const ORDER_1001 = 'gid://shopify/Order/1001'
/** The refund job runs in the background: what it did is polled for. */
export const FOR_JOBS = { timeout: 20_000, interval: 100 }

export const transferTo = (server: ServerUnderTest, account: string) =>
  server.stripe.transfers().find((transfer) => transfer.destination === account)

/** Stripe's retries are not waited for. */
export const NO_STRIPE_WAITS = { stripeApi: { wait: async () => {} } }

/** A listening server with order 1001 transferred (transfer1001). */
export async function transferred1001(): Promise<ServerUnderTest> {
  const server = await startListeningServer(NO_STRIPE_WAITS)
  await transfer1001(server)
  return server
}

/**
 * Order 1001 transferred on a listening server, with Maya connected (her refunds reach Tandem)
 * and paid her commission.
 */
export async function transfer1001(server: ServerUnderTest): Promise<void> {
  const call = (url: string, payload: object) =>
    server.app.inject({ method: 'POST', url, headers: server.asAdmin, payload })
  const connected = await call('/admin-test-shop-connection', { shop: MAYA })
  expect(connected.json()).toMatchObject({ state: 'CONNECTED' })
  await expect.poll(() => server.shopify.webhookSubscriptions(MAYA).length).toBe(4)
  server.stripe.addAccount({ id: MAYA_ACCOUNT })
  const account = await call('/admin-set-store-payment-account', {
    shop: MAYA,
    accountId: MAYA_ACCOUNT,
  })
  expect(account.statusCode).toBe(200)
  expect((await transferCalls(() => server).processOrder('1001')).statusCode).toBe(201)
  await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
}

const minor = (amount: string) => Math.round(Number(amount) * 100)

/** The creator refunds units in its Shopify admin; its payment app then refunds the Stripe charge. */
export async function creatorRefunds(
  server: ServerUnderTest,
  line: number,
  quantity: number,
  restockType: 'RETURN' | 'NO_RESTOCK',
  { stripeToo = true } = {},
) {
  await server.shopify.refund(MAYA, ORDER_1001, [{ line, quantity }], { restockType })
  const made = server.shopify.refunds(MAYA, ORDER_1001).at(-1)!
  if (stripeToo) server.stripe.refund('ch_sandbox_order_1001', minor(made.amount))
  return made
}
