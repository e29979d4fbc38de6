import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import { chooseTheme, colorScheme, screenshot, shows, signIn } from './console'

// docs/product-rules.md "The console's screens" (/main/configs) in Chromium against the real
// server, with the browser host's clipboard port standing in for the OS clipboard.

let browser: Browser
let stack: StackUnderTest
let page: Page

const rowOf = (shop: string): Locator => page.locator('tbody tr').filter({ hasText: shop })

beforeAll(async () => {
  stack = await startStack()
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } })
  await page.goto(stack.console.url.replace('#/signin', '#/main/configs'))
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

describe('app configs in Chromium', () => {
  it('fetches the configs with a toast and lists the brands first', async () => {
    await shows(page.getByText('App configs fetched successfully'))
    await shows(page.getByText('App Configurations'))
    await shows(rowOf('northwind-apparel.myshopify.com'))
    await shows(rowOf('lumen-botanicals.myshopify.com'))
    await expect.poll(() => rowOf('maya-makes.myshopify.com').count()).toBe(0)
    // The secret is masked; the sandbox's secret never reaches the page.
    expect(await page.content()).not.toContain('shpss_sandbox')
    await screenshot(page, 'configs-dark-wide')

    await page.getByRole('tab', { name: 'Creators' }).click()
    await shows(rowOf('maya-makes.myshopify.com'))
    await expect.poll(() => rowOf('northwind-apparel.myshopify.com').count()).toBe(0)
  })

  it('copies the creator app and auth URLs to the clipboard exactly', async () => {
    await page.getByRole('button', { name: 'Copy app URL' }).click()
    await shows(page.getByText('The app URL has been copied to your clipboard.'))
    expect(stack.console.clipboard.last).toBe(`${stack.apiUrl}/shopify/creator`)

    await page.getByRole('button', { name: 'Copy auth URL' }).click()
    await shows(page.getByText('The auth URL has been copied to your clipboard.'))
    const authUrls = stack.console.clipboard.last ?? ''
    expect(authUrls.split(',').length).toBeGreaterThan(1)
    expect(
      authUrls.split(',').every((url) => url.startsWith(`${stack.apiUrl}/shopify/creator`)),
    ).toBe(true)
  })

  it('adds a config from padded values, saved trimmed, after Create was disabled until filled', async () => {
    await page.getByRole('tab', { name: 'Brands' }).click()
    await page.getByRole('button', { name: 'Add Config' }).click()
    await shows(page.getByText('Shopify App Configuration'))
    await expect
      .poll(() => page.getByRole('button', { name: 'Add Config' }).isDisabled())
      .toBe(true)
    const create = page.getByRole('button', { name: 'Create' })
    await expect.poll(() => create.isDisabled()).toBe(true)

    await page.getByLabel('Shop', { exact: true }).fill('  new-brand.myshopify.com  ')
    await page.getByLabel('Client ID').fill('  client-new  ')
    await expect.poll(() => create.isDisabled()).toBe(true)
    await page.getByLabel('Client Secret', { exact: true }).fill('  shpss_new_secret  ')
    await create.click()
    await shows(page.getByText('App config created successfully'))
    await shows(rowOf('new-brand.myshopify.com'))
    await shows(rowOf('new-brand.myshopify.com').getByText('client-new', { exact: true }))
    const saved = await stack.server.db
      .selectFrom('app_configs')
      .select(['shop', 'client_id'])
      .where('shop', '=', 'new-brand.myshopify.com')
      .executeTakeFirstOrThrow()
    expect(saved).toEqual({ shop: 'new-brand.myshopify.com', client_id: 'client-new' })
  })

  it("refuses a duplicate shop with the server's reason and keeps what was typed", async () => {
    await page.getByRole('button', { name: 'Add Config' }).click()
    await page.getByLabel('Shop', { exact: true }).fill('northwind-apparel.myshopify.com')
    await page.getByLabel('Client ID').fill('another')
    await page.getByLabel('Client Secret', { exact: true }).fill('another-secret')
    await page.getByRole('button', { name: 'Create' }).click()
    await shows(page.getByText('Failed to create app config').first())
    await shows(page.getByText(/already exists/).first())
    await expect.poll(() => page.getByLabel('Client ID').inputValue()).toBe('another')
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Add Config' }).isEnabled()).toBe(true)
  })

  it('shows each shop’s connection, and Shopify’s reason when a test is refused', async () => {
    const northwind = rowOf('northwind-apparel.myshopify.com')
    const lumen = rowOf('lumen-botanicals.myshopify.com')
    await shows(northwind.getByText('Not connected'))
    await northwind.getByRole('button', { name: 'Test connection' }).click()
    await shows(northwind.getByText('Connected', { exact: true }))
    await shows(northwind.getByText('client credentials'))
    // What the test reached, in words.
    await shows(
      page.getByText(
        /^Tandem reached northwind apparel \(northwind-apparel\.myshopify\.com\) on Shopify by client credentials, with \d+ permissions, and registered its webhooks\.$/,
      ),
    )
    await screenshot(page, 'configs-connected-dark-wide')

    stack.server.shopify.setGrant('lumen-botanicals.myshopify.com', 'refuse')
    await lumen.getByRole('button', { name: 'Test connection' }).click()
    await shows(lumen.getByText('Error', { exact: true }))
    await shows(
      lumen.getByText(
        'Shopify refused a token for lumen-botanicals.myshopify.com: Client credentials cannot be performed on this shop.',
      ),
    )
    await shows(page.getByText('Could not connect to lumen botanicals'))
    await screenshot(page, 'configs-connections-dark-wide')
  })

  it('deletes a config after confirmation', async () => {
    await page.getByRole('button', { name: 'Delete new-brand.myshopify.com' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await shows(page.getByText('App config deleted successfully'))
    await expect.poll(() => rowOf('new-brand.myshopify.com').count()).toBe(0)
  })

  it("shows a secret the server cannot read as that row's error, the rest as usual", async () => {
    // Lumen's sealed secret copied onto Northwind's row: bound to Lumen, it does not open there.
    const { db } = stack.server
    const sealedOf = async (shop: string) =>
      (
        await db
          .selectFrom('app_configs')
          .select('client_secret_sealed')
          .where('shop', '=', shop)
          .executeTakeFirstOrThrow()
      ).client_secret_sealed
    const northwind = await sealedOf('northwind-apparel.myshopify.com')
    await db
      .updateTable('app_configs')
      .set({ client_secret_sealed: await sealedOf('lumen-botanicals.myshopify.com') })
      .where('shop', '=', 'northwind-apparel.myshopify.com')
      .execute()
    try {
      await page.reload()
      await page.getByRole('tab', { name: 'Brands' }).click()
      await shows(
        rowOf('northwind-apparel.myshopify.com').getByText(
          'The client secret of northwind-apparel.myshopify.com cannot be read: it does not open where it is stored',
        ),
      )
      await shows(rowOf('lumen-botanicals.myshopify.com').getByRole('button', { name: 'Reveal' }))
      await screenshot(page, 'configs-unreadable-secret-dark-wide')
    } finally {
      await db
        .updateTable('app_configs')
        .set({ client_secret_sealed: northwind })
        .where('shop', '=', 'northwind-apparel.myshopify.com')
        .execute()
    }
  })

  it('keeps the add form usable on a narrow window in the light theme', async () => {
    await page.setViewportSize({ width: 420, height: 900 })
    await chooseTheme(page, 'Light')
    await expect.poll(() => colorScheme(page)).toBe('light')
    await page.getByRole('button', { name: 'Add Config' }).click()
    await shows(page.getByLabel('Client ID'))
    await screenshot(page, 'configs-light-narrow-form')
    await page.getByRole('button', { name: 'Cancel' }).click()
  })
})
