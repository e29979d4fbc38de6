import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { startStack, type StackUnderTest } from '../support/stack-under-test'
import { failingUninstall, uninstallFailure } from '../server/support/failing-job'
import { screenshotsOf, shows, signIn } from './console'

// The Jobs page in Chromium against the real server: a webhook's job that always fails, dead after
// its one retry, shown with its message, and retried from the page, which the audit log records.

const MAYA = 'maya-makes.myshopify.com'

let browser: Browser
let stack: StackUnderTest
let page: Page

beforeAll(async () => {
  // One retry, a second after the first failure: the job is dead within the test.
  stack = await startStack({ jobRetries: { limit: 1 } })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
  await page.goto(stack.console.url.replace('#/signin', '#/main/jobs'))
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await shows(page.getByRole('heading', { name: 'Jobs', exact: true }))
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const jobRow = () =>
  page.getByRole('table', { name: 'Failed jobs' }).locator('tbody tr[aria-rowindex]')
const retryButton = () => jobRow().getByRole('button', { name: /^Retry Shopify webhook job/ })

/** Each time the webhook's job ran out of retries, as the server logged it. */
const deaths = () =>
  stack.server.jobLog.filter((line) => line.message === 'a shopify-webhook job failed: it is dead')

it('says nothing is failing while no job is', async () => {
  await shows(page.getByText('Nothing is failing: every background job ran.'))
})

it("shows a dead job's message, and retries it", async () => {
  await failingUninstall(stack.server, MAYA)
  await expect.poll(() => deaths().length, { timeout: 30_000 }).toBe(1)
  // The job logs its death before the queue records it failed: wait for what the page reads.
  await expect
    .poll(async () => (await stack.server.jobs.troubled()).map((job) => job.state), {
      timeout: 30_000,
    })
    .toEqual(['dead'])
  // The list is read when the page opens: opened again from the sidebar.
  await page.getByRole('navigation').getByRole('link', { name: 'Stores', exact: true }).click()
  await page.getByRole('navigation').getByRole('link', { name: 'Jobs', exact: true }).click()

  await shows(jobRow().getByText(uninstallFailure(MAYA)))
  await expect
    .poll(() => jobRow().locator('td').allTextContents())
    .toEqual([
      'Shopify webhook',
      'app/uninstalled · maya makes',
      'Dead',
      '2',
      expect.stringMatching(/^Failed /),
      'Retry',
      // Its error, whole, across the columns under it.
      uninstallFailure(MAYA),
    ])
  await screenshotsOf(page, jobRow().first(), 'jobs-error')

  await retryButton().click()
  await shows(page.getByText('It runs once more.'))
  // Its one more run fails as the others did: dead again.
  await expect.poll(() => deaths().length, { timeout: 30_000 }).toBe(2)

  await page.getByRole('button', { name: 'Activity' }).click()
  const drawer = page.getByRole('dialog', { name: 'Activity' })
  await shows(drawer.getByText('Job retried'))
  await shows(drawer.getByText('Job: Shopify webhook'))
  await shows(drawer.getByText(`Why: ${uninstallFailure(MAYA)}`))
})
