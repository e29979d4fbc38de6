import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import type { AxeResults } from 'axe-core'
import { afterAll, beforeAll, expect } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { DEMO_ADMIN } from '../../scripts/lib/auth-emulator'
import { launchChromium } from '../support/chromium'
import type { ServerOptions } from '../server/support/server-under-test'
import { startStack, type StackUnderTest } from '../support/stack-under-test'

// What the end-to-end tests share: waiting for what a person would see, and screenshots.

export const SCREENSHOTS_DIR = resolve(__dirname, '../../test-results/screenshots')

export async function shows(locator: Locator, timeout = 10_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout })
}

/**
 * Waits until no transition or finite animation runs: after a resize the sidebar slides out of a
 * narrow window, and a page looked at (or photographed) meanwhile is half covered by it. A
 * spinner's endless animation is no transition to wait for.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    // Typed here without the DOM's names, as the rest of these tests are.
    interface RunningAnimation {
      playState: string
      effect: { getComputedTiming(): { iterations?: number } } | null
    }
    const view = globalThis as unknown as {
      document: { getAnimations(): RunningAnimation[] }
    }
    return view.document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().iterations === Infinity,
      )
  })
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true })
  await settled(page)
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`) })
}

/**
 * README's pictures (docs/pictures/{name}.png) and what each shows: each is taken by the e2e test
 * that reaches that state, so that they show the console as it is. A changed picture is committed
 * with the change that changed it (CONTRIBUTING).
 */
export const README_PICTURES = {
  orders: "Orders listing the sandbox's five creator orders, none transferred yet",
  'preview-1001': "Create Order Transfer previewing #1001: each brand's order and amounts",
  'sandbox-refund': "The Sandbox page after #1001's overshirts were refunded in Shopify and Stripe",
  'money-trail-1001': "#1001's money trail after that refund: Northwind's 102.00 taken back",
  'menu-light-narrow': 'The slide-out menu on a narrow window, light theme',
} as const

export const PICTURES_DIR = resolve(__dirname, '../../docs/pictures')

/**
 * Writes README's picture `name` of the page as it is (or of `of` alone). So that a run leaves the
 * picture unchanged unless the console changed, what differs run to run is left out: the mouse
 * hovers nothing, toasts are hidden, animations stopped, `volatile` (a clock time, a Stripe id)
 * masked, and a picture that differs from the one in the tree by antialiasing alone is not
 * written.
 */
export async function readmePicture(
  page: Page,
  name: keyof typeof README_PICTURES,
  options: { of?: Locator; volatile?: Locator[] } = {},
): Promise<void> {
  mkdirSync(PICTURES_DIR, { recursive: true })
  // Nothing hovered: where the last click left the mouse is no part of the state.
  await page.mouse.move(0, 0)
  await settled(page)
  const shot = await (options.of ?? page).screenshot({
    animations: 'disabled',
    mask: options.volatile ?? [],
    maskColor: '#5c5f66',
    style: '.mantine-Notifications-root { display: none !important; }',
  })
  const path = join(PICTURES_DIR, `${name}.png`)
  if (!existsSync(path) || !samePicture(readFileSync(path), shot)) writeFileSync(path, shot)
}

/** Playwright's own PNG codec (pngjs), as its screenshot comparisons use it. */
const { PNG } = createRequire(__filename)('playwright-core/lib/utilsBundle') as {
  PNG: { sync: { read(png: Buffer): { width: number; height: number; data: Buffer } } }
}

/**
 * Whether two PNGs show the same picture: Chromium's antialiasing of a rounded corner differs by
 * a level of a channel run to run, which is no change of the console.
 */
function samePicture(before: Buffer, after: Buffer): boolean {
  const [was, now] = [PNG.sync.read(before), PNG.sync.read(after)]
  if (was.width !== now.width || was.height !== now.height) return false
  return was.data.every((value, index) => Math.abs(value - now.data[index]!) <= 2)
}

/**
 * Pictures of `shown` (scrolled into view) dark and light, 1400 and 700 px wide, named
 * `{name}-{theme}-{wide|narrow}`; the page is left dark and 1400 px wide.
 */
export async function screenshotsOf(page: Page, shown: Locator, name: string): Promise<void> {
  await shown.scrollIntoViewIfNeeded()
  await screenshot(page, `${name}-dark-wide`)
  await chooseTheme(page, 'Light')
  await screenshot(page, `${name}-light-wide`)
  await page.setViewportSize({ width: 700, height: 1000 })
  await shown.scrollIntoViewIfNeeded()
  await screenshot(page, `${name}-light-narrow`)
  await chooseTheme(page, 'Dark')
  await screenshot(page, `${name}-dark-narrow`)
  await page.setViewportSize({ width: 1400, height: 1000 })
}

