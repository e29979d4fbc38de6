import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import {
  creatorRefunds,
  FOR_JOBS,
  MAYA_ACCOUNT,
  NO_STRIPE_WAITS,
  transfer1001,
} from '../server/support/refunds-after-transfer'
import { chooseTheme, screenshot, shows, signedInConsole } from './console'

// Issue 33's end to end: order 1001 transferred and its creator paid; the creator refunds an
// overshirt, then the face oil, in her Shopify admin, and her payment app refunds the customer in
// Stripe. With no click, the console's money trail shows what went back from Northwind and Maya
// with Stripe's ids, and what Lumen owes (its balance no longer covered its part); Northwind's
// order is refunded and Lumen's cancelled in their stores.

let browser: Browser
let stack: StackUnderTest
let page: Page

beforeAll(async () => {
  stack = await startStack(NO_STRIPE_WAITS)
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

const moneyTrail = () => page.getByRole('region', { name: 'Money trail' })

/**
 * The money trail's rows as the screen shows them, order 1001 previewed afresh; a Stripe id, shown
 * short, as it is whole on hover.
 */
async function trailShown(): Promise<string[][]> {
  await page.getByLabel('Creator order ID').fill('1001')
  await page.getByRole('button', { name: 'Send' }).click()
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

/** The moment and Stripe id of what Stripe made, as the screen words them. */
const stripeIdOf = {
  transfer: (account: string) =>
    stack.server.stripe.transfers().find((transfer) => transfer.destination === account)!.id,
  reversal: (account: string, nth = 0) =>
    stack.server.stripe.reversals().filter((reversal) => reversal.destination === account)[nth]!.id,
}

const brandOrderOf = (shop: string) =>
  stack.server.shopify.orders(shop).find((order) => order.tags.includes('tandem'))!

it('shows each reversal and amount owed after refunds in the money trail, with no click', async () => {
  await transfer1001(stack.server)
  const answeredBefore = stack.exchanges.length
  await creatorRefunds(stack.server, 0, 1, 'RETURN')
  await expect.poll(async () => (await trailShown()).length, FOR_JOBS).toBe(5)
  // Lumen was paid out since: its Stripe balance cannot cover the face oil's 24.84.
  stack.server.stripe.setBalance(LUMEN_ACCOUNT, 'usd', 0)
  await creatorRefunds(stack.server, 1, 1, 'RETURN')
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
  expect(stack.server.shopify.refunds(NORTHWIND, brandOrderOf(NORTHWIND).id)).toHaveLength(1)
  expect(brandOrderOf(LUMEN).cancelledAt).not.toBeNull()
  // Nobody clicked: the console asked the server for no change.
  const changes = stack.exchanges
    .slice(answeredBefore)
    .filter((exchange) => /^(POST|PUT|DELETE) \/admin-/.test(exchange.request))
  expect(changes).toEqual([])

  // The preview's toast is closed: it would cover the trail's last rows.
  await page.locator('.mantine-Notification-root').getByRole('button').click()
  await moneyTrail().scrollIntoViewIfNeeded()
  await screenshot(page, 'money-trail-dark-wide')
  await chooseTheme(page, 'Light')
  await screenshot(page, 'money-trail-light-wide')
  await page.setViewportSize({ width: 700, height: 1000 })
  await moneyTrail().scrollIntoViewIfNeeded()
  await screenshot(page, 'money-trail-light-narrow')
  await chooseTheme(page, 'Dark')
  await screenshot(page, 'money-trail-dark-narrow')
})

it('says under the transfer in the history what went back and what Lumen owes', async () => {
  await page.setViewportSize({ width: 1400, height: 1000 })
  await page.goto(stack.console.url.replace('#/signin', '#/main/orders'))
  await page.getByRole('tab', { name: 'Transfer history' }).click()
  await shows(
    page.getByText(
      'Taken back after refunds: $51.00 from northwind apparel, $10.20 from maya makes, $6.90 from maya makes. Owed after refunds: $24.84 by lumen botanicals.',
    ),
  )
  await screenshot(page, 'money-trail-history-dark-wide')
})
