import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { BRAND_PRODUCTS, creatorVariantId } from '../../server/src/seed/sandbox-data'
import { launchChromium } from '../support/chromium'
import { NORTHWIND } from '../support/sandbox-figures'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import { screenshot, shows, signIn } from './console'

// Issue 32's end to end: in the sandbox stack, an administrator sets a one-minute hold; a customer
// pays a creator, whose store sends orders/paid to the listening server; the inbox says when the
// order will transfer, and once the hold has passed it shows it completed, with its brand order
// and Stripe transfer in the emulators. Nobody presses Process. The stack's minute of hold lasts
// STACK_MINUTE_MS (TransferTiming's holdMinuteMs), not a real minute: long enough to see the order
// wait, short enough not to hold CI up.

const STACK_MINUTE_MS = 20_000

const MAYA = 'maya-makes.myshopify.com'
const OVERSHIRT = BRAND_PRODUCTS.findIndex((product) => product.key === 'linen-overshirt')

let browser: Browser
let stack: StackUnderTest
let page: Page

beforeAll(async () => {
  stack = await startStack({ transferTiming: { holdMinuteMs: STACK_MINUTE_MS } })
  // Connected, so that Maya's store sends its orders/paid deliveries to the server.
  const connected = await stack.server.app.inject({
    method: 'POST',
    url: '/admin-test-shop-connection',
    headers: stack.server.asAdmin,
    payload: { shop: MAYA },
  })
  expect(connected.json()).toMatchObject({ state: 'CONNECTED' })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, locale: 'en-US' })
  await page.goto(stack.console.url.replace('#/signin', '#/main/orders'))
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await shows(page.getByRole('heading', { name: 'Orders', exact: true }))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

/** Every request the console sent, as the server answered them. */
const requests = () => stack.exchanges.map((exchange) => exchange.request)

it('transfers a paid order by itself once its hold has passed, with no one clicking', async () => {
  await page.getByRole('tab', { name: 'Transfer policy' }).click()
  await page.getByLabel('Hold (minutes)').fill('1')
  await page.getByRole('button', { name: 'Save policy' }).click()
  await expect.poll(() => requests()).toContain('POST /admin-set-transfer-policy')

  const { orderId } = await createStripePaidOrder(
    stack.server,
    MAYA,
    { lines: [{ variantId: creatorVariantId(MAYA, OVERSHIRT), quantity: 1 }] },
    { amountMinor: 6800, currency: 'usd' },
  )
  const name = stack.server.shopify
    .orders(MAYA)
    .find((order) => order.id.endsWith(`/${orderId}`))?.name
  expect(name).toMatch(/^#\d+$/)

  // The inbox is read when it opens: the order shows waiting for its hold, then completed, on
  // the line beneath its row.
  const readinessLine = () =>
    page
      .getByRole('table', { name: 'Creator orders' })
      .locator('tbody tr[aria-rowindex]', { hasText: name! })
      .locator('xpath=following-sibling::tr[1]')
  const openInbox = async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Stores', exact: true }).click()
    await page
      .getByRole('navigation')
      .getByRole('link', { name: /^Orders/ })
      .click()
    await shows(page.getByRole('heading', { name: 'Orders', exact: true }))
    // The page keeps the tab it was left on: the policy's.
    await page.getByRole('tab', { name: 'Orders', exact: true }).click()
  }
  const readinessShown = async () => {
    await openInbox()
    return (await readinessLine().count()) > 0 ? readinessLine().innerText() : ''
  }
  await expect
    .poll(readinessShown, { timeout: STACK_MINUTE_MS, interval: 1_000 })
    .toMatch(/^Transfers automatically at /)
  await screenshot(page, 'automatic-transfer-waiting')

  await expect.poll(readinessShown, { timeout: 120_000, interval: 1_000 }).toMatch(/^Completed/)
  await screenshot(page, 'automatic-transfer-completed')

  expect(stack.server.shopify.orders(NORTHWIND).map((order) => order.lines.length)).toEqual([1])
  expect(stack.server.stripe.transfers().map((transfer) => transfer.destination)).toEqual([
    'acct_sandbox_northwind_apparel',
  ])
  // No one pressed Process: the console never asked for a transfer.
  expect(requests().filter((request) => request.includes('/admin-create-order-transfer'))).toEqual(
    [],
  )
}, 180_000)
