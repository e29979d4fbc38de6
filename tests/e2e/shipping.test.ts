import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { brandVariantId, creatorVariantId } from '../../server/src/seed/sandbox-data'
import { INSTALL_SCOPES } from '../../server/src/services/shop-connections'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import type { StackUnderTest } from '../support/stack-under-test'
import { screenshotsOf, shows, signedInConsole, startStackWith1001Processed } from './console'

// Issue 35 in Chromium, against the real server and the Shopify emulator: Northwind ships its
// order of Maya's order 1001 in its Shopify admin with a UPS tracking number; Maya's order is
// fulfilled with that tracking by itself, and the Shipping screen shows the shipment with its
// tracking as a link that opens in the person's browser. Lumen meanwhile holds its order.
// Issue 46: Northwind then ships an overshirt from its 3PL's warehouse while Tandem's access is
// one granted before it asked to read third-party fulfillment orders: the screen says so.

const MAYA = 'maya-makes.myshopify.com'
const CREATOR_1001 = 'gid://shopify/Order/1001'
const UPS = {
  company: 'UPS',
  number: '1Z999AA10123456784',
  url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
}
const FOR_JOBS = { timeout: 20_000, interval: 200 }

let browser: Browser
let stack: StackUnderTest
let page: Page

const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  stack.server.app.inject({ method, url, headers: stack.server.asAdmin, payload })

/** The brand's order of order 1001, by its GID. */
const brandOrderOf = (shop: string) =>
  stack.server.shopify.orders(shop).find((order) => order.tags.includes('tandem-transfer-1001'))!.id

beforeAll(async () => {
  stack = await startStackWith1001Processed()
  ;({ browser, page } = await signedInConsole(stack, '/main/stores', 'Stores'))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

/** When the server last read the brand's order (null before it has). */
async function readAt(shop: string): Promise<string | null> {
  const answer = await asAdmin('GET', `/admin-shipments?brandShop=${shop}`)
  return (answer.json() as { shipments: { readAt: string | null }[] }).shipments[0]?.readAt ?? null
}

describe('a brand’s shipment, in Chromium', () => {
  it('reaches the creator’s order with its tracking, and the Shipping screen links to it', async () => {
    // In the brands' Shopify admins: Northwind ships both overshirts, Lumen holds its face oil.
    await stack.server.shopify.fulfill(NORTHWIND, brandOrderOf(NORTHWIND), { tracking: UPS })
    await stack.server.shopify.holdFulfillment(
      LUMEN,
      brandOrderOf(LUMEN),
      'INVENTORY_OUT_OF_STOCK',
      'Back in stock on Monday',
    )
    await expect
      .poll(
        () =>
          stack.server.shopify
            .fulfillments(MAYA, CREATOR_1001)
            .map(({ tracking, customerNotifications }) => ({ tracking, customerNotifications })),
        FOR_JOBS,
      )
      .toEqual([{ tracking: [UPS], customerNotifications: 1 }])
    await expect.poll(() => readAt(NORTHWIND), FOR_JOBS).not.toBeNull()
    await expect
      .poll(async () => (await asAdmin('GET', `/admin-shipments?status=ON_HOLD`)).json(), FOR_JOBS)
      .toMatchObject({ shipments: [{ brandStoreShop: LUMEN }] })

    await page.getByRole('link', { name: 'Shipping' }).click()
    await shows(page.getByRole('heading', { name: 'Shipping' }))
    const table = page.getByRole('table', { name: 'Shipments' })
    const northwind = table.getByRole('list', {
      name: 'Fulfillments of #1001 by northwind apparel',
    })
    await shows(northwind)
    await shows(northwind.getByText('Mirrored'))
    await shows(table.getByText('On hold: Inventory out of stock — Back in stock on Monday'))

    await northwind.getByRole('link', { name: UPS.number }).click()
    await expect.poll(() => stack.console.opened).toEqual([UPS.url])

    // The pictures show the list alone: the pointer off it, the sign-in toast (5 s) gone.
    await page.mouse.move(0, 0)
    await expect
      .poll(() => page.getByText('Welcome back, admin@tandem.test').count(), FOR_JOBS)
      .toBe(0)
    await screenshotsOf(page, table, 'shipping')
  })
})

describe('a brand shipping from a warehouse Tandem may not see, in Chromium', () => {
  it('is shown on the Shipping screen with what to grant, naming the location', async () => {
    // Northwind's overshirts are stocked by its 3PL from now on, and Tandem's access is that of a
    // shop connected before it asked to read third-party fulfillment orders.
    const { shopify } = stack.server
    shopify.stockAtFulfillmentService(NORTHWIND, brandVariantId(0))
    shopify.setScopes(NORTHWIND, INSTALL_SCOPES.replace(',read_third_party_fulfillment_orders', ''))
    shopify.expireTokens(NORTHWIND)
    const { orderId } = await createStripePaidOrder(
      stack.server,
      MAYA,
      { lines: [{ variantId: creatorVariantId(MAYA, 0), quantity: 1 }] },
      { amountMinor: 6_800, currency: 'usd' },
    )
    const processed = await asAdmin('POST', '/admin-create-order-transfer', {
      creatorOrderId: orderId,
    })
    expect(processed.statusCode).toBe(201)
    const brandOrder = shopify
      .orders(NORTHWIND)
      .find((order) => order.tags.includes(`tandem-transfer-${orderId}`))!.id
    await shopify.fulfill(NORTHWIND, brandOrder, { tracking: UPS })
    await expect
      .poll(async () => {
        const answer = await asAdmin('GET', `/admin-shipments?brandShop=${NORTHWIND}`)
        return (answer.json() as { shipments: { unseen: unknown }[] }).shipments[0]?.unseen
      }, FOR_JOBS)
      .toEqual({ units: 1, locations: ['Harbor 3PL'] })

    // The list again, this order's row first (the newest transfer).
    await page
      .getByRole('navigation')
      .getByRole('link', { name: /^Stores/ })
      .click()
    await page.getByRole('link', { name: 'Shipping' }).click()
    const table = page.getByRole('table', { name: 'Shipments' })
    const unseen = table.getByText(
      "cannot see: grant the app access to Harbor 3PL's fulfillments (1 unit)",
    )
    await shows(unseen)
    await shows(table.getByText('Cannot see', { exact: true }))
    await page.mouse.move(0, 0)
    await screenshotsOf(page, table, 'shipping-unseen')
  })
})
