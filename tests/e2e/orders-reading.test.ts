import { existsSync, readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import { chooseTheme, onScreen, opacity, route, screenshot, shows, signIn } from './console'

// What a new administrator reads on the daily screens, in Chromium against the real server and the
// sandbox: the order as Orders names it (#1001) accepted by Create Order Transfer, the process
// dialog saying what moves, the receipt's file name, an empty CSV export said, ids short and whole
// on hover, Activity in words, and the orders table at 700 px. The tests run in order, each going
// on from where the last one left the console.

let browser: Browser
let stack: StackUnderTest
let page: Page

const WIDE = 1400
const NARROW = 700

beforeAll(async () => {
  stack = await startStack()
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: WIDE, height: 1000 }, locale: 'en-US' })
  await page.goto(stack.console.url.replace('#/signin', '#/main/orders'))
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await shows(page.getByRole('heading', { name: 'Orders', exact: true }))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const ordersTable = () => page.getByRole('table', { name: 'Creator orders' })
const orderField = () => page.getByLabel('Creator order ID')
const sidebarLink = (name: string) =>
  page.getByRole('navigation').getByRole('link', { name, exact: true })
const open = async (section: string, heading = section) => {
  await sidebarLink(section).click()
  await shows(page.getByRole('heading', { name: heading, exact: true }))
}
/** Sets the window's width and waits until the sidebar has slid away or back. */
async function widen(width: number) {
  await page.setViewportSize({ width, height: 1000 })
  await expect.poll(() => onScreen(page, sidebarLink('Orders'))).toBe(width > 800)
}
/** The drawer slides in: a picture is taken once it is wholly in the window. */
const slidIn = (drawer: Locator, width: number) =>
  expect
    .poll(async () => {
      const box = await drawer.boundingBox()
      return box !== null && box.x + box.width <= width + 0.5
    })
    .toBe(true)
const headers = () => ordersTable().locator('thead th').allTextContents()
const tableScroller = () => ordersTable().locator('xpath=..')

describe('the orders inbox at 700 px', () => {
  it('keeps order, total, status and the button in view, the rest folded under the order', async () => {
    await shows(ordersTable().getByText('#1005', { exact: true }))
    expect(await headers()).toEqual([
      'Order',
      'Creator store',
      'Created',
      'Total',
      'Transfer',
      'Processed',
      'Transfer',
    ])
    await screenshot(page, 'reading-orders-dark-1400')

    await widen(NARROW)
    await expect.poll(headers).toEqual(['Order', 'Total', 'Transfer', 'Transfer'])
    const row1005 = ordersTable().locator('tbody tr').filter({ hasText: '#1005' })
    await shows(row1005.getByText(/^maya makes · .+ · —$/))
    // Nothing to scroll sideways for: the button is in the window, and so is the order's name.
    const scroller = tableScroller()
    expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0)
    expect(await onScreen(page, page.getByRole('button', { name: 'Preview transfer #1005' }))).toBe(
      true,
    )
    await screenshot(page, 'reading-orders-dark-700')
    await chooseTheme(page, 'Light')
    await screenshot(page, 'reading-orders-light-700')
    await widen(WIDE)
    await expect.poll(async () => (await headers()).length).toBe(7)
    await screenshot(page, 'reading-orders-light-1400')
    await chooseTheme(page, 'Dark')
  })
})

describe('the transfer history before any transfer', () => {
  it('says there is nothing to export instead of saving a file of headers only', async () => {
    await page.getByRole('tab', { name: 'Transfer history' }).click()
    await shows(page.getByText('No transfers yet.'))
    await page.getByRole('button', { name: 'Export CSV' }).click()
    await shows(page.getByText('Nothing to export yet'))
    await shows(
      page.getByText('No transfers yet: the CSV lists transfers once an order has been processed.'),
    )
    // Nothing saved: the downloads folder is made by the first save.
    const { downloadsDir } = stack.console
    const saved = existsSync(downloadsDir) ? readdirSync(downloadsDir) : []
    expect(saved.filter((name) => name.endsWith('.csv'))).toEqual([])
  })
})

