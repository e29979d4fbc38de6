import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { NO_COMMISSION_1002 } from '../support/sandbox-figures'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import {
  chooseTheme,
  colorScheme,
  onScreen,
  opacity,
  route,
  screenshot,
  shows,
  signIn,
} from './console'

// What a new administrator ran into with unique rates, missing default commissions, unknown store
// addresses and the configs screen, in Chromium against the real server (docs/product-rules.md
// "The console's screens").

let browser: Browser
let stack: StackUnderTest
let page: Page

const MAYA_PAGE = '/main/stores/maya-makes.myshopify.com?type=CREATOR'
const rowOf = (text: string): Locator => page.locator('tbody tr').filter({ hasText: text })

async function open(path: string) {
  await page.goto(stack.console.url.replace('#/signin', `#${path}`))
  await expect.poll(() => route(page)).toBe(path)
}

/** Screenshots at 1400 and 700 px wide, then back to the wide window the tests start in. */
async function atBothWidths(name: string) {
  for (const width of [1400, 700]) {
    await page.setViewportSize({ width, height: 1000 })
    await sidebarSettled(width)
    await screenshot(page, `${name}-${width}`)
  }
  await page.setViewportSize({ width: 1400, height: 1000 })
  await sidebarSettled(1400)
}

/**
 * Waits for the sidebar to finish sliding: wholly in view on a wide window, wholly out of it
 * below 768 px (behind the burger), so that a picture never catches it halfway.
 */
async function sidebarSettled(width: number) {
  const sidebar = page.getByRole('navigation', { name: 'Sections' })
  await expect
    .poll(async () => {
      const box = await sidebar.boundingBox()
      return box !== null && (width >= 768 ? box.x >= 0 : box.x + box.width <= 0)
    })
    .toBe(true)
}

/** The theme is chosen in the sidebar, which a wide window shows (and a dialog covers). */
async function useTheme(theme: 'Dark' | 'Light') {
  await chooseTheme(page, theme)
  await expect.poll(() => colorScheme(page)).toBe(theme.toLowerCase())
}

/** Both themes at both widths, ending in the dark theme the tests start in. */
async function screenshotsOf(name: string) {
  for (const theme of ['Light', 'Dark'] as const) {
    await useTheme(theme)
    await atBothWidths(`${name}-${theme.toLowerCase()}`)
  }
}

