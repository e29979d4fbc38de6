import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import type { StackUnderTest } from '../support/stack-under-test'
import {
  readmePicture,
  screenshotsOf,
  shows,
  signedInConsole,
  startStackWith1001Processed,
} from './console'

// The Sandbox page (README "The first hour", step 5) in Chromium against the real server and the
// emulators: an order placed and paid, order 1001 refunded in Shopify and Stripe, shipped, a data
// request sent and a listed product repriced, each done on the page and reaching Tandem by the
// emulators' webhooks alone, and each shown where the console shows it. One stack for the walk:
// each step builds on the one before. It takes README's pictures of the Sandbox page and of
// #1001's money trail after the refund.

const MAYA = 'maya-makes.myshopify.com'
const CREATOR_1001 = 'gid://shopify/Order/1001'
const OVERSHIRT = 'gid://shopify/Product/101'
const FOR_JOBS = { timeout: 20_000, interval: 200 }

let browser: Browser
let stack: StackUnderTest
let page: Page

const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  stack.server.app.inject({ method, url, headers: stack.server.asAdmin, payload })

beforeAll(async () => {
  stack = await startStackWith1001Processed()
  ;({ browser, page } = await signedInConsole(stack, '/main/sandbox', 'Sandbox'))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

/** Maya's copy of the overshirt that the listing made, as her Shopify admin shows it. */
const mayaOvershirt = () =>
  stack.server.shopify
    .products(MAYA)
    .find((product) => product.handle.startsWith('linen-overshirt-'))

/** The console at `path` (a hash route), once its heading shows. */
async function visit(path: string, heading: string) {
  await page.goto(stack.console.url.replace('#/signin', `#${path}`))
  await shows(page.getByRole('heading', { name: heading, exact: true }))
}

async function choose(label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** Does the action on the page and answers what the page says was done, a sentence a line. */
async function act(button: string) {
  const done = page.getByRole('list', { name: 'Done in the sandbox' }).getByRole('listitem')
  const before = await done.count()
  await page.getByRole('button', { name: button }).click()
  const refusal = page.getByRole('alert').filter({ hasNotText: 'Done' })
  await expect
    .poll(async () => ((await done.count()) > before ? 'done' : await refusal.allInnerTexts()))
    .toBe('done')
  return (await done.first().innerText()).split(/\n+/)
}

describe('the Sandbox page', () => {
  it('ships, refunds in Shopify and Stripe, places a paid order and reprices, each reaching Tandem', async () => {
    await choose('Action', 'Ship with tracking')
    await page.getByLabel('Creator order').fill('1001')
    await choose('Brand store', 'lumen-botanicals')
    await page.getByLabel('Tracking number').fill('1Z999AA10123456784')
    expect(await act('Ship with tracking')).toEqual([
      expect.stringMatching(
        /^lumen-botanicals\.myshopify\.com shipped its order #\d+ of creator order #1001 with UPS tracking 1Z999AA10123456784\./,
      ),
    ])
    await expect
      .poll(
        () =>
          stack.server.shopify
            .fulfillments(MAYA, CREATOR_1001)
            .map((made) => made.tracking[0]?.number),
        FOR_JOBS,
      )
      .toEqual(['1Z999AA10123456784'])

    await choose('Action', 'Refund a line')
    await page.getByLabel('Line', { exact: true }).fill('1')
    expect(await act('Refund a line')).toEqual([
      `${MAYA} refunded 2 × Linen Overshirt of #1001 in Shopify (136.00 USD).`,
      'Its payment app refunded 136.00 USD of pi_sandbox_order_1001 in Stripe.',
    ])
    // Northwind's 102.00 comes back from its account (Maya's commission was never paid).
    await expect
      .poll(
        () =>
          stack.server.stripe.reversals().map(({ destination, amount }) => [destination, amount]),
        FOR_JOBS,
      )
      .toEqual([[NORTHWIND_ACCOUNT, 10200]])
    await readmePicture(page, 'sandbox-refund')

    // #1001's money trail (Create Order Transfer, 1001) shows Northwind's 102.00 taken back.
    await visit('/main/create-order-transfer', 'Create Order Transfer')
    await page.getByLabel('Creator order ID').fill('1001')
    await page.getByRole('button', { name: 'Send' }).click()
    const trail = page.getByRole('region', { name: 'Money trail' })
    await shows(
      trail.getByRole('row', {
        name: /Taken back from northwind apparel, the brand, after a refund/i,
      }),
    )
    await trail.scrollIntoViewIfNeeded()
    // Its times and Stripe's ids differ run to run.
    const volatile = [trail.locator('tbody td:nth-child(1) > *, tbody td:nth-child(3) > *')]
    await readmePicture(page, 'money-trail-1001', { of: trail, volatile })
    await visit('/main/sandbox', 'Sandbox')

    await choose('Action', 'Place and pay an order')
    await choose('Creator store', 'maya-makes')
    await choose('Product', 'linen-overshirt')
    const [ordered = ''] = await act('Place and pay an order')
    const name =
      /^Order (#\d+) placed on maya-makes\.myshopify\.com and paid through Stripe \(pi_\w+, 68\.00 USD\)\./.exec(
        ordered,
      )?.[1]
    expect(name).toBeDefined()
    const listed = async () =>
      (
        (await asAdmin('GET', `/admin-creator-orders?q=${encodeURIComponent(name!)}`)).json() as {
          orders: { name: string; totalAmount: string }[]
        }
      ).orders.map((order) => [order.name, order.totalAmount])
    await expect.poll(listed, FOR_JOBS).toEqual([[name, '68.00']])

    // #1001's customer asks Maya for their data: the request is listed under Activity.
    await choose('Action', 'Send a data request')
    await page.getByLabel('Creator order').fill('1001')
    expect(await act('Send a data request')).toEqual([
      `A customer of #1001 (jane@example.com) asked ${MAYA} for their data: Shopify sent ` +
        'Tandem customers/data_request 1 about orders #1001. An administrator downloads what ' +
        'Tandem holds on them under Activity → Data requests.',
    ])
    await page.getByRole('button', { name: 'Activity' }).click()
    await page.getByRole('tab', { name: 'Data requests' }).click()
    const requests = page.getByRole('list', { name: 'Data requests' })
    await shows(requests.getByText('maya makes'), FOR_JOBS.timeout)
    await shows(requests.getByText(/^Request 1 · Customer \d+$/))
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('dialog', { name: 'Activity' }).count()).toBe(0)

    // Northwind's linen overshirt listed on Maya's store first, as an administrator lists it on
    // her store page (Listings → List products, the call that page makes); then Northwind
    // reprices it: Maya's listed copy follows, and her store page shows it.
    const synced = await asAdmin('POST', '/admin-update-products', { storeShop: NORTHWIND })
    expect(synced.statusCode).toBe(200)
    const listing = await asAdmin('POST', '/admin-list-products', {
      creatorStoreShop: MAYA,
      brandStoreShop: NORTHWIND,
      productIds: [OVERSHIRT],
    })
    expect(listing.json()).toMatchObject({ listed: [{ title: 'Linen Overshirt' }], refused: [] })
    await expect.poll(() => mayaOvershirt()?.variants[0]?.price, FOR_JOBS).toBe('68.00')
    await choose('Action', 'Change a price')
    await choose('Store', 'northwind-apparel')
    await choose('Product', 'linen-overshirt')
    await page.getByLabel('Price (USD)').fill('72.00')
    expect(await act('Change a price')).toEqual([
      `${NORTHWIND} now sells linen-overshirt at 72.00 USD.`,
      "Tandem hears it on products/update and brings every creator's listing of it to the new " +
        "price (Listings on the creator's store page); a product no creator lists changes nothing in Tandem.",
    ])
    expect(stack.server.shopify.product(NORTHWIND, OVERSHIRT)?.variants[0]?.price).toBe('72.00')
    await screenshotsOf(page, page.getByLabel('Done in the sandbox'), 'sandbox')
    await expect.poll(() => mayaOvershirt()?.variants[0]?.price, FOR_JOBS).toBe('72.00')
    await visit(`/main/stores/${MAYA}`, 'maya makes')
    const row = page
      .getByRole('region', { name: 'Listings' })
      .getByRole('row', { name: /Linen Overshirt/ })
    await shows(row.getByText('$72.00'), FOR_JOBS.timeout)
    await shows(row.getByText('In sync'), FOR_JOBS.timeout)
    await visit('/main/sandbox', 'Sandbox')
  })

  it('says what is wrong with an action, under the form', async () => {
    await choose('Action', 'Refund a line')
    await page.getByLabel('Creator order').fill('1001')
    await page.getByLabel('Line', { exact: true }).fill('9')
    await page.getByRole('button', { name: 'Refund a line' }).click()
    await shows(page.getByText('The line must be a line of #1001: 1 to 3.').first())
  })
})
