import { afterAll, describe, expect, it } from 'vitest'
import { NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { runNpmScript } from '../support/npm-script'
import { SANDBOX_CHOICES } from '../../src/shared/contract'
import { NOT_A_SANDBOX } from '../../server/src/routes/sandbox'
import { SANDBOX_PRODUCTS } from '../../server/src/sandbox/sandbox-controls'
import { STORES, storeName } from '../../server/src/seed/sandbox-data'
import { startServerUnderTest } from './support/server-under-test'
import { IRONPEAK, MAYA_ACCOUNT, reversal, transferTo } from './support/refund-world'
import {
  CREATOR_1001,
  FOR_JOBS,
  LUMEN,
  MAYA,
  NORTHWIND,
  shippingWorld,
} from './support/shipping-world'

// `npm run sandbox -- …` (scripts/sandbox.ts) as a newcomer types it beside the local stack: each
// command acts through the emulators' own APIs, and Tandem hears of it only as it would of the
// real thing (Shopify's webhooks, reading Stripe). One server for the walk: each step builds on the
// one before, as README's first hour does.

const URBAN = 'urban-trail-edits.myshopify.com'
const world = shippingWorld()
afterAll(() => world.server().close())

const sandbox = (...args: string[]) =>
  runNpmScript('sandbox', args, {
    TANDEM_SHOPIFY_ENDPOINT: world.server().shopify.url,
    TANDEM_STRIPE_ENDPOINT: world.server().stripe.url,
  })

/** What the sandbox's Stripe shows refunded of the seeded order's charge. */
const refundedOf = async (order: string) => {
  const stripe = world.server().stripe
  const answer = await fetch(`${stripe.url}/v1/charges/ch_sandbox_order_${order}`, {
    headers: { Authorization: `Bearer ${stripe.secretKey}` },
  })
  return ((await answer.json()) as { amount_refunded: number }).amount_refunded
}

describe('npm run sandbox after the sale', { timeout: 120_000 }, () => {
  it('ships, refunds in Shopify then in Stripe, and places a paid order, each reaching Tandem', async () => {
    const server = await world.transferred1001()

    // Lumen ships the face oil: Tandem mirrors the shipment on Maya's order, tracking and all.
    const shipped = await sandbox(
      'ship',
      '1001',
      '--brand',
      'lumen-botanicals',
      '--tracking',
      '1Z999AA10123456784',
    )
    expect(shipped).toMatchObject({ exitCode: 0, stderr: '' })
    expect(shipped.stdout).toMatch(
      /^lumen-botanicals\.myshopify\.com shipped its order #\d+ of creator order #1001 with UPS tracking 1Z999AA10123456784\./,
    )
    await expect
      .poll(
        () => world.creatorFulfillments().map((made) => made.tracking.map((t) => t.number)),
        FOR_JOBS,
      )
      .toEqual([['1Z999AA10123456784']])
    expect((await world.shipmentOf(LUMEN)).brandStoreShop).toBe(LUMEN)

    // Northwind holds its order: Tandem shows the hold on its shipment.
    const held = await sandbox('hold', '1001', '--brand', 'northwind-apparel')
    expect(held.stdout).toMatch(
      /^northwind-apparel\.myshopify\.com put its order #\d+ of creator order #1001 on hold\.$/,
    )
    await expect
      .poll(async () => (await world.shipmentOf(NORTHWIND)).holds, FOR_JOBS)
      .toEqual([{ reason: 'OTHER', notes: 'Held in the sandbox' }])

    // Maya refunds both overshirts in Shopify only: Tandem waits for the customer's money to
    // leave Stripe before it takes anything back.
    const inShopify = await sandbox('refund', '1001', '--line', '1', '--shopify-only')
    expect(inShopify).toMatchObject({
      exitCode: 0,
      stdout: `${MAYA} refunded 2 × Linen Overshirt of #1001 in Shopify (136.00 USD).`,
    })
    expect(server.shopify.refunds(MAYA, CREATOR_1001).map((made) => made.amount)).toEqual([
      '136.00',
    ])
    expect(await refundedOf('1001')).toBe(0)
    expect(server.stripe.reversals()).toEqual([])

    // Then her payment app refunds the customer in Stripe: Northwind's 102.00 and Maya's 20.40
    // go back, as README says.
    const inStripe = await sandbox('refund', '1001', '--line', '1', '--stripe-only')
    expect(inStripe).toMatchObject({
      exitCode: 0,
      stdout: 'Its payment app refunded 136.00 USD of pi_sandbox_order_1001 in Stripe.',
    })
    expect(await refundedOf('1001')).toBe(13600)
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 2040, '1001', MAYA),
        reversal(NORTHWIND_ACCOUNT, 10200, '1001', NORTHWIND),
      ])

    // A customer orders an overshirt and pays through Stripe: Tandem lists the order, paid.
    // Urban Trail cancels #1004 before it was processed: refunded in full in Shopify and Stripe.
    const cancelled = await sandbox('cancel', '1004')
    expect(cancelled).toMatchObject({
      exitCode: 0,
      stdout:
        'urban-trail-edits.myshopify.com cancelled #1004 in Shopify, refunding and restocking what was left.\n' +
        'Its payment app refunded 54.41 USD of pi_sandbox_order_1004 in Stripe.',
    })
    expect(await refundedOf('1004')).toBe(5441)
    expect(
      server.shopify.orders(URBAN).find((order) => order.name === '#1004')?.cancelledAt,
    ).not.toBeNull()
    // Northwind's socks run out.
    const stocked = await sandbox('stock', 'northwind-apparel', 'merino-crew-socks', '0')
    expect(stocked.exitCode).toBe(0)
    expect(server.shopify.stockOf('gid://shopify/ProductVariant/202')).toBe(0)

    const ordered = await sandbox('order', 'maya-makes', 'linen-overshirt:1')
    expect(ordered.exitCode).toBe(0)
    const [, name, intent] =
      /^Order #(\d+) placed on maya-makes\.myshopify\.com and paid through Stripe \((pi_\w+), 68\.00 USD\)\./.exec(
        ordered.stdout,
      ) ?? []
    expect(intent).toBeDefined()
    const listed = async () =>
      (
        (await world.call('GET', `/admin-creator-orders?q=${name}`)).json() as {
          orders: { name: string; totalAmount: string }[]
        }
      ).orders.map((order) => [order.name, order.totalAmount])
    await expect.poll(listed, FOR_JOBS).toEqual([[`#${name}`, '68.00']])
    // Its payment is on record: the transfer pays Northwind 51.00 of it.
    const preview = await world.call('GET', `/admin-preview-order-transfer?creatorOrderId=${name}`)
    expect(preview.json()).toMatchObject({
      preview: { brands: [{ brandStoreShop: NORTHWIND, brandAmount: '51.00' }] },
    })
  })

  it("sends #1001's customer's data request: Tandem lists it, about #1001", async () => {
    const sent = await sandbox('data-request', '1001')
    expect(sent).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout:
        `A customer of #1001 (jane@example.com) asked ${MAYA} for their data: Shopify sent ` +
        'Tandem customers/data_request 1 about orders #1001. An administrator downloads what ' +
        'Tandem holds on them under Activity → Data requests.',
    })
    const listed = async () =>
      (
        (await world.call('GET', '/admin-data-requests')).json() as {
          requests: { id: string; shop: string; requestId: string }[]
        }
      ).requests.map(({ id, shop, requestId }) => ({ id, shop, requestId }))
    await expect.poll(listed, FOR_JOBS).toEqual([{ id: `${MAYA}:1`, shop: MAYA, requestId: '1' }])
    // What the administrator downloads and sends on: the customer and their order #1001.
    const report = await world.call('GET', `/admin-data-request.json?id=${MAYA}:1`)
    expect(report.json()).toMatchObject({
      shop: MAYA,
      customer: { email: 'jane@example.com' },
      ordersRequested: [1001],
      held: { creatorOrders: [{ id: 1001, name: '#1001', totalMinor: 19754 }] },
    })
  })

  it('processes #1002 once Ironpeak has a default commission: its payment is in Stripe', async () => {
    const set = await world.call('POST', '/admin-set-default-commission-rate', {
      defaultCommission: {
        brandStoreShop: IRONPEAK,
        tandemCommissionRate: 10,
        creatorCommissionRate: 15,
      },
    })
    expect(set.statusCode).toBe(200)
    const processed = await world.call('POST', '/admin-create-order-transfer', {
      creatorOrderId: '1002',
    })
    expect(processed.json()).toMatchObject({ status: 'COMPLETED' })
    // The headlamp's 42.00 less Urban Trail's 6.30 and Tandem's 4.20.
    expect(transferTo(world.server(), 'acct_sandbox_ironpeak_outdoor')?.amount).toBe(3150)
  })

  it("is the console's too: the Sandbox page's call reprices through the emulator", async () => {
    const answer = await world.call('POST', '/admin-sandbox-action', {
      action: 'reprice',
      store: 'northwind-apparel',
      product: 'linen-overshirt',
      price: '72.00',
    })
    expect(answer.json()).toEqual({
      message:
        `${NORTHWIND} now sells linen-overshirt at 72.00 USD.\n` +
        "Tandem hears it on products/update and brings every creator's listing of it to the new " +
        "price (Listings on the creator's store page); a product no creator lists changes nothing in Tandem.",
    })
    expect(world.server().shopify.product(NORTHWIND, 'gid://shopify/Product/101')).toMatchObject({
      variants: [expect.objectContaining({ price: '72.00' })],
    })
    const wrong = await world.call('POST', '/admin-sandbox-action', {
      action: 'refund',
      order: '1001',
      line: 9,
    })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().message).toBe('The line must be a line of #1001: 1 to 3.')
    // The page offers the sandbox's own stores and products.
    expect(SANDBOX_CHOICES).toEqual({
      creators: STORES.filter((s) => s.shopType === 'CREATOR').map((s) => storeName(s.shop)),
      brands: STORES.filter((s) => s.shopType === 'BRAND').map((s) => storeName(s.shop)),
      products: SANDBOX_PRODUCTS,
    })
  })

  it('is refused in production, saying where it runs', async () => {
    const refused = await runNpmScript('sandbox', ['refund', '1001', '--line', '1'], {
      TANDEM_MODE: 'production',
    })
    expect(refused).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'npm run sandbox acts on the sandbox\'s emulators only; TANDEM_MODE is "production". ' +
        'Run it beside the local stack (npm run start:web), where TANDEM_MODE is unset.',
    })
  })

  it('answers 404 with why on a server that is not in sandbox mode beside the emulators', async () => {
    const server = await startServerUnderTest({ sandboxControls: false })
    try {
      const refused = await server.app.inject({
        method: 'POST',
        url: '/admin-sandbox-action',
        headers: server.asAdmin,
        payload: { action: 'refund', order: '1001', line: 1 },
      })
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({
        status: 404,
        body: { error: 'not_found', message: NOT_A_SANDBOX },
      })
      expect(server.shopify.refunds(MAYA, CREATOR_1001)).toEqual([])
    } finally {
      await server.close()
    }
  })
})
