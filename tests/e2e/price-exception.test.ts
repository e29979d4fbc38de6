import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FRAUD_RELEASE_HINT, PRICE_EXCEPTION_HINT } from '@shared/contract'
import { LUMEN } from '../support/sandbox-figures'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import {
  chooseTheme,
  onScreen,
  opacity,
  screenshot,
  screenshotsOf,
  shows,
  signedInConsole,
} from './console'

// A brand raised a price after a creator sold at the old one, or Shopify found a risk of fraud on
// an order: the transfer screen says why it cannot go ahead, and an administrator accepts the
// exception or releases the order with a reason, in Chromium against the real server and the
// Shopify emulator.

const FACE_OIL = 'gid://shopify/ProductVariant/203'
const REASON = 'Lumen agreed to honour the launch price for this order'
const RELEASE_REASON = 'Called the customer: the card is theirs'
const URBAN_TRAIL = 'urban-trail-edits.myshopify.com'

let browser: Browser
let stack: StackUnderTest
let page: Page

beforeAll(async () => {
  stack = await startStack()
  ;({ browser, page } = await signedInConsole(
    stack,
    '/main/create-order-transfer',
    'Create Order Transfer',
  ))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

describe('a price below the brand’s, in Chromium', () => {
  it('names the line and the prices, and is accepted with a reason', async () => {
    // Lumen raises the face oil from 34.50 to 36.00 after order 1001 sold it.
    await stack.server.shopify.editVariant(LUMEN, FACE_OIL, { priceMinor: 3600 })
    await page.getByLabel('Creator order ID').fill('1001')
    await page.getByRole('button', { name: 'Send' }).click()
    // On the page, beside the toast that says the same.
    // Titled with what happened; the line by its product, never its Shopify id.
    const refused = page.getByRole('alert', { name: 'Tandem cannot transfer creator order 1001' })
    await shows(
      refused.getByText(
        'Line "Rosehip Face Oil" cannot be transferred to lumen botanicals: the customer paid ' +
          "34.50 USD a unit after discounts, below the brand's price 36.00 USD; " +
          PRICE_EXCEPTION_HINT,
      ),
    )
    await expect.poll(() => refused.textContent()).not.toMatch(/gid:\/\/|Failed to fetch/)
    await screenshot(page, 'price-exception-refused-dark-wide')

    await page.getByRole('button', { name: 'Accept price exception' }).click()
    const dialog = page.getByRole('dialog', { name: 'Accept price exception' })
    await shows(dialog)
    await dialog.getByLabel('Reason').fill(REASON)
    // Its opening transition done: the picture shows the dialog, not the page through it.
    await expect.poll(() => opacity(dialog)).toBe('1')
    await screenshot(page, 'price-exception-dialog-dark-wide')
    // The same in the light theme at 700 px: closed to reach the theme switch, then opened again.
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await chooseTheme(page, 'Light')
    await page.setViewportSize({ width: 700, height: 1000 })
    await screenshot(page, 'price-exception-refused-light-narrow')
    await page.getByRole('button', { name: 'Accept price exception' }).click()
    await dialog.getByLabel('Reason').fill(REASON)
    await expect.poll(() => opacity(dialog)).toBe('1')
    await screenshot(page, 'price-exception-dialog-light-narrow')
    await dialog.getByRole('button', { name: 'Accept exception' }).click()

    // Previewed again: docs/product-rules.md's figures, on what the customer paid.
    await shows(page.getByRole('region', { name: 'Totals' }))
    await expect.poll(() => dialog.count()).toBe(0)
    await screenshot(page, 'price-exception-accepted-light-narrow')
    await processShownTransfer(page)
    expect(
      stack.server.stripe
        .transfers()
        .map((made) => made.amount)
        .sort(),
    ).toEqual([10200, 2484])
    const entries = await stack.server.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .orderBy('at')
      .execute()
    expect(entries.map((entry) => entry.action)).toEqual([
      'transfer.accept-price-exception',
      'transfer.process',
    ])
    expect(JSON.parse(entries[0]!.details)).toMatchObject({ reason: REASON })
    // Activity words it: the line by its title and its prices, never JSON.
    const drawer = page.getByRole('dialog', { name: 'Activity' })
    await photographOpened(
      async () => {
        await page.getByRole('button', { name: 'Activity' }).click()
        await shows(drawer.getByText('Price exception accepted'))
      },
      drawer,
      'price-exception-activity',
    )
    await page.getByRole('button', { name: 'Activity' }).click()
    await shows(
      drawer.getByText(
        "Accepted: Rosehip Face Oil sold at 34.50 USD a unit, below the brand's 36.00 USD",
      ),
    )
    await page.keyboard.press('Escape')
    await expect.poll(() => drawer.count()).toBe(0)
  })
})

describe('an order paid in euros, in Chromium', () => {
  it("pays order 1005 in the charge's settlement currency and shows both in the history", async () => {
    await page.setViewportSize({ width: 1400, height: 1000 })
    await page.getByRole('button', { name: 'Clear' }).click()
    await page.getByLabel('Creator order ID').fill('1005')
    await page.getByRole('button', { name: 'Send' }).click()
    await shows(page.getByRole('region', { name: 'Totals' }))
    await chooseTheme(page, 'Dark')
    // Subtotal, shipping and tax add up to the total; at 700 px every figure is in view.
    await shows(page.getByRole('region', { name: 'Creator Order' }).getByText('€7.00'))
    await screenshotsOf(page, page.getByRole('region', { name: 'Creator Order' }), 'euros-order')
    await screenshotsOf(page, page.getByRole('region', { name: 'Brand Transfers' }), 'euros-brands')
    // The question says what moves: dollars, the charge's settlement currency.
    const confirm = page.getByRole('dialog', { name: 'Confirm processing transfer' })
    await photographOpened(
      () => page.getByRole('button', { name: 'Process transfer' }).click(),
      confirm,
      'euros-confirm',
    )
    await page.getByRole('button', { name: 'Process transfer' }).click()
    await shows(
      confirm.getByText(
        "Pays 1 brand $53.94 in all (northwind apparel $53.94): the order's €46.50 at the " +
          "charge's rate, 1 EUR = 1.16 USD.",
        { exact: false },
      ),
    )
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => confirm.count()).toBe(0)
    // Light again, as the pictures of the history below are.
    await chooseTheme(page, 'Light')
    await processShownTransfer(page)
    // 46.50 EUR at the charge's 1.16: 53.94 USD to Northwind's account.
    expect(
      stack.server.stripe
        .transfers()
        .filter((made) => made.currency === 'usd' && made.amount === 5394),
    ).toHaveLength(1)

    await page.getByRole('link', { name: 'Orders' }).click()
    await page.getByRole('tab', { name: 'Transfer history' }).click()
    const brands = page.getByRole('table', { name: 'Brands of order 1005' })
    await shows(brands.getByText('1 EUR = 1.16 USD'))
    const row = await brands
      .locator('tbody tr')
      .first()
      .evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''))
    expect(row.slice(4, 8)).toEqual(['€62.00', '€46.50$53.94', '€9.30$10.79', '€6.20$7.19'])
    await screenshot(page, 'price-exception-history-euros-light-wide')
    await chooseTheme(page, 'Dark')
    await page.setViewportSize({ width: 700, height: 1000 })
    // The sidebar slides away in a narrow window: the picture is taken once it has gone.
    await expect.poll(() => onScreen(page, page.getByRole('link', { name: 'Orders' }))).toBe(false)
    await screenshot(page, 'price-exception-history-euros-dark-narrow')
  })
})

