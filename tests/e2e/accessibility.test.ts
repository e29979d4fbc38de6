import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import { failingUninstall, uninstallFailure } from '../server/support/failing-job'
import { IRONPEAK_REASON, recordAutomation } from '../server/support/order-automation'
import {
  chooseTheme,
  colorScheme,
  screenshot,
  settled,
  seriousAxeViolations,
  shows,
  signIn,
  whollyOnScreen,
  type AxeViolation,
} from './console'

// Every screen of the console, in both themes, checked by axe-core against WCAG A and AA: no
// serious or critical violation (contrast, names of controls, roles). The tests run in order,
// each going on from where the last one left the console.

let browser: Browser
let stack: StackUnderTest
let page: Page

beforeAll(async () => {
  // One retry for any job, so that the Jobs page shows a dead one within the test.
  stack = await startStack({ jobRetries: { limit: 1 } })
  browser = await launchChromium()
  // axe-core goes in as an inline script, which the console's Content Security Policy refuses.
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    locale: 'en-US',
    bypassCSP: true,
  })
  page = await context.newPage()
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const rowOf = (name: string) => page.locator('tbody tr').filter({ hasText: name })
const openSection = async (name: string) => {
  // A link may say more after its name: Orders, how many orders need attention.
  await page
    .getByRole('navigation')
    .getByRole('link', { name: new RegExp(`^${name}( |$)`) })
    .click()
  await shows(page.getByRole('heading', { name, exact: true }))
}

/** The widths the console is looked at: a desktop window, and one half as wide. */
const WIDTHS = [1400, 700] as const

/** Photographs of the screen as it is, at both widths, for a person to look at. */
async function photographAtBothWidths(name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    await screenshot(page, `screen-${name}-${width}`)
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 })
}

/**
 * The screen as it is now, in the dark theme and then the light one, each at both widths: checked
 * by axe, and photographed as `screen-{name}-{theme}-{width}` for a person to look at.
 */
async function expectAccessibleInBothThemes(name: string): Promise<void> {
  const found: Record<string, AxeViolation[]> = {}
  for (const theme of ['Dark', 'Light'] as const) {
    await chooseTheme(page, theme)
    await expect.poll(() => colorScheme(page)).toBe(theme.toLowerCase())
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await settled(page)
      found[`${theme} ${width}`] = await seriousAxeViolations(page)
      await screenshot(page, `screen-${name}-${theme.toLowerCase()}-${width}`)
    }
    // Back to the wide window, whose sidebar the next screen is opened from.
    await page.setViewportSize({ width: WIDTHS[0], height: 900 })
  }
  // On failure the message lists, per theme and width, each rule broken, its impact and the
  // elements.
  expect(found).toEqual({ 'Dark 1400': [], 'Dark 700': [], 'Light 1400': [], 'Light 700': [] })
}

