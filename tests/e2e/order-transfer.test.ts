import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page, Route } from 'playwright-core'
import { BROWSER_HOST } from '../../src/shared/browser-host'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { NO_COMMISSION_1002 } from '../support/sandbox-figures'
import { pdfText } from '../support/pdf-text'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import {
  chooseTheme,
  opacity,
  readmePicture,
  screenshot,
  shows,
  signIn,
  waitForInk,
} from './console'

// docs/product-rules.md "The console's screens" (/main/create-order-transfer) and issue 6 in
// Chromium, against the real server with the sandbox marketplace (docs/product-rules.md's figures),
// pdf.js drawing the real receipt, and the browser host's downloads folder standing in for the save
// dialog.

let browser: Browser
let stack: StackUnderTest
let page: Page
/** Every URL the console's page asked for, to prove pdf.js fetches nothing from elsewhere. */
const requested: string[] = []

const RECEIPT_PATH = '/admin-preview-order-transfer-receipt-pdf'

beforeAll(async () => {
  stack = await startStack()
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: 'en-US' })
  page.on('request', (request) => requested.push(request.url()))
  await page.goto(stack.console.url.replace('#/signin', '#/main/create-order-transfer'))
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await shows(page.getByRole('heading', { name: 'Create Order Transfer' }))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const card = (on: Page, title: string): Locator => on.getByRole('region', { name: title })

/** The text of each cell of a card's table body. */
const tableRows = (on: Page, title: string) =>
  card(on, title)
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
    )

/** The value under a label of a card's fields. */
const field = (on: Page, title: string, label: string) =>
  card(on, title)
    .locator('dt', { hasText: label })
    .locator('xpath=following-sibling::dd')
    .textContent()

async function preview(on: Page, orderId: string, toast = 'Preview fetched successfully') {
  await on.getByRole('button', { name: 'Clear' }).click()
  await on.getByLabel('Creator order ID').fill(orderId)
  await on.getByRole('button', { name: 'Send' }).click()
  await shows(on.getByText(toast).last())
}

const receiptRequests = (orderId: string) =>
  stack.exchanges.filter(
    (exchange) => exchange.request === `GET ${RECEIPT_PATH}?creatorOrderId=${orderId}`,
  )

describe('order transfer preview in Chromium', () => {
  it("previews order 1001 with the sandbox's figures, lines and images", async () => {
    await preview(page, '1001')

    await expect.poll(() => field(page, 'Creator Order', 'Name')).toBe('#1001')
    await expect.poll(() => field(page, 'Creator Order', 'Email')).toBe('jane@example.com')
    await expect.poll(() => field(page, 'Creator Order', 'Tax')).toBe('$14.04')
    await expect
      .poll(() => field(page, 'Creator Order', 'Shipping address'))
      .toBe('Jane Doe\n1 Main St\nPortland 97201\nUS')
    await expect
      .poll(async () =>
        (await tableRows(page, 'Line Items')).map((cells) => [
          cells[1],
          cells[3],
          cells[4],
          cells[5],
        ]),
      )
      .toEqual([
        ['Linen OvershirtFrom northwind apparel', '2', '$68.00', '$136.00'],
        ['Rosehip Face OilFrom lumen botanicals', '1', '$34.50', '$34.50'],
        ['Sticker PackNot from a brand', '1', '$5.00', '$5.00'],
      ])
    // The server serves the product images; each has loaded.
    const images = card(page, 'Line Items').locator('img')
    await expect.poll(() => images.count()).toBe(3)
    await expect
      .poll(() =>
        images.evaluateAll((all) =>
          all.map((image) => (image as unknown as { naturalWidth: number }).naturalWidth > 0),
        ),
      )
      .toEqual([true, true, true])

    await expect
      .poll(() => tableRows(page, 'Brand Transfers'))
      .toEqual([
        ['northwind apparelnorthwind-apparel.myshopify.com', '-', '$102.00', '$20.40', '$13.60'],
        ['lumen botanicalslumen-botanicals.myshopify.com', '-', '$24.84', '$6.90', '$2.76'],
      ])
    await expect.poll(() => field(page, 'Totals', 'Total brand amount')).toBe('$126.84')
    await expect.poll(() => field(page, 'Totals', 'Total creator commission')).toBe('$27.30')
    await expect.poll(() => field(page, 'Totals', 'Total tandem commission')).toBe('$16.36')
    await screenshot(page, 'order-transfer-dark-wide')
    await readmePicture(page, 'preview-1001')
  })

  it.each([
    ['1002', NO_COMMISSION_1002],
    ['1003', 'No brand orders found'],
    ['4242', 'Creator order not found'],
  ])("shows the server's reason for order %s: %s", async (orderId, reason) => {
    await preview(page, orderId, 'Failed to fetch preview')
    await shows(page.locator('.mantine-Notification-description', { hasText: reason }))
    // On the page, titled with what happened in an administrator's words.
    const refused = page.getByRole('alert', {
      name: `Tandem cannot transfer creator order ${orderId}`,
    })
    await shows(refused.getByText(reason))
    await expect.poll(() => card(page, 'Creator Order').count()).toBe(0)
  })

  it('shows order 1005 in euros', async () => {
    await preview(page, '1005')
    await expect
      .poll(async () => (await tableRows(page, 'Brand Transfers'))[0]?.slice(2))
      .toEqual(['€46.50', '€9.30', '€6.20'])
    await expect.poll(() => field(page, 'Creator Order', 'Subtotal')).toBe('€62.00')
  })

  it('refuses an empty ID', async () => {
    await page.getByRole('button', { name: 'Clear' }).click()
    await page.getByRole('button', { name: 'Send' }).click()
    await shows(page.getByText('Creator order ID is required'))
  })
})