describe('an order Shopify found a risk of fraud on, in Chromium', () => {
  it('says what Shopify found, and is released with a reason, then transferred', async () => {
    const transfersBefore = stack.server.stripe.transfers().length
    // Shopify's fraud analysis rates order 1004 of Urban Trail Edits high.
    stack.server.shopify.assessRisk(URBAN_TRAIL, 'gid://shopify/Order/1004', {
      riskLevel: 'HIGH',
      provider: null,
      facts: [{ description: 'Card verification (CVV) failed', sentiment: 'NEGATIVE' }],
    })
    await chooseTheme(page, 'Dark')
    await page.setViewportSize({ width: 1400, height: 1000 })
    await page.getByRole('link', { name: 'Create Order Transfer' }).click()
    await page.getByRole('button', { name: 'Clear' }).click()
    await page.getByLabel('Creator order ID').fill('1004')
    await page.getByRole('button', { name: 'Send' }).click()
    await shows(
      page.getByText(/Creator order #1004 may be fraudulent: .*Card verification \(CVV\) failed/),
    )
    await shows(page.getByText(new RegExp(`${FRAUD_RELEASE_HINT}$`)).first())
    await screenshot(page, 'fraud-refused-dark-wide')

    await page.getByRole('button', { name: 'Release for transfer' }).click()
    const dialog = page.getByRole('dialog', { name: 'Release for transfer' })
    await dialog.getByLabel('Reason').fill(RELEASE_REASON)
    await expect.poll(() => opacity(dialog)).toBe('1')
    await screenshot(page, 'fraud-release-dialog-dark-wide')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await chooseTheme(page, 'Light')
    await page.setViewportSize({ width: 700, height: 1000 })
    await screenshot(page, 'fraud-refused-light-narrow')
    await page.getByRole('button', { name: 'Release for transfer' }).click()
    await dialog.getByLabel('Reason').fill(RELEASE_REASON)
    await expect.poll(() => opacity(dialog)).toBe('1')
    await screenshot(page, 'fraud-release-dialog-light-narrow')
    await dialog.getByRole('button', { name: 'Release order' }).click()

    // Previewed again: nothing was ordered or paid before the release; then transferred, each
    // brand its amount (22.20 and 13.50, as order-transfer.test.ts shows them).
    await shows(page.getByRole('region', { name: 'Totals' }))
    await expect.poll(() => dialog.count()).toBe(0)
    expect(stack.server.stripe.transfers()).toHaveLength(transfersBefore)
    await processShownTransfer(page)
    expect(
      stack.server.stripe
        .transfers()
        .slice(transfersBefore)
        .map((made) => made.amount),
    ).toEqual(expect.arrayContaining([2220, 1350]))
    const release = await stack.server.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'transfer.release-fraud-check')
      .executeTakeFirstOrThrow()
    expect(JSON.parse(release.details)).toMatchObject({ reason: RELEASE_REASON })
  })
})

