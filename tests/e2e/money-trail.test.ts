import { expect, it } from 'vitest'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { REFUND_CATCH_UP_JOB } from '../../server/src/refunds/refund-catch-up'
import {
  creatorRefunds,
  creatorStopsRefundNews,
  FOR_JOBS,
  MAYA,
  MAYA_ACCOUNT,
  NO_STRIPE_WAITS,
  ORDER_1001,
  transfer1001,
} from '../server/support/refund-world'
import { consoleForTests, screenshot, screenshotsOf, shows, waitForInk } from './console'

// Issue 33's end to end: order 1001 transferred and its creator paid; the creator refunds an
// overshirt, then the face oil, in her Shopify admin, and her payment app refunds the customer in
// Stripe. With no click, the console's money trail shows what went back from Northwind and Maya
// with Stripe's ids, and what Lumen owes (its balance no longer covered its part); Northwind's
// order is refunded and Lumen's cancelled in their stores.

const under = consoleForTests(
  '/main/create-order-transfer',
  'Create Order Transfer',
  NO_STRIPE_WAITS,
)

const moneyTrail = () => under.page.getByRole('region', { name: 'Money trail' })

/**
 * The money trail's rows as the screen shows them, order 1001 previewed afresh; a Stripe id, shown
 * short, as it is whole on hover.
 */
async function trailShown(): Promise<string[][]> {
  await under.page.getByLabel('Creator order ID').fill('1001')
  await under.page.getByRole('button', { name: 'Send' }).click()
  await shows(moneyTrail())
  return moneyTrail()
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll('td')].map(
          (cell) => cell.querySelector('[title]')?.getAttribute('title') ?? cell.textContent,
        ),
      ),
    )
}

/** Stripe's id of the transfer to an account, or of its nth reversal, as the emulator made them. */
const stripeIdOf = {
  transfer: (account: string) =>
    under.stack.server.stripe.transfers().find((transfer) => transfer.destination === account)!.id,
  reversal: (account: string, nth = 0) =>
    under.stack.server.stripe
      .reversals()
      .filter((reversal) => reversal.destination === account)
      .at(nth)!.id,
}

/** The changes the console asked of the server since its `answered`th exchange. */
const changesAskedSince = (answered: number) =>
  under.stack.exchanges
    .slice(answered)
    .filter((exchange) => /^(POST|PUT|DELETE) \/admin-/.test(exchange.request))

/**
 * The previews' toasts closed, each as it shows (a later one may follow a leaving one): they would
 * cover the trail's last rows.
 */
async function toastsClosed() {
  const toasts = under.page.locator('.mantine-Notification-root')
  await expect
    .poll(async () => {
      const shown = await toasts.count()
      if (shown > 0) {
        await toasts
          .first()
          .getByRole('button', { name: 'Dismiss' })
          .click({ timeout: 1000 })
          .catch(() => {})
      }
      return shown
    }, FOR_JOBS)
    .toBe(0)
}

const brandOrderOf = (shop: string) =>
  under.stack.server.shopify.orders(shop).find((order) => order.tags.includes('tandem'))!