describe('accessibility of every screen, in both themes', () => {
  it('sign-in (dark, the default)', async () => {
    await page.goto(stack.console.url)
    await shows(page.getByRole('button', { name: 'Signin' }))
    await expect.poll(() => colorScheme(page)).toBe('dark')
    expect(await seriousAxeViolations(page)).toEqual([])
    await photographAtBothWidths('signin-dark')
  })

  it('stores', async () => {
    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
    await shows(page.getByRole('heading', { name: 'Stores', exact: true }))
    await shows(rowOf('northwind apparel'))
    await expectAccessibleInBothThemes('stores')
  })

  it("a brand's store page", async () => {
    await rowOf('northwind apparel').click()
    await shows(page.getByText('acct_sandbox_northwind_apparel'))
    await expect.poll(() => page.getByLabel('Creator commission rate').inputValue()).toBe('15')
    await shows(page.getByRole('button', { name: 'Pause automatic transfers' }))
    await expectAccessibleInBothThemes('brand-store')
  })

  it("a creator's store page", async () => {
    await page.getByRole('link', { name: /back to stores/i }).click()
    await page.getByRole('tab', { name: 'Creators' }).click()
    await rowOf('urban trail edits').click()
    await shows(page.getByText('No unique commission rates yet.'))
    await expectAccessibleInBothThemes('creator-store')
  })

  it('products', async () => {
    await openSection('Products')
    await page.getByPlaceholder('Select store...').click()
    await page.getByRole('option', { name: /northwind apparel/i }).click()
    // Loaded: its rows, or the sentence for none.
    await shows(
      page
        .getByRole('table', { name: 'Products' })
        .locator('tbody tr')
        .or(page.getByText('No products synced for this store yet.')),
    )
    await expectAccessibleInBothThemes('products')
  })

  it('orders, some transferring by themselves, one needing attention', async () => {
    // As if paid under the automatic policy (the sandbox's were paid before it).
    await recordAutomation(stack.server.db, {
      '1005': 'WAITING',
      '1003': 'NOTHING_TO_TRANSFER',
      '1002': 'NEEDS_ATTENTION',
    })
    await openSection('Orders')
    await shows(rowOf('#1004'))
    await shows(page.getByText(IRONPEAK_REASON))
    // Who fixes it, and a link to the page where it is done.
    await shows(page.getByText('(fixed by an administrator:'))
    expect(
      await page.getByRole('link', { name: "ironpeak outdoor's store page" }).getAttribute('href'),
    ).toBe('#/main/stores/ironpeak-outdoor.myshopify.com?type=BRAND')
    await shows(page.getByRole('link', { name: 'Orders 1 order needs attention' }))
    await expectAccessibleInBothThemes('orders')
  })

  it('order transfer, with a preview', async () => {
    await page.getByRole('button', { name: 'Preview transfer #1004' }).click()
    await shows(page.getByText('Preview fetched successfully'))
    await shows(page.getByRole('button', { name: 'Process transfer' }))
    await expectAccessibleInBothThemes('order-transfer')
  })

  it('transfer history', async () => {
    await page.getByRole('button', { name: 'Process transfer' }).click()
    await page
      .getByRole('dialog', { name: 'Confirm processing transfer' })
      .getByRole('button', { name: 'Confirm' })
      .click()
    await shows(page.getByText('Order transfer processed'))
    await openSection('Orders')
    await page.getByRole('tab', { name: 'Transfer history' }).click()
    await shows(page.getByRole('table', { name: 'Transfer history' }).getByText(DEMO_ADMIN.email))
    await expectAccessibleInBothThemes('transfer-history')
  })

  it('the transfer policy', async () => {
    await page.getByRole('tab', { name: 'Transfer policy' }).click()
    await shows(page.getByText(/^Automatic: paid orders transfer by themselves/))
    await expectAccessibleInBothThemes('transfer-policy')
  })

  it('configs', async () => {
    await openSection('Configs')
    await shows(rowOf('northwind-apparel.myshopify.com'))
    await expectAccessibleInBothThemes('configs')
  })

  it('jobs, one of them dead', async () => {
    const maya = 'maya-makes.myshopify.com'
    await failingUninstall(stack.server, maya)
    await expect
      .poll(async () => (await stack.server.jobs.troubled()).map((job) => job.state), {
        timeout: 30_000,
      })
      .toEqual(['dead'])
    await openSection('Jobs')
    await shows(rowOf(uninstallFailure(maya)))
    await expectAccessibleInBothThemes('jobs')
  })

  it('the activity drawer', async () => {
    await openSection('Orders')
    const drawer = page.getByRole('dialog', { name: 'Activity' })
    const found: Record<string, AxeViolation[]> = {}
    // The drawer covers the theme switch: each theme is chosen before it opens.
    for (const theme of ['Dark', 'Light'] as const) {
      await chooseTheme(page, theme)
      await expect.poll(() => colorScheme(page)).toBe(theme.toLowerCase())
      await page.getByRole('button', { name: 'Activity' }).click()
      await shows(drawer.getByText('Transfer processed'))
      // Its slide-in done, so that axe sees its final colours and not a half-transparent frame.
      await expect.poll(() => whollyOnScreen(page, drawer)).toBe(true)
      found[theme] = await seriousAxeViolations(page)
      await screenshot(page, `screen-activity-${theme.toLowerCase()}-1400`)
      // Its other tab: Shopify's customer data requests (none in the sandbox).
      await drawer.getByRole('tab', { name: 'Data requests' }).click()
      await shows(drawer.getByText('No data requests yet.'))
      found[`${theme}, data requests`] = await seriousAxeViolations(page)
      await screenshot(page, `screen-data-requests-${theme.toLowerCase()}-1400`)
      await page.keyboard.press('Escape')
      await expect.poll(() => drawer.isVisible()).toBe(false)
    }
    expect(found).toEqual({
      Dark: [],
      'Dark, data requests': [],
      Light: [],
      'Light, data requests': [],
    })
  })

  it('sign-in (light, as the administrator left it)', async () => {
    await page.getByRole('button', { name: DEMO_ADMIN.email }).click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await shows(page.getByRole('button', { name: 'Signin' }))
    await expect.poll(() => colorScheme(page)).toBe('light')
    expect(await seriousAxeViolations(page)).toEqual([])
    await photographAtBothWidths('signin-light')
  })
})
