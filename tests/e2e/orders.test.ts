import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { LUMEN, NO_COMMISSION_1002, NORTHWIND } from '../support/sandbox-figures'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import { chooseTheme, onScreen, readmePicture, route, screenshot, shows, signIn } from './console'

// The daily screens in Chromium against the real server and the sandbox marketplace: the orders
// inbox, a transfer processed from it, the transfer history and its CSV, and Activity showing a
// rate change. The tests run in order, each going on from where the last one left the console.

let browser: Browser
let stack: StackUnderTest
let page: Page

beforeAll(async () => {
  stack = await startStack()
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: 'en-US' })
  await page.goto(stack.console.url.replace('#/signin', '#/main/orders'))
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await shows(page.getByRole('heading', { name: 'Orders', exact: true }))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const ordersTable = () => page.getByRole('table', { name: 'Creator orders' })
/** Each order's name, transfer status and readiness (without its Hold button), as shown. */
const listed = () =>
  ordersTable()
    .locator('tbody tr[aria-rowindex]')
    .evaluateAll((rows) =>
      // Each order's row, then its readiness's (one cell across the columns).
      rows.flatMap((row) => {
        const cells = [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')
        const cell = row.nextElementSibling?.querySelector('td')
        const readiness = cell ? (cell.cloneNode(true) as typeof cell) : undefined
        readiness
          ?.querySelectorAll('button')
          .forEach((button: { remove(): void }) => button.remove())
        return cells.length > 1 ? [[cells[0], cells[4], readiness?.textContent]] : []
      }),
    )
const openOrders = async () => {
  await page.getByRole('navigation').getByRole('link', { name: 'Orders', exact: true }).click()
  await shows(page.getByRole('heading', { name: 'Orders', exact: true }))
}
const cell = (table: Locator, text: string) => table.getByRole('cell', { name: text, exact: true })

describe('the orders inbox', () => {
  it("lists the sandbox's five orders, newest first, none transferred yet", async () => {
    // Each order an administrator processes is checked as its preview would be (Shopify's reads).
    await expect.poll(listed, { timeout: 10_000 }).toEqual([
      // Paid before the policy turned automatic (when the server was installed): by hand, but
      // what the preview would say of each shows before anyone previews it.
      ['#1005', 'Not started', 'Waits for an administrator'],
      ['#1004', 'Not started', 'Waits for an administrator'],
      ['#1003', 'Not started', 'Nothing to transfer: No brand orders found'],
      [
        '#1002',
        'Not started',
        `Needs attention${NO_COMMISSION_1002} (fixed by an administrator: ironpeak outdoor's store page)`,
      ],
      ['#1001', 'Not started', 'Waits for an administrator'],
    ])
    await screenshot(page, 'orders-dark-wide')
    await readmePicture(page, 'orders')
    // At 700 px each order's folded store and date are whole: the sidebar slides away at this
    // width, and the pictures are taken once it has.
    const ordersLink = page
      .getByRole('navigation')
      .getByRole('link', { name: 'Orders', exact: true })
    for (const theme of ['Dark', 'Light'] as const) {
      await chooseTheme(page, theme)
      for (const [width, size] of [
        [1400, 'wide'],
        [700, 'narrow'],
      ] as const) {
        await page.setViewportSize({ width, height: 1000 })
        await expect.poll(() => onScreen(page, ordersLink)).toBe(width > 700)
        await shows(ordersTable().getByText('#1001', { exact: true }))
        await screenshot(page, `orders-readiness-${theme.toLowerCase()}-${size}`)
      }
    }
    await chooseTheme(page, 'Dark')
    await page.setViewportSize({ width: 1280, height: 1000 })
    await expect.poll(() => onScreen(page, ordersLink)).toBe(true)
  })

  it('processes 1004 from its "Preview transfer", then finds it under Completed', async () => {
    await page.getByRole('button', { name: 'Preview transfer #1004' }).click()
    await expect.poll(() => route(page)).toBe('/main/create-order-transfer?creatorOrderId=1004')
    await shows(page.getByText('Preview fetched successfully'))
    await page.getByRole('button', { name: 'Process transfer' }).click()
    await page
      .getByRole('dialog', { name: 'Confirm processing transfer' })
      .getByRole('button', { name: 'Confirm' })
      .click()
    await shows(page.getByText('Order transfer processed'))

    await openOrders()
    await page.getByRole('combobox', { name: 'Transfer status' }).click()
    await page.getByRole('option', { name: 'Completed' }).click()
    await expect.poll(listed).toEqual([['#1004', 'Completed', 'Completed']])
    await page.getByRole('combobox', { name: 'Transfer status' }).click()
    await page.getByRole('option', { name: 'All statuses' }).click()
    // The inbox checks each order an administrator processes as its preview would: it reads
    // Shopify for each, which takes longer than the other filters' lists.
    await expect.poll(async () => (await listed()).length, { timeout: 10_000 }).toBe(5)
  })

  it("lands on 1001's preview, with its figures, from its row", async () => {
    await page.getByRole('button', { name: 'Preview transfer #1001' }).click()
    await expect.poll(() => route(page)).toBe('/main/create-order-transfer?creatorOrderId=1001')
    await shows(page.getByText('Preview fetched successfully'))
    const brands = page.getByRole('region', { name: 'Brand Transfers' })
    for (const figure of ['102.00', '24.84', '20.40', '6.90']) {
      await shows(brands.getByText(figure, { exact: false }))
    }
    await shows(page.getByText('126.84', { exact: false }))
  })
})

describe('the transfer history', () => {
  it("shows 1004 with its frozen rates and amounts, and the demo admin's email", async () => {
    await openOrders()
    await page.getByRole('tab', { name: 'Transfer history' }).click()
    const history = page.getByRole('table', { name: 'Transfer history' })
    await shows(cell(history, DEMO_ADMIN.email))
    const brands = page.getByRole('table', { name: 'Brands of order 1004' })
    const rows = await brands
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      )
    expect(rows.map((row) => [row[0], row[2], row[3], row[4], row[5]])).toEqual([
      [
        'lumen botanicals',
        '8%',
        '12%',
        expect.stringContaining('27.75'),
        expect.stringContaining('22.20'),
      ],
      [
        'northwind apparel',
        '10%',
        '15%',
        expect.stringContaining('18.00'),
        expect.stringContaining('13.50'),
      ],
    ])
    await screenshot(page, 'orders-history-dark-wide')
  })

  it("exports a CSV: the server's bytes, saved, whose rows are the sandbox's figures", async () => {
    await page.getByRole('button', { name: 'Export CSV' }).click()
    await shows(page.getByText('CSV exported'))
    const [file] = readdirSync(stack.console.downloadsDir).filter((name) => name.endsWith('.csv'))
    expect(file).toMatch(/^tandem-transfers-\d{4}-\d{2}-\d{2}\.csv$/)
    const saved = readFileSync(join(stack.console.downloadsDir, file!))
    const sent = stack.exchanges.filter(
      (exchange) => exchange.request === 'GET /admin-order-transfers.csv',
    )
    expect(sent).toHaveLength(1)
    expect(saved.equals(sent[0]!.body)).toBe(true)

    const rows = parse(saved, { columns: true }) as Record<string, string>[]
    // Each brand's frozen figures, then the money trail: each brand's Stripe transfer.
    expect(
      rows
        .filter((row) => row.entry !== 'BRAND')
        .map((row) => [row.entry, row.partyStoreShop, row.movedAmount]),
    ).toEqual(
      expect.arrayContaining([
        ['TRANSFER', LUMEN, '22.20'],
        ['TRANSFER', NORTHWIND, '13.50'],
      ]),
    )
    expect(rows).toHaveLength(4)
    expect(
      rows
        .filter((row) => row.entry === 'BRAND')
        .map((row) => ({
          order: row.creatorOrderId,
          brand: row.brandStoreShop,
          rates: [row.tandemCommissionRate, row.creatorCommissionRate],
          amounts: [
            row.baseAmount,
            row.brandAmount,
            row.creatorCommissionAmount,
            row.tandemCommissionAmount,
          ],
          by: row.processedBy,
        })),
    ).toEqual([
      {
        order: '1004',
        brand: LUMEN,
        rates: ['8', '12'],
        amounts: ['27.75', '22.20', '3.33', '2.22'],
        by: DEMO_ADMIN.email,
      },
      {
        order: '1004',
        brand: NORTHWIND,
        rates: ['10', '15'],
        amounts: ['18.00', '13.50', '2.70', '1.80'],
        by: DEMO_ADMIN.email,
      },
    ])
  })

  it('reads well in the light theme and a narrow window', async () => {
    await chooseTheme(page, 'Light')
    await page.setViewportSize({ width: 560, height: 1000 })
    // The sidebar slides away at this width: the picture is taken once it has.
    const ordersLink = page
      .getByRole('navigation')
      .getByRole('link', { name: 'Orders', exact: true })
    await expect.poll(() => onScreen(page, ordersLink)).toBe(false)
    // Nothing wider than the window: the page never scrolls sideways.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      560,
    )
    await screenshot(page, 'orders-history-light-narrow')
    await page.getByRole('tab', { name: 'Orders', exact: true }).click()
    // Narrow, the order's cell also holds its folded store and dates.
    await shows(ordersTable().getByText('#1001', { exact: true }))
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      560,
    )
    await screenshot(page, 'orders-light-narrow')
    await chooseTheme(page, 'Dark')
    await page.setViewportSize({ width: 1280, height: 1000 })
    await expect.poll(() => onScreen(page, ordersLink)).toBe(true)
  })
})

describe('Activity', () => {
  it('shows the rate change just made, with its old and new values', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Stores', exact: true }).click()
    await page.locator('tbody tr').filter({ hasText: 'northwind apparel' }).click()
    const creator = page.getByLabel('Creator commission rate')
    await expect.poll(() => creator.inputValue()).toBe('15')
    await creator.fill('17.5')
    await page
      .getByRole('form', { name: 'Default commission' })
      .getByRole('button', { name: 'Save' })
      .click()
    await shows(page.getByText('Default Commission rates set successfully.'))

    await page.getByRole('button', { name: 'Activity' }).click()
    const drawer = page.getByRole('dialog', { name: 'Activity' })
    await shows(drawer.getByText('Default commission set'))
    await shows(drawer.getByText('Creator rate 15% → 17.5%'))
    await shows(drawer.getByText('Transfer processed'))
    // The drawer slides in: the picture is taken once it is wholly in the window.
    await expect
      .poll(async () => {
        const box = await drawer.boundingBox()
        return box !== null && box.x + box.width <= 1280 + 0.5
      })
      .toBe(true)
    await screenshot(page, 'activity-dark-wide')
  })
})