it('shows each reversal and amount owed after refunds in the money trail, with no click', async () => {
  await transfer1001(under.stack.server)
  const answeredBefore = under.stack.exchanges.length
  // Maya refunds an overshirt in Shopify before her payment app refunds the customer in Stripe:
  // nothing goes back yet, and the order's money trail says why (not only the Jobs page).
  const refund = await creatorRefunds(under.stack.server, ORDER_1001, [{ line: 0, quantity: 1 }], {
    stripeToo: false,
  })
  const waits = moneyTrail().getByRole('alert', { name: 'A refund has not gone back yet' })
  await expect
    .poll(async () => {
      await trailShown()
      return waits.count()
    }, FOR_JOBS)
    .toBe(1)
  await shows(waits.getByText(/: nothing goes back until the customer is refunded$/))
  await shows(waits.getByText(/^Tandem tries again at /))
  expect(await trailShown()).toHaveLength(3)
  await toastsClosed()
  await screenshotsOf(under.page, moneyTrail(), 'money-trail-refund-waits')
  // The payment app refunds the customer: the next run gives back, and the trail says no more.
  under.stack.server.stripe.refund(ORDER_1001.chargeId, Math.round(Number(refund.amount) * 100))
  await expect.poll(async () => (await trailShown()).length, FOR_JOBS).toBe(5)
  expect(await waits.count()).toBe(0)
  // Lumen was paid out since: its Stripe balance cannot cover the face oil's 24.84.
  under.stack.server.stripe.setBalance(LUMEN_ACCOUNT, 'usd', 0)
  await creatorRefunds(under.stack.server, ORDER_1001, [{ line: 1, quantity: 1 }])
  await expect.poll(async () => (await trailShown()).length, FOR_JOBS).toBe(7)

  const rows = await trailShown()
  // Moments vary from run to run: each is the screen's wording of a moment, oldest first.
  expect(rows.map(([, what, id, amount]) => [what, id, amount])).toEqual(
    expect.arrayContaining([
      ['Paid to northwind apparel, the brand.', stripeIdOf.transfer(NORTHWIND_ACCOUNT), '$102.00'],
      ['Paid to lumen botanicals, the brand.', stripeIdOf.transfer(LUMEN_ACCOUNT), '$24.84'],
    ]),
  )
  expect(rows.slice(2).map(([, what, id, amount]) => [what, id, amount])).toEqual([
    ['Commission paid to maya makes, the creator.', stripeIdOf.transfer(MAYA_ACCOUNT), '$27.30'],
    [
      'Taken back from northwind apparel, the brand, after a refund.',
      stripeIdOf.reversal(NORTHWIND_ACCOUNT),
      '$51.00',
    ],
    [
      'Taken back from maya makes, the creator, after a refund.',
      stripeIdOf.reversal(MAYA_ACCOUNT),
      '$10.20',
    ],
    [
      "Owed by lumen botanicals, the brand, after a refund: Stripe could not take it back from the account's balance.",
      stripeIdOf.transfer(LUMEN_ACCOUNT),
      '$24.84',
    ],
    [
      'Taken back from maya makes, the creator, after a refund.',
      stripeIdOf.reversal(MAYA_ACCOUNT, 1),
      '$6.90',
    ],
  ])
  expect(rows.map(([when]) => when)).not.toContain('—')

  // The brands' own orders follow: Northwind's refunds the overshirt, Lumen's is cancelled.
  expect(under.stack.server.shopify.refunds(NORTHWIND, brandOrderOf(NORTHWIND).id)).toHaveLength(1)
  expect(brandOrderOf(LUMEN).cancelledAt).not.toBeNull()
  // Nobody clicked: the console asked the server for no change.
  expect(changesAskedSince(answeredBefore)).toEqual([])

  await toastsClosed()
  await screenshotsOf(under.page, moneyTrail(), 'money-trail')

  // The receipt gains what the refunds took back and the reversals, below the brands' transfers:
  // a window tall enough to show its whole page.
  await under.page.setViewportSize({ width: 1400, height: 2200 })
  await under.page.getByRole('tab', { name: 'Receipt' }).click()
  await waitForInk(under.page)
  await under.page.locator('.mantine-Notification-root').getByRole('button').click()
  await screenshot(under.page, 'money-trail-receipt-dark-wide')
  await under.page.getByRole('tab', { name: 'Summary' }).click()
  await under.page.setViewportSize({ width: 1400, height: 1000 })
})

it("previews a refund's split before it runs: what each party would give back and keep", async () => {
  const page = under.page
  await trailShown()
  const card = page.getByRole('region', { name: 'Refund split' })
  // One overshirt is still sold: refunding it too would leave every party nothing.
  const overshirts = page.getByRole('textbox', { name: 'Units of Linen Overshirt to refund' })
  await overshirts.fill('1')
  await card.getByRole('button', { name: 'Preview refund split' }).click()
  await shows(
    card.getByText('Refunding 1 more unit would take back, with the refunds already made:'),
  )
  const rows = await card
    .getByRole('table')
    .last()
    .locator('tbody tr')
    .evaluateAll((all) =>
      all.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
    )
  expect(rows).toEqual([
    ['northwind apparel, the brand (2 units refunded)', '$102.00', '$0.00'],
    ['lumen botanicals, the brand (1 unit refunded)', '$24.84', '$0.00'],
    ['maya makes, the creator', '$27.30', '$0.00'],
    ['Tandem, the platform', '$16.36', '$0.00'],
  ])
  // Nothing was refunded: the Shopify emulator has the creator's two refunds only.
  expect(
    under.stack.server.shopify.refunds(MAYA, `gid://shopify/Order/${ORDER_1001.orderId}`),
  ).toHaveLength(2)

  await page.locator('.mantine-Notification-root').getByRole('button').click()
  await screenshotsOf(page, card, 'refund-split')

  // 2 stays 2, refused under the field in the server's words, and no split is asked for.
  await overshirts.fill('2')
  await shows(card.getByText('Must be a whole number from 0 to 1, the units still sold'))
  expect(await card.getByRole('button', { name: 'Preview refund split' }).isDisabled()).toBe(true)
  await screenshotsOf(page, card, 'refund-split-refused')
})

