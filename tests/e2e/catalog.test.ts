import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NORTHWIND } from '../support/sandbox-figures'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import { opacity, screenshot, screenshotsOf, shows, signedInConsole } from './console'

// Issue 34 in Chromium, against the real server and the Shopify emulator: an administrator lists a
// brand's product on a creator's store from the creator's page; the brand then changes its price
// in its Shopify admin, and the creator's product follows with no one clicking.

const MAYA = 'maya-makes.myshopify.com'
const OVERSHIRT_VARIANT = 'gid://shopify/ProductVariant/201'
const FOR_SYNC = { timeout: 20_000, interval: 200 }

let browser: Browser
let stack: StackUnderTest
let page: Page

beforeAll(async () => {
  stack = await startStack()
  // Northwind connected, so that its products/update reaches the server; its catalogue synced.
  for (const shop of [NORTHWIND, MAYA]) {
    const tested = await stack.server.app.inject({
      method: 'POST',
      url: '/admin-test-shop-connection',
      headers: stack.server.asAdmin,
      payload: { shop },
    })
    expect(tested.json()).toMatchObject({ state: 'CONNECTED' })
  }
  const synced = await stack.server.app.inject({
    method: 'POST',
    url: '/admin-update-products',
    headers: stack.server.asAdmin,
    payload: { storeShop: NORTHWIND },
  })
  expect(synced.statusCode).toBe(200)
  ;({ browser, page } = await signedInConsole(stack, `/main/stores/${MAYA}`, 'maya makes'))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

/** The creator's listed overshirt, as its Shopify admin shows it. */
const creatorOvershirt = () =>
  stack.server.shopify
    .products(MAYA)
    .find((product) => product.handle.startsWith('linen-overshirt-'))

describe('listing a brand product on a creator, in Chromium', () => {
  it("lists it from the creator's page, and the creator's product follows the brand's price", async () => {
    const listings = page.getByRole('region', { name: 'Listings' })
    await listings.getByRole('button', { name: 'List products' }).click()
    const picker = page.getByRole('dialog', { name: 'List products' })
    await shows(picker)
    await picker.getByLabel('Brand').click()
    await page.getByRole('option', { name: 'northwind apparel' }).click()
    await picker.getByLabel('Search products').fill('linen')
    await picker.getByRole('checkbox', { name: /Linen Overshirt/ }).check()
    await expect.poll(() => opacity(picker)).toBe('1')
    await screenshot(page, 'catalog-picker-dark-wide')
    await picker.getByRole('button', { name: 'List 1 product' }).click()
    await expect.poll(() => picker.count()).toBe(0)

    const row = listings.getByRole('row', { name: /Linen Overshirt/ })
    await shows(row.getByText('In sync'), FOR_SYNC.timeout)
    expect(creatorOvershirt()).toMatchObject({
      status: 'ACTIVE',
      variants: [expect.objectContaining({ price: '68.00' })],
    })

    // Northwind raises the price in its Shopify admin: 68.00 → 74.00.
    await stack.server.shopify.editVariant(NORTHWIND, OVERSHIRT_VARIANT, { priceMinor: 7400 })
    await expect.poll(() => creatorOvershirt()?.variants[0]?.price, FOR_SYNC).toBe('74.00')
    await shows(row.getByText('In sync'), FOR_SYNC.timeout)

    // The pictures show the card whole, once the toast (5 s) said its piece.
    await expect
      .poll(() => page.getByText('Listed 1 product on maya makes.').count(), FOR_SYNC)
      .toBe(0)
    await listings.evaluate((card) => card.scrollIntoView({ block: 'end' }))
    await screenshotsOf(page, listings, 'catalog-listings')
  })
})
