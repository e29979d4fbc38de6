import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import { chooseTheme, route, screenshot, shows, signIn } from './console'

// docs/product-rules.md "The console's screens" (/main/stores and /main/stores/{shop}) in Chromium,
// against the real server with the sandbox marketplace and the real Auth emulator.

let browser: Browser
let stack: StackUnderTest
let page: Page

const rows = () => page.locator('tbody tr')
const rowOf = (name: string): Locator => rows().filter({ hasText: name })

beforeAll(async () => {
  // Bulk operations run slowly enough for a 10,000-product sync's progress to be watched.
  stack = await startStack({ shopifyEmulator: { bulkObjectsPerSecond: 4_000 } })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(stack.console.url)
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await shows(page.getByRole('heading', { name: 'Stores', exact: true }))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

describe('stores list in Chromium', () => {
  it('lists the brand stores first, with names, URLs and badges', async () => {
    await shows(rowOf('northwind apparel'))
    await expect
      .poll(() => page.getByRole('tab', { name: 'Brands' }).getAttribute('aria-selected'))
      .toBe('true')
    await expect.poll(() => rows().count()).toBe(3)
    for (const name of ['ironpeak outdoor', 'lumen botanicals', 'northwind apparel']) {
      const row = rowOf(name)
      await shows(row)
      await shows(row.getByText('Brand', { exact: true }))
    }
    await shows(rowOf('northwind apparel').getByText('northwind-apparel.myshopify.com'))
    await screenshot(page, 'stores-dark-wide')
  })

  it('shows the creators on their tab', async () => {
    await page.getByRole('tab', { name: 'Creators' }).click()
    await shows(rowOf('maya makes'))
    await expect.poll(() => rows().count()).toBe(2)
    await shows(rowOf('urban trail edits').getByText('Creator', { exact: true }))
    await page.getByRole('tab', { name: 'Brands' }).click()
    await shows(rowOf('lumen botanicals'))
  })

  it('narrows the list to one store with the selector, says "Not found..." and clears', async () => {
    const selector = page.getByPlaceholder('Select store...')
    await selector.click()
    await selector.fill('lumen')
    await page.getByRole('option', { name: /lumen/i }).click()
    await expect.poll(() => rows().count()).toBe(1)
    await shows(rowOf('lumen botanicals'))

    await selector.fill('zzz-no-such-store')
    await shows(page.getByText('Not found...'))
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: /clear/i }).first().click()
    await expect.poll(() => rows().count()).toBe(3)
  })

  it('syncs one store: "Syncing..." on that row only, then the product count', async () => {
    const northwind = rowOf('northwind apparel')
    await northwind.getByRole('button', { name: 'Sync' }).click()
    await shows(page.getByText('Products synced'))
    await shows(page.getByText(/2 products/))
    expect(route(page)).toBe('/main/stores')
    await expect.poll(() => northwind.getByRole('button', { name: 'Sync' }).isEnabled()).toBe(true)
  })

  it('syncs a 10,000-product store, its progress advancing in the row, then the count', async () => {
    stack.server.shopify.addProducts('ironpeak-outdoor.myshopify.com', 9_999)
    const ironpeak = rowOf('ironpeak outdoor')
    await ironpeak.getByRole('button', { name: 'Sync' }).click()
    // Every progress text the row shows while the sync runs, in the order seen.
    const seen: number[] = []
    await expect
      .poll(
        async () => {
          const label = await ironpeak.getByRole('button', { name: /^Sync/ }).textContent()
          const fetched = /^Syncing\.\.\. ([\d,]+) \/ 10,000$/.exec(label ?? '')?.[1]
          if (fetched !== undefined) {
            if (seen.length === 0) await screenshot(page, 'stores-sync-progress-dark-wide')
            const count = Number(fetched.replaceAll(',', ''))
            if (count !== seen.at(-1)) seen.push(count)
          }
          return seen.length
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(2)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    await shows(page.getByText('ironpeak outdoor: 10000 products'), 20_000)
    await expect.poll(() => ironpeak.getByRole('button', { name: 'Sync' }).isEnabled()).toBe(true)
  })
})

describe('store pages in Chromium', () => {
  it('opens a brand on a row click and saves its default rates', async () => {
    await rowOf('northwind apparel').click()
    await expect
      .poll(() => route(page))
      .toBe('/main/stores/northwind-apparel.myshopify.com?type=BRAND')
    const tandem = page.getByLabel('Tandem commission rate')
    const creator = page.getByLabel('Creator commission rate')
    await expect.poll(() => tandem.inputValue()).toBe('10')
    await expect.poll(() => creator.inputValue()).toBe('15')

    await creator.fill('')
    await expect
      .poll(() =>
        page
          .getByRole('form', { name: 'Default commission' })
          .getByRole('button', { name: 'Save' })
          .isDisabled(),
      )
      .toBe(true)
    await creator.fill('17.5')
    await page
      .getByRole('form', { name: 'Default commission' })
      .getByRole('button', { name: 'Save' })
      .click()
    await shows(page.getByText('Default Commission rates set successfully.'))
    await screenshot(page, 'store-brand-dark-wide')

    await page.reload()
    await expect.poll(() => page.getByLabel('Creator commission rate').inputValue()).toBe('17.5')
    await expect.poll(() => page.getByLabel('Tandem commission rate').inputValue()).toBe('10')
  })

  it('shows the brand’s Payouts account and the server’s reason for refusing an unknown one', async () => {
    await page.goto(stack.console.url.replace('#/signin', '#/main/stores'))
    await rowOf('northwind apparel').click()
    const payouts = page.getByRole('region', { name: 'Payouts' })
    await shows(payouts.getByText('acct_sandbox_northwind_apparel'))
    await shows(payouts.getByText('payouts@northwind-apparel.example'))
    await shows(payouts.getByText('Transfers active'))
    await screenshot(page, 'store-brand-payouts-dark-wide')

    await payouts.getByLabel('Stripe account ID').fill('acct_unknown123')
    await payouts.getByRole('button', { name: 'Save account' }).click()
    await shows(page.getByText('Payout account failed to set.'))
    await shows(
      payouts.getByText(
        'Payment provider connected account ID not found: Stripe has no account acct_unknown123 connected to the platform',
      ),
    )
    // Nothing changed: the card still shows the account set before.
    await shows(payouts.getByText('acct_sandbox_northwind_apparel'))
    expect(await payouts.getByLabel('Stripe account ID').inputValue()).toBe('acct_unknown123')

    await chooseTheme(page, 'Light')
    await page.setViewportSize({ width: 560, height: 1100 })
    await payouts.scrollIntoViewIfNeeded()
    await screenshot(page, 'store-brand-payouts-light-narrow')
    await chooseTheme(page, 'Dark')
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it("creates and deletes a creator's unique rate, and shows the server refusing one over the bounds", async () => {
    await page.getByRole('link', { name: /back to stores/i }).click()
    await page.getByRole('tab', { name: 'Creators' }).click()
    await rowOf('urban trail edits').click()
    await expect
      .poll(() => route(page))
      .toBe('/main/stores/urban-trail-edits.myshopify.com?type=CREATOR')
    await shows(page.getByText('No unique commission rates yet.'))

    const brand = page.getByPlaceholder('Select brand...')
    await brand.click()
    await page.getByRole('option', { name: /northwind/i }).click()
    await page.getByLabel('Commission rate').fill('95')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    // Northwind's tandem rate is 10: 95 + 10 passes 100, which the server refuses.
    await shows(page.getByText('Commission rate failed to create.'))
    await shows(page.getByText(/must not exceed 100/).first())

    await page.getByLabel('Commission rate').fill('25')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await shows(page.getByText('Commission rate created successfully.'))
    await shows(page.getByText('25%').first())
    await screenshot(page, 'store-creator-dark-wide')
    // Its commissions are paid to an account of its own: none set in the sandbox, nothing owed yet.
    const payouts = page.getByRole('region', { name: 'Payouts' })
    await shows(payouts.getByText('No payout account set'))
    await shows(payouts.getByLabel('Stripe account ID'))
    await page.setViewportSize({ width: 1400, height: 1000 })
    await payouts.scrollIntoViewIfNeeded()
    await screenshot(page, 'store-creator-payouts-dark-1400')
    await chooseTheme(page, 'Light')
    await page.setViewportSize({ width: 700, height: 1100 })
    await payouts.scrollIntoViewIfNeeded()
    await screenshot(page, 'store-creator-payouts-light-700')
    await chooseTheme(page, 'Dark')
    await page.setViewportSize({ width: 1280, height: 900 })

    await page.getByRole('button', { name: /delete .*northwind.* rate/i }).click()
    // The click waits for the confirmation to open: it always asks first.
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
    await shows(page.getByText('Commission rate deleted successfully.'))
    await shows(page.getByText('No unique commission rates yet.'))
  })

  it("keeps the list's tab and selection when coming back", async () => {
    await page.getByRole('link', { name: /back to stores/i }).click()
    await shows(rowOf('urban trail edits'))
    await expect
      .poll(() => page.getByRole('tab', { name: 'Creators' }).getAttribute('aria-selected'))
      .toBe('true')
  })
})