describe('Create Order Transfer, with the order as Orders names it', () => {
  it('says on the field what to type when the text is no order', async () => {
    await open('Create Order Transfer')
    await orderField().fill('order 1001')
    await page.getByRole('button', { name: 'Send' }).click()
    await shows(
      page.getByText(
        'Type the order as Orders shows it (#1001), its id (1001) or its GID (gid://shopify/Order/1001).',
      ),
    )
    expect(await orderField().getAttribute('aria-invalid')).toBe('true')
    await orderField().fill('#9999')
    await page.getByRole('button', { name: 'Send' }).click()
    await shows(page.getByText(/^No creator order is named #9999\. Type the order as/))
  })

  it('previews #1001 as order 1001, and the dialog says what moves to how many brands', async () => {
    await orderField().fill('#1001')
    await page.getByRole('button', { name: 'Send' }).click()
    await shows(page.getByText('Preview fetched successfully'))
    await shows(
      page.getByRole('region', { name: 'Creator Order' }).getByText('gid://shopify/Order/1001'),
    )
    await shows(page.getByText('Not started', { exact: true }))

    await page.getByRole('button', { name: 'Process transfer' }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm processing transfer' })
    await shows(
      dialog.getByText(
        'Pays 2 brands $126.84 in all (northwind apparel $102.00, lumen botanicals $24.84). ' +
          'This will create the brand orders and finalize the transfer. Continue?',
      ),
    )
    // The dialog fades in: the picture is taken once it has.
    await expect.poll(() => opacity(dialog)).toBe('1')
    await screenshot(page, 'reading-process-dialog-dark-1400')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await shows(page.getByText('Order transfer processed'))
    await shows(page.getByText('Completed', { exact: true }))
    await shows(page.getByText(/^Processed /))
  })

  it('saves the receipt as tandem-receipt-1001.pdf', async () => {
    await page.getByRole('tab', { name: 'Receipt' }).click()
    await page.getByRole('button', { name: 'Save PDF' }).click()
    await shows(page.getByText('Receipt saved'))
    expect(readdirSync(stack.console.downloadsDir)).toContain('tandem-receipt-1001.pdf')
  })
})

describe('after processing', () => {
  it('offers "View transfer" for the processed order, leading to its transfer', async () => {
    await open('Orders')
    // The page remembers the tab it was left on: Transfer history.
    await page.getByRole('tab', { name: 'Orders', exact: true }).click()
    const view = page.getByRole('button', { name: 'View transfer #1001' })
    await shows(view)
    expect(await page.getByRole('button', { name: 'Preview transfer #1001' }).count()).toBe(0)
    await view.click()
    await expect.poll(() => route(page)).toBe('/main/create-order-transfer?creatorOrderId=1001')
    await shows(page.getByText('Completed', { exact: true }))
  })

  it('shows the brand orders short, whole on hover, on one line, and copies one whole', async () => {
    await open('Orders')
    await page.getByRole('tab', { name: 'Transfer history' }).click()
    const brands = page.getByRole('table', { name: 'Brands of order 1001' })
    const brandOrder = brands.getByText(/^…\/Order\/\d+$/).first()
    await shows(brandOrder)
    const whole = await brandOrder.getAttribute('title')
    expect(whole).toMatch(/^gid:\/\/shopify\/Order\/\d+$/)
    // One line: as tall as the row's other text, never broken mid-token.
    const lineHeight = (await brands.getByText('northwind apparel').boundingBox())!.height
    expect((await brandOrder.boundingBox())!.height).toBeLessThanOrEqual(lineHeight + 1)

    await brands.getByRole('button', { name: `Copy ${whole}` }).click()
    await shows(page.getByText(`${whole} has been copied to your clipboard.`))
    expect(stack.console.clipboard.last).toBe(whole)
    await screenshot(page, 'reading-history-dark-1400')

    // At 700 px the rates, base and commissions fold under each brand's name: nothing to scroll
    // sideways for, and the order's name stays in view.
    await widen(NARROW)
    await shows(
      brands.getByText('Rates 10% / 15% · base $136.00 · commissions $20.40 / $13.60', {
        exact: true,
      }),
    )
    const history = page.getByRole('table', { name: 'Transfer history' })
    await expect
      .poll(() => history.locator('xpath=..').evaluate((el) => el.scrollWidth - el.clientWidth))
      .toBeLessThanOrEqual(0)
    expect(await onScreen(page, history.getByText('#1001', { exact: true }))).toBe(true)
    await screenshot(page, 'reading-history-dark-700')
    await widen(WIDE)
  })

  it('reads Activity in words: the order, and how many brand orders', async () => {
    await page.getByRole('button', { name: 'Activity' }).click()
    const drawer = page.getByRole('dialog', { name: 'Activity' })
    await shows(drawer.getByText('Transfer processed'))
    await shows(drawer.getByText('Order 1001'))
    await shows(drawer.getByText('2 brand orders'))
    await shows(drawer.getByText('Status Completed'))
    await slidIn(drawer, WIDE)
    await screenshot(page, 'reading-activity-dark-1400')
    await page.keyboard.press('Escape')
    await expect.poll(() => drawer.count()).toBe(0)
    await chooseTheme(page, 'Light')
    await page.getByRole('button', { name: 'Activity' }).click()
    await shows(drawer.getByText('2 brand orders'))
    await widen(NARROW)
    await slidIn(drawer, NARROW)
    await screenshot(page, 'reading-activity-light-700')
  })
})
