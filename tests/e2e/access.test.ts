import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DEMO_ADMIN, upsertEmulatorUser } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import { startConsole, type ConsoleUnderTest } from '../support/console-host'
import { onScreen, route, screenshot, shows, signIn } from './console'

// Getting in and getting around, in Chromium, in browser mode: the page an address without this
// launch's key shows, and the slide-out menu of a narrow window.

let browser: Browser
let consoleHost: ConsoleUnderTest
let page: Page

beforeAll(async () => {
  const authEmulatorUrl = inject('authEmulatorUrl')
  await upsertEmulatorUser(authEmulatorUrl, inject('authProjectId'), DEMO_ADMIN)
  consoleHost = await startConsole({ authEmulatorUrl })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1400, height: 800 } })
})

afterAll(async () => {
  await browser?.close()
  await consoleHost?.stop()
})

const keyPage = () => page.getByRole('heading', { name: 'Open Tandem Admin with its key' })

describe('an address without this launch’s key', () => {
  it('says to open the address the stack printed, and offers no sign-in', async () => {
    await page.goto(`${consoleHost.origin}/#/signin`)
    await shows(keyPage())
    await shows(page.getByText(/This address has no key, or the key of an earlier launch/))
    await shows(page.getByText('Tandem Admin is running at'))
    await shows(page.getByText('?key=…#/signin'))
    expect(await page.getByRole('button', { name: 'Signin' }).count()).toBe(0)
    expect(await page.getByLabel('Password').count()).toBe(0)
    await screenshot(page, 'missing-key-dark-wide')
    await page.setViewportSize({ width: 700, height: 800 })
    await shows(keyPage())
    await screenshot(page, 'missing-key-dark-narrow')
    await page.setViewportSize({ width: 1400, height: 800 })
  })

  it("says the same for an earlier launch's key, which the host still refuses", async () => {
    await page.goto(`${consoleHost.origin}/?key=from-an-earlier-launch#/signin`)
    await shows(keyPage())
    expect(await page.getByRole('button', { name: 'Signin' }).count()).toBe(0)
    const refused = await page.evaluate(
      async () =>
        (
          await fetch('/__tandem/invoke/session/status', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-tandem-key': 'from-an-earlier-launch',
            },
            body: '{}',
          })
        ).status,
    )
    expect(refused).toBe(403)
  })

  it('with the printed address, shows the sign-in', async () => {
    await page.goto(consoleHost.url)
    await shows(page.getByRole('button', { name: 'Signin' }))
    expect(await keyPage().count()).toBe(0)
  })
})

describe('the slide-out menu of a narrow window', () => {
  const ordersLink = () => page.getByRole('navigation').getByRole('link', { name: 'Orders' })
  const openMenu = async () => {
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect.poll(() => onScreen(page, ordersLink())).toBe(true)
  }
  const menuClosed = async () => {
    await expect.poll(() => onScreen(page, ordersLink())).toBe(false)
    await shows(page.getByRole('button', { name: 'Open menu' }))
  }

  beforeAll(async () => {
    await page.setViewportSize({ width: 700, height: 800 })
    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
    await shows(page.getByRole('heading', { name: 'Stores', exact: true }))
  })

  it('closes on Escape', async () => {
    await openMenu()
    await screenshot(page, 'menu-open-dark-narrow')
    await page.keyboard.press('Escape')
    await menuClosed()
  })

  it('closes when a section is chosen in it', async () => {
    await openMenu()
    await ordersLink().click()
    await shows(page.getByRole('heading', { name: 'Orders', exact: true }))
    await menuClosed()
  })

  it('closes on Back', async () => {
    await openMenu()
    await page.goBack()
    await shows(page.getByRole('heading', { name: 'Stores', exact: true }))
    expect(route(page)).toBe('/main/stores')
    await menuClosed()
  })

  it('closes on any other navigation, such as Forward', async () => {
    await openMenu()
    await page.goForward()
    await shows(page.getByRole('heading', { name: 'Orders', exact: true }))
    await menuClosed()
  })
})