/** Processes the transfer on screen as a person does: the button, then the confirmation. */
/**
 * Pictures of a dialog or drawer that `open` opens, dark and light, 1400 and 700 px wide, named as
 * screenshotsOf names them: closed (Escape) to reach the theme switch, then opened again. The
 * page is left dark, 1400 px wide, with it closed.
 */
async function photographOpened(open: () => Promise<void>, shown: Locator, name: string) {
  for (const theme of ['Dark', 'Light'] as const) {
    await chooseTheme(page, theme)
    for (const [width, size] of [
      [1400, 'wide'],
      [700, 'narrow'],
    ] as const) {
      await page.setViewportSize({ width, height: 1000 })
      await open()
      await expect.poll(() => opacity(shown)).toBe('1')
      await screenshot(page, `${name}-${theme.toLowerCase()}-${size}`)
      await page.keyboard.press('Escape')
      await expect.poll(() => shown.count()).toBe(0)
    }
  }
  await chooseTheme(page, 'Dark')
  await page.setViewportSize({ width: 1400, height: 1000 })
}

async function processShownTransfer(on: Page) {
  await on.getByRole('button', { name: 'Process transfer' }).click()
  await on.getByRole('button', { name: 'Confirm' }).click()
  await shows(on.getByText('Order transfer processed'))
}