it('says under the transfer in the history what went back and what Lumen owes', async () => {
  await under.page.goto(under.stack.console.url.replace('#/signin', '#/main/orders'))
  await under.page.getByRole('tab', { name: 'Transfer history' }).click()
  await shows(
    under.page.getByText(
      'Taken back after refunds: $51.00 from northwind apparel, $10.20 from maya makes, $6.90 from maya makes. Owed after refunds: $24.84 by lumen botanicals.',
    ),
  )
  await screenshot(under.page, 'money-trail-history-dark-wide')
})

it('records in Activity what went back, from whom, and the brands’ orders refunded and cancelled', async () => {
  await under.page.getByRole('button', { name: 'Activity' }).click()
  const drawer = under.page.getByRole('dialog', { name: 'Activity' })
  await shows(drawer.getByText('Brand order cancelled'))
  for (const label of [
    'Transfer reversed after a refund',
    'Amount owed after a refund',
    'Brand order refunded',
  ]) {
    await shows(drawer.getByText(label).first())
  }
  await shows(drawer.getByText('Creator maya makes').first())
  await shows(drawer.getByText('Amount 24.84 USD'))
  await screenshot(under.page, 'money-trail-activity-dark-wide')
})

it('shows a refund whose webhook never came once the refund catch-up reversed it, with no click', async () => {
  const { server } = under.stack
  // Back from Activity to the order's money trail.
  await under.page.keyboard.press('Escape')
  await under.page.getByRole('dialog', { name: 'Activity' }).waitFor({ state: 'hidden' })
  await under.page.goto(under.stack.console.url.replace('#/signin', '#/main/create-order-transfer'))
  await shows(under.page.getByRole('heading', { name: 'Create Order Transfer' }))
  // Maya deletes her app's subscriptions, then refunds the last overshirt: no server hears of it.
  await creatorStopsRefundNews(server.shopify)
  const answeredBefore = under.stack.exchanges.length
  await creatorRefunds(server, ORDER_1001, [{ line: 0, quantity: 1 }])
  // The catch-up, as its schedule sends it.
  await server.jobs.send(REFUND_CATCH_UP_JOB, {})
  await expect.poll(async () => (await trailShown()).length, FOR_JOBS).toBe(9)

  const rows = await trailShown()
  expect(rows.slice(7).map(([, what, id, amount]) => [what, id, amount])).toEqual([
    [
      'Taken back from northwind apparel, the brand, after a refund.',
      stripeIdOf.reversal(NORTHWIND_ACCOUNT, 1),
      '$51.00',
    ],
    [
      'Taken back from maya makes, the creator, after a refund.',
      stripeIdOf.reversal(MAYA_ACCOUNT, 2),
      '$10.20',
    ],
  ])
  // Northwind's order sells nothing any more: cancelled in its store.
  expect(brandOrderOf(NORTHWIND).cancelledAt).not.toBeNull()
  expect(changesAskedSince(answeredBefore)).toEqual([])
  await toastsClosed()
  await moneyTrail().scrollIntoViewIfNeeded()
  await screenshot(under.page, 'money-trail-catch-up-dark-wide')
})

it("says on the Shipping screen that Tandem cancelled the brands' orders after the creator's refunds", async () => {
  const cancelledBy = async (shop: string) => {
    const answer = await under.stack.server.app.inject({
      url: `/admin-shipments?brandShop=${shop}`,
      headers: under.stack.server.asAdmin,
    })
    return (answer.json() as { shipments: { cancelledBy: string | null }[] }).shipments[0]
      ?.cancelledBy
  }
  await expect.poll(() => cancelledBy(LUMEN), FOR_JOBS).toBe('TANDEM')
  await expect.poll(() => cancelledBy(NORTHWIND), FOR_JOBS).toBe('TANDEM')
  await under.page.goto(under.stack.console.url.replace('#/signin', '#/main/shipping'))
  const table = under.page.getByRole('table', { name: 'Shipments' })
  await shows(table.getByText("Cancelled by Tandem after the creator's refund").first())
  // Never blamed on the brand, whatever reason Tandem gave Shopify.
  expect(await table.getByText(/Cancelled by the brand/).count()).toBe(0)
  await screenshotsOf(under.page, table, 'shipping-cancelled-by-tandem')
})