describe('requests in flight in Chromium', () => {
  it('shows "Sending..." and "Fetching receipt preview..." while main is asked', async () => {
    // Playwright holds the page's calls to the host (main's stand-in) until the test lets go.
    const held = new Map<string, Route>()
    const hold = (channel: string) =>
      page.route(`**${BROWSER_HOST.invokePath}${channel}`, (route) => void held.set(channel, route))
    const release = async (channel: string) => {
      await expect.poll(() => held.has(channel)).toBe(true)
      await held.get(channel)!.continue()
      await page.unroute(`**${BROWSER_HOST.invokePath}${channel}`)
    }

    await hold('adminPreviewOrderTransfer')
    await page.getByRole('button', { name: 'Clear' }).click()
    await page.getByLabel('Creator order ID').fill('1001')
    await page.getByLabel('Creator order ID').press('Enter')
    const sending = page.getByRole('button', { name: 'Sending...' })
    await shows(sending)
    await expect.poll(() => sending.isDisabled()).toBe(true)
    await release('adminPreviewOrderTransfer')
    await shows(page.getByRole('button', { name: 'Send', exact: true }))

    await hold('adminPreviewOrderTransferReceiptPdf')
    await page.getByRole('tab', { name: 'Receipt' }).click()
    await shows(page.getByText('Fetching receipt preview...'))
    await release('adminPreviewOrderTransferReceiptPdf')
    await waitForInk(page)
    await page.getByRole('button', { name: 'Clear' }).click()
    await page.getByRole('tab', { name: 'Summary' }).click()
  })
})

describe('the receipt in Chromium', () => {
  it('draws the receipt with pdf.js, fetched once however often the tab is opened', async () => {
    const earlier = receiptRequests('1001').length
    await preview(page, '1001')
    await page.getByRole('tab', { name: 'Receipt' }).click()
    await shows(page.getByText('Receipt PDF fetched'))
    await waitForInk(page)
    await shows(page.getByLabel('Page 1 of 1'))

    await page.getByRole('tab', { name: 'Summary' }).click()
    await page.getByRole('tab', { name: 'Receipt' }).click()
    await waitForInk(page)
    expect(receiptRequests('1001')).toHaveLength(earlier + 1)
    // pdf.js and its worker are the console's own files; images come from the server.
    const origins = new Set(requested.map((url) => new URL(url).origin))
    expect([...origins].sort()).toEqual([new URL(stack.console.url).origin, stack.apiUrl].sort())
    expect(requested.some((url) => /\/assets\/pdf\.worker[^/]*\.mjs$/.test(url))).toBe(true)
    await screenshot(page, 'order-transfer-receipt-dark-wide')
  })

  it('zooms in and out, and back to the width of the viewer', async () => {
    const pageCanvas = page.getByLabel('Page 1 of 1')
    const width = async () => (await pageCanvas.boundingBox())?.width ?? 0
    const fitted = await width()
    await page.getByRole('button', { name: 'Zoom in' }).click()
    await expect.poll(width).toBeGreaterThan(fitted)
    await page.getByRole('button', { name: 'Zoom out' }).click()
    await page.getByRole('button', { name: 'Zoom out' }).click()
    await expect.poll(width).toBeLessThan(fitted)
    await page.getByRole('button', { name: 'Fit to width' }).click()
    await expect.poll(width).toBeCloseTo(fitted, 0)
    await waitForInk(page)
  })

  it("saves exactly the bytes the server sent, under the order's name", async () => {
    await page.getByRole('button', { name: 'Save PDF' }).click()
    await shows(page.getByText('Receipt saved'))
    expect(readdirSync(stack.console.downloadsDir)).toContain('tandem-receipt-1001.pdf')
    const saved = readFileSync(join(stack.console.downloadsDir, 'tandem-receipt-1001.pdf'))
    // The receipt on screen is the last one the server sent for the order.
    const sent = receiptRequests('1001').at(-1)
    expect(saved.subarray(0, 5).toString()).toBe('%PDF-')
    expect(saved.equals(sent!.body)).toBe(true)
  })

  it('is readable in the light theme and in a narrow window', async () => {
    await chooseTheme(page, 'Light')
    await waitForInk(page)
    await screenshot(page, 'order-transfer-receipt-light-wide')
    await page.setViewportSize({ width: 560, height: 900 })
    await waitForInk(page)
    await screenshot(page, 'order-transfer-receipt-light-narrow')
    await page.getByRole('tab', { name: 'Summary' }).click()
    await screenshot(page, 'order-transfer-light-narrow')
    await chooseTheme(page, 'Dark')
    await screenshot(page, 'order-transfer-dark-narrow')
    await page.setViewportSize({ width: 1280, height: 1000 })
  })

  it('Clear resets the preview and the receipt', async () => {
    await page.getByRole('button', { name: 'Clear' }).click()
    await expect.poll(() => page.getByLabel('Creator order ID').inputValue()).toBe('')
    await expect.poll(() => card(page, 'Creator Order').count()).toBe(0)
    await page.getByRole('tab', { name: 'Receipt' }).click()
    await shows(page.getByText('Enter a creator order ID and press Send to preview its transfer.'))
    await expect.poll(() => page.locator('canvas').count()).toBe(0)
    await page.getByRole('tab', { name: 'Summary' }).click()
  })
})