export const colorScheme = (page: Page) =>
  page.locator('html').getAttribute('data-mantine-color-scheme')

/** The hash route the console shows, e.g. "/main/stores". */
export const route = (page: Page) => new URL(page.url()).hash.replace(/^#/, '')

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Signin' }).click()
}

/** Mantine's segmented control hides its radio inputs: a person clicks the label. */
export async function chooseTheme(page: Page, name: 'Light' | 'Dark' | 'System'): Promise<void> {
  const id = await page.getByRole('radio', { name }).getAttribute('id')
  await page.locator(`label[for="${id}"]`).click()
}

/** Whether any of the element lies inside the window (a slid-away menu does not). */
export async function onScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox()
  const width = page.viewportSize()?.width ?? 0
  return box !== null && box.x + box.width > 0 && box.x < width
}

/** Whether all of the element lies inside the window: a drawer that has finished sliding in. */
export async function whollyOnScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox()
  const width = page.viewportSize()?.width ?? 0
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5
}

/** The element's computed opacity (these tests are typed without the DOM's names). */
export const opacity = (locator: Locator) =>
  locator.evaluate((element) => {
    const view = globalThis as unknown as { getComputedStyle(of: unknown): { opacity: string } }
    return view.getComputedStyle(element).opacity
  })

/** An accessibility rule the screen breaks, as axe-core names it and the elements that break it. */
export interface AxeViolation {
  id: string
  impact: string
  targets: string[]
}

const AXE_SOURCE = readFileSync(createRequire(__filename).resolve('axe-core'), 'utf8')

/**
 * The serious and critical WCAG violations axe-core finds on the page as it is now (lesser ones
 * are advice). The page's context needs `bypassCSP`: the console's policy refuses inline scripts.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    await page.addScriptTag({ content: AXE_SOURCE })
  }
  const { violations } = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run(),
  )
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? '',
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }))
}

/**
 * Chromium at the stack's console, 1400 px wide, signed in as the demo admin and showing `path`
 * once its heading is there.
 */
export async function signedInConsole(
  stack: StackUnderTest,
  path: string,
  heading: string,
): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, locale: 'en-US' })
  await page.goto(stack.console.url.replace('#/signin', `#${path}`))
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await shows(page.getByRole('heading', { name: heading }))
  return { browser, page }
}

/**
 * The stack and Chromium signed in at `path` (signedInConsole), started before the file's tests and
 * stopped after them; read once they have started.
 */
export function consoleForTests(path: string, heading: string, options: ServerOptions = {}) {
  let started: { stack: StackUnderTest; browser: Browser; page: Page } | undefined
  beforeAll(async () => {
    const stack = await startStack(options)
    started = { stack, ...(await signedInConsole(stack, path, heading)) }
  })
  afterAll(async () => {
    await started?.browser.close()
    await started?.stack.stop()
  })
  const get = () => {
    if (!started) throw new Error('The console is read before its tests have started')
    return started
  }
  return {
    get stack() {
      return get().stack
    },
    get page() {
      return get().page
    },
  }
}

/** How many pixels of the receipt's canvases are not white paper: 0 until pdf.js has drawn. */
const inkedPixels = (on: Page) =>
  on.getByRole('region', { name: /^Receipt / }).evaluate((viewer) =>
    [...viewer.querySelectorAll('canvas')].reduce((inked, canvas) => {
      const context = canvas.getContext('2d')
      if (!context || canvas.width === 0) return inked
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height)
      let count = 0
      for (let index = 0; index < data.length; index += 4) {
        if (data[index]! < 200 || data[index + 1]! < 200 || data[index + 2]! < 200) count += 1
      }
      return inked + count
    }, 0),
  )

export async function waitForInk(on: Page) {
  await shows(on.getByRole('region', { name: /^Receipt / }))
  await expect.poll(() => inkedPixels(on), { timeout: 15_000 }).toBeGreaterThan(1000)
}

/**
 * A stack with every sandbox shop but Urban Trail connected (their fulfillments, holds and refunds
 * reach the server) and order 1001 processed: what happens after the sale starts from here.
 */
export async function startStackWith1001Processed(): Promise<StackUnderTest> {
  const stack = await startStack()
  const asAdmin = (url: string, payload: object) =>
    stack.server.app.inject({ method: 'POST', url, headers: stack.server.asAdmin, payload })
  for (const shop of [
    'northwind-apparel.myshopify.com',
    'lumen-botanicals.myshopify.com',
    'maya-makes.myshopify.com',
  ]) {
    const tested = await asAdmin('/admin-test-shop-connection', { shop })
    expect(tested.json()).toMatchObject({ state: 'CONNECTED' })
  }
  const processed = await asAdmin('/admin-create-order-transfer', { creatorOrderId: '1001' })
  expect(processed.statusCode).toBe(201)
  return stack
}