beforeAll(async () => {
  stack = await startStack()
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  await page.goto(stack.console.url)
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await shows(page.getByRole('heading', { name: 'Stores', exact: true }))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

describe('unique commission rates', () => {
  it("shows a brand's current rate, asks before replacing it, and says it was updated", async () => {
    await open(MAYA_PAGE)
    await shows(rowOf('lumen botanicals').getByText('20%'))

    await page.getByPlaceholder('Select brand...').click()
    await shows(
      page.getByRole('option', { name: /lumen botanicals/ }).getByText('Current rate 20%'),
    )
    await expect
      .poll(() => page.getByRole('option', { name: /northwind apparel/ }).textContent())
      .not.toContain('Current rate')
    await page.getByRole('option', { name: /lumen botanicals/ }).click()
    await shows(page.getByText('This creator has a 20% rate with this brand: saving replaces it.'))
    await page.getByLabel('Commission rate').fill('15')
    await page.getByRole('button', { name: 'Save', exact: true }).click()

    const dialog = page.getByRole('dialog', { name: 'Replace commission rate' })
    await shows(dialog.getByText('Replace the 20% rate of lumen botanicals with 15%?'))
    await expect.poll(() => opacity(dialog)).toBe('1')
    await atBothWidths('rates-replace-dialog-dark')
    // Cancelled, nothing is sent; asked again in the light theme, for its screenshots.
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    await useTheme('Light')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await shows(dialog.getByText('Replace the 20% rate of lumen botanicals with 15%?'))
    await expect.poll(() => opacity(dialog)).toBe('1')
    await atBothWidths('rates-replace-dialog-light')
    await dialog.getByRole('button', { name: 'Replace' }).click()
    await useTheme('Dark')

    await shows(page.getByText('Commission rate updated successfully.'))
    await shows(rowOf('lumen botanicals').getByText('15%'))
    // The dialog closes with a transition after the answer: the next test starts once it is gone.
    await expect.poll(() => dialog.count()).toBe(0)
    const stored = await stack.server.db
      .selectFrom('unique_commission_rates')
      .select(['brand_store_shop', 'rate_hundredths'])
      .where('creator_store_shop', '=', 'maya-makes.myshopify.com')
      .execute()
    expect(stored).toEqual([
      { brand_store_shop: 'lumen-botanicals.myshopify.com', rate_hundredths: 1500 },
    ])
  })

  it('creates a rate for a brand without one, as before, with no question', async () => {
    await page.getByPlaceholder('Select brand...').click()
    await page.getByRole('option', { name: /northwind apparel/ }).click()
    await page.getByLabel('Commission rate').fill('12')
    await page.getByRole('button', { name: 'Save', exact: true }).click()

    await shows(page.getByText('Commission rate created successfully.'))
    await shows(rowOf('northwind apparel').getByText('12%'))
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
  })
})

describe('a brand without a default commission', () => {
  it('is named by the transfer refusal, with where to set it', async () => {
    await open('/main/create-order-transfer')
    await page.getByLabel('Creator order ID').fill('1002')
    await page.getByRole('button', { name: 'Send' }).click()
    await shows(page.getByText(NO_COMMISSION_1002).first())
  })

  it("is warned of on the brand's store page until its rates are saved", async () => {
    await open('/main/stores/ironpeak-outdoor.myshopify.com?type=BRAND')
    const warning = page.getByRole('alert').filter({ hasText: 'No default commission' })
    await shows(
      warning.getByText(
        'This brand has no default commission: transfers of orders with its products fail with "Commission not found" until both rates are set and saved here.',
      ),
    )
    await screenshotsOf('store-brand-no-default')

    // -5 stays -5 and is refused under its field, in the words the server would refuse it in;
    // neither Save nor Enter sends it, and the brand still has no default (before, 5 % was saved).
    const tandem = page.getByLabel('Tandem commission rate')
    const save = page.getByRole('form', { name: 'Default commission' }).getByRole('button', {
      name: 'Save',
    })
    await tandem.fill('-5')
    await page.getByLabel('Creator commission rate').fill('15')
    await shows(
      page.getByText('Must be a number from 0 to 100 with at most two decimals, such as 12.5'),
    )
    expect(await tandem.inputValue()).toBe('-5')
    expect(await tandem.getAttribute('aria-invalid')).toBe('true')
    expect(await save.isDisabled()).toBe(true)
    await tandem.press('Enter')
    await screenshotsOf('default-commission-refused')
    await open('/main/stores')
    await open('/main/stores/ironpeak-outdoor.myshopify.com?type=BRAND')
    await shows(warning)
    expect(await tandem.inputValue()).toBe('')
    expect(await page.getByText('Default Commission rates set successfully.').count()).toBe(0)

    await tandem.fill('10')
    await page.getByLabel('Creator commission rate').fill('15')
    await save.click()
    await shows(page.getByText('Default Commission rates set successfully.'))
    await expect.poll(() => warning.count()).toBe(0)
  })
})

describe('an address no store has', () => {
  it.each(['BRAND', 'CREATOR'])(
    'says once that the store is not found, naming it, with the way back (%s)',
    async (type) => {
      await open(`/main/stores/nobody.myshopify.com?type=${type}`)
      await shows(page.getByRole('heading', { name: 'Store not found' }))
      await shows(page.getByText('Tandem has no store nobody.myshopify.com.'))
      await expect
        .poll(() => page.getByRole('heading', { name: 'Store not found' }).count())
        .toBe(1)
      await expect.poll(() => page.getByRole('button', { name: 'Retry' }).count()).toBe(0)
      await expect.poll(() => page.getByRole('button', { name: 'Save' }).count()).toBe(0)
      if (type === 'BRAND') await screenshotsOf('store-not-found')

      await page.getByRole('link', { name: 'Go to Stores' }).click()
      await expect.poll(() => route(page)).toBe('/main/stores')
      await shows(page.getByRole('heading', { name: 'Stores', exact: true }))
    },
  )
})

describe('Add Config', () => {
  const shopField = () => page.getByLabel('Shop', { exact: true })

  it("starts on the tab's shop type and says on the field what is wrong with the shop", async () => {
    await open('/main/configs')
    await page.getByRole('tab', { name: 'Creators' }).click()
    await page.getByRole('button', { name: 'Add Config' }).click()
    await expect.poll(() => page.getByRole('radio', { name: 'Creator' }).isChecked()).toBe(true)
    await expect.poll(() => page.getByRole('radio', { name: 'Brand' }).isChecked()).toBe(false)

    await shopField().fill('https://evil.example/new-creator.myshopify.com')
    await page.getByLabel('Client ID').focus()
    await shows(page.getByText('Shop must look like name.myshopify.com'))
    await expect.poll(() => shopField().getAttribute('aria-invalid')).toBe('true')
    await screenshotsOf('configs-add-shop-error')
  })

  it("takes the store's URL as the Stores list shows it, and saves its domain", async () => {
    await shopField().fill('https://New-Creator.myshopify.com/')
    await expect
      .poll(() => page.getByText('Shop must look like name.myshopify.com').count())
      .toBe(0)
    await page.getByLabel('Client ID').fill('client-new-creator')
    await page.getByLabel('Client Secret', { exact: true }).fill('shpss_new_creator')
    await page.getByRole('button', { name: 'Create' }).click()

    await shows(page.getByText('App config created successfully'))
    await shows(rowOf('new-creator.myshopify.com'))
    const saved = await stack.server.db
      .selectFrom('app_configs')
      .select(['shop', 'shop_type'])
      .where('client_id', '=', 'client-new-creator')
      .execute()
    expect(saved).toEqual([{ shop: 'new-creator.myshopify.com', shop_type: 'CREATOR' }])
  })
})

describe('the configs table at 700 px', () => {
  it('keeps Connection and Delete in view, the rest folded into the shop', async () => {
    await page.setViewportSize({ width: 700, height: 1000 })
    await page.getByRole('tab', { name: 'Brands' }).click()
    const northwind = rowOf('northwind-apparel.myshopify.com')
    await shows(northwind.getByRole('button', { name: 'Test connection' }))
    await expect
      .poll(() => page.getByRole('columnheader').allTextContents())
      .toEqual(['Shop', 'Connection', 'Delete'])
    await shows(northwind.getByText('sandbox-northwind-apparel'))
    // Wholly inside the window: nothing to scroll sideways to.
    for (const control of [
      northwind.getByRole('button', { name: 'Test connection' }),
      northwind.getByRole('button', { name: 'Delete northwind-apparel.myshopify.com' }),
    ]) {
      expect(await onScreen(page, control)).toBe(true)
      const box = await control.boundingBox()
      expect(box!.x + box!.width).toBeLessThanOrEqual(700)
    }
    await screenshotsOf('configs-table')
  })
})
