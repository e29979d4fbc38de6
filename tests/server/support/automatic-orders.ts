import { expect } from 'vitest'
import { storeName, type OrderReadiness } from '@shared/contract'
import { createStripePaidOrder } from '../../../emulators/stripe-paid-order'
import { BRAND_PRODUCTS, creatorVariantId } from '../../../server/src/seed/sandbox-data'
import { LUMEN, NORTHWIND } from '../../support/sandbox-figures'
import { startListeningServer, type ServerOptions, type ServerUnderTest } from './server-under-test'

// Paid orders that transfer themselves (issue 32), as the tests of automatic transfers see them: a
// listening server whose creator Maya is connected, so that the Shopify emulator's orders/paid
// deliveries reach it; the calls the console makes, as an administrator; and what was made in the
// emulators. Asked for the server at each call: tests start a fresh server per test.

export const MAYA = 'maya-makes.myshopify.com'
export const IRONPEAK = 'ironpeak-outdoor.myshopify.com'

/** Maya's copy of the sandbox brand product `key`. */
export const copyOf = (key: string) =>
  creatorVariantId(
    MAYA,
    BRAND_PRODUCTS.findIndex((product) => product.key === key),
  )

/** A listening server whose Maya is connected, so that its orders/paid deliveries reach it. */
export async function startWithMayaConnected(options: ServerOptions = {}) {
  const server = await startListeningServer({ stripeApi: { wait: async () => {} }, ...options })
  const connected = await server.app.inject({
    method: 'POST',
    url: '/admin-test-shop-connection',
    headers: server.asAdmin,
    payload: { shop: MAYA },
  })
  expect(connected.json()).toMatchObject({ state: 'CONNECTED' })
  await expect.poll(() => server.shopify.webhookSubscriptions(MAYA).length).toBe(5)
  return server
}

export function automaticOrders(server: () => ServerUnderTest) {
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    server().app.inject({ method, url, headers: server().asAdmin, payload })

  /** The order's readiness as the orders inbox shows it. */
  async function readiness(orderId: string): Promise<OrderReadiness | undefined> {
    const response = await call('GET', `/admin-creator-orders?q=${orderId}`)
    expect(response.statusCode).toBe(200)
    const rows = response.json().orders as { id: string; readiness: OrderReadiness }[]
    return rows.find((row) => row.id === orderId)?.readiness
  }

  return {
    call,
    readiness,

    setPolicy: async (mode: 'MANUAL' | 'AUTOMATIC', holdMinutes: number) =>
      expect(
        (await call('POST', '/admin-set-transfer-policy', { mode, holdMinutes })).statusCode,
      ).toBe(200),

    /** An administrator sets the brand's default commission on its store page: 10 % and 15 %. */
    setDefaultCommission: async (brandStoreShop: string) =>
      expect(
        (
          await call('POST', '/admin-set-default-commission-rate', {
            defaultCommission: {
              brandStoreShop,
              tandemCommissionRate: 10,
              creatorCommissionRate: 15,
            },
          })
        ).statusCode,
      ).toBe(200),

    /** An administrator sets the Stripe account the brand is paid to on its store page. */
    setPayoutAccount: async (shop: string, accountId: string) =>
      expect(
        (await call('POST', '/admin-set-store-payment-account', { shop, accountId })).statusCode,
      ).toBe(200),

    /** A customer pays Maya through Stripe for these units: the emulator sends orders/paid. */
    async customerPays(
      lines: { key: string; quantity: number }[],
      amountMinor: number,
      discount?: { code: string; amountMinor: number },
    ) {
      const { orderId } = await createStripePaidOrder(
        server(),
        MAYA,
        {
          lines: lines.map((line) => ({ variantId: copyOf(line.key), quantity: line.quantity })),
          discount,
        },
        { amountMinor, currency: 'usd' },
      )
      return orderId
    },

    /** The brand orders and transfers made so far, in the emulators. */
    made: () => ({
      brandOrders: [NORTHWIND, LUMEN, IRONPEAK].flatMap((shop) =>
        server()
          .shopify.orders(shop)
          .map((order) => ({
            shop,
            lines: order.lines.map((line) => [line.variantId, line.quantity]),
          })),
      ),
      transfers: server()
        .stripe.transfers()
        .map((transfer) => ({ destination: transfer.destination, amount: transfer.amount }))
        .sort((a, b) => a.destination.localeCompare(b.destination)),
    }),

    /** An administrator pauses the brand's automatic transfers, with a reason; or resumes them. */
    pause: async (shop: string, reason: string) =>
      expect((await call('POST', '/admin-pause-brand', { shop, reason })).statusCode).toBe(200),
    resume: async (shop: string) =>
      expect((await call('POST', '/admin-resume-brand', { shop })).statusCode).toBe(200),

    /** The inbox shows the order held by the brand's pause, as the administrator set it. */
    heldByPause: (orderId: string, shop: string, reason: string) =>
      expect
        .poll(() => readiness(orderId), { timeout: 10_000 })
        .toEqual({
          state: 'HELD',
          reason: `${storeName(shop)} is paused: ${reason}`,
          by: 'claim-admin@tandem.test',
          since: expect.any(String),
        }),

    completes: (orderId: string) =>
      expect.poll(() => readiness(orderId), { timeout: 10_000 }).toEqual({ state: 'COMPLETED' }),
  }
}