describe('processing in Chromium', () => {
  it('processes order 1004 once; a second attempt from another window is refused', async () => {
    const other = await browser.newPage({
      viewport: { width: 1280, height: 1000 },
      locale: 'en-US',
    })
    await other.goto(stack.console.url.replace('#/signin', '#/main/create-order-transfer'))
    await preview(other, '1004')
    await preview(page, '1004')
    await page.getByRole('tab', { name: 'Receipt' }).click()
    await waitForInk(page)
    await page.getByRole('tab', { name: 'Summary' }).click()

    await page.getByRole('button', { name: 'Process transfer' }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm processing transfer' })
    await shows(
      dialog.getByText('This will create the brand orders and finalize the transfer. Continue?'),
    )
    // The dialog fades in: the picture is taken once it has.
    await expect.poll(() => opacity(dialog)).toBe('1')
    await screenshot(page, 'order-transfer-confirm-dark-wide')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await shows(page.getByText('Order transfer processed'))

    // The preview refreshes: each brand's order is there, and the button is spent.
    await expect
      .poll(async () => (await tableRows(page, 'Brand Transfers')).map((cells) => cells[1] !== '-'))
      .toEqual([true, true])
    await expect
      .poll(async () => (await tableRows(page, 'Brand Transfers')).map((cells) => cells.slice(2)))
      .toEqual([
        ['$22.20', '$3.33', '$2.22'],
        ['$13.50', '$2.70', '$1.80'],
      ])
    await expect
      .poll(() => page.getByRole('button', { name: 'Process transfer' }).isDisabled())
      .toBe(true)
    await shows(page.getByText(/^Processed /))
    await screenshot(page, 'order-transfer-processed-dark-wide')

    // The receipt becomes the processed one: fetched anew, once.
    await page.getByRole('tab', { name: 'Receipt' }).click()
    await waitForInk(page)
    const receipts = receiptRequests('1004')
    expect(receipts).toHaveLength(2)
    expect(await pdfText(receipts[0]!.body)).toContain('Preview')
    expect(await pdfText(receipts[1]!.body)).toContain('Processed on')

    // The other window still shows the preview from before.
    await other.getByRole('button', { name: 'Process transfer' }).click()
    await other.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click()
    await shows(
      other.locator('.mantine-Notification-description', {
        hasText: 'Order transfer already processed',
      }),
    )
    await shows(other.getByText('Failed to process transfer'))
    await expect
      .poll(() => other.getByRole('button', { name: 'Process transfer' }).isDisabled())
      .toBe(true)

    const processCalls = stack.exchanges.filter(
      (exchange) => exchange.request === 'POST /admin-create-order-transfer',
    )
    expect(processCalls.map((exchange) => exchange.status)).toEqual([201, 409])
    await other.close()
  })

  it('pays each brand of 1001 through Stripe: two transfers from the customer’s charge', async () => {
    await preview(page, '1001')
    await page.getByRole('button', { name: 'Process transfer' }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm processing transfer' })
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await shows(page.getByText('Order transfer processed'))

    // What the Stripe emulator holds, as Stripe's dashboard would show it.
    const transfers = stack.server.stripe
      .transfers()
      .filter((transfer) => transfer.transferGroup === 'tandem-order-1001')
      .map((transfer) => ({
        destination: transfer.destination,
        amount: `${(transfer.amount / 100).toFixed(2)} ${transfer.currency.toUpperCase()}`,
        sourceTransaction: transfer.sourceTransaction,
      }))
      .sort((a, b) => b.destination.localeCompare(a.destination))
    expect(transfers).toEqual([
      {
        destination: 'acct_sandbox_northwind_apparel',
        amount: '102.00 USD',
        sourceTransaction: 'ch_sandbox_order_1001',
      },
      {
        destination: 'acct_sandbox_lumen_botanicals',
        amount: '24.84 USD',
        sourceTransaction: 'ch_sandbox_order_1001',
      },
    ])
  })
})
