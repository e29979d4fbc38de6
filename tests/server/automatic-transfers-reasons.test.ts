import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linkVariants } from '../../server/src/repositories/variant-links'
import { ATTENTION_RECHECK_JOB } from '../../server/src/services/automatic-transfers'
import { NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { automaticOrders, copyOf, MAYA, startWithMayaConnected } from './support/automatic-orders'
import type { ServerUnderTest } from './support/server-under-test'

// Each reason an automatic order stops at "needs attention" for, beyond those of
// automatic-transfers.test.ts (issue 32, "Done means"): the inbox names the brand by its store name
// and the fix, nothing is made meanwhile, and once a person fixes the cause the way the sentence
// says, the order completes without anyone pressing Process: one brand order, one transfer.

const variant = (id: number) => `gid://shopify/ProductVariant/${id}`
/** Northwind's variant of the Linen Overshirt, whose copy Maya sells for 68.00. */
const OVERSHIRT = variant(201)
/** What Northwind is paid for one overshirt: 68.00 less its default 10 % and 15 %. */
const OVERSHIRT_BRAND_AMOUNT = 5100

let server: ServerUnderTest
const {
  call,
  setPolicy,
  setDefaultCommission,
  setPayoutAccount,
  customerPays,
  readiness,
  made,
  completes,
} = automaticOrders(() => server)

beforeEach(async () => {
  server = await startWithMayaConnected()
  await setPolicy('AUTOMATIC', 0)
})
afterEach(() => server.close())

/** Who fixes each reason, and the console page each links to. */
const ADMINISTRATOR = { role: 'ADMINISTRATOR', shop: null }
const NORTHWIND_PAGE = {
  label: "northwind apparel's store page",
  to: '/main/stores/northwind-apparel.myshopify.com?type=BRAND',
}
const MAYA_PAGE = {
  label: "maya makes's store page",
  to: '/main/stores/maya-makes.myshopify.com?type=CREATOR',
}
const CONFIGS_PAGE = { label: 'the Configs page', to: '/main/configs' }

const overshirtPaid = () => customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)

/**
 * The order needs attention for this one reason, as the orders inbox and the sidebar's count show
 * it, and nothing was made in Shopify or Stripe.
 */
async function needsAttention(orderId: string, sentence: unknown, remedy: unknown) {
  await expect
    .poll(() => readiness(orderId), { timeout: 10_000 })
    .toEqual({ state: 'NEEDS_ATTENTION', reasons: [{ sentence, remedy }] })
  const listed = await call('GET', '/admin-creator-orders?needsAttention=true')
  expect(listed.json().orders.map((order: { id: string }) => order.id)).toEqual([orderId])
  expect((await call('GET', '/admin-orders-needing-attention')).json()).toEqual({ count: 1 })
  expect(made()).toEqual({ brandOrders: [], transfers: [] })
}

/** The order completed by itself: Northwind's overshirt ordered once, Northwind paid once. */
async function completesWithOneOvershirt(orderId: string, destination = NORTHWIND_ACCOUNT) {
  await completes(orderId)
  expect(made()).toEqual({
    brandOrders: [{ shop: NORTHWIND, lines: [[OVERSHIRT, 1]] }],
    transfers: [{ destination, amount: OVERSHIRT_BRAND_AMOUNT }],
  })
  expect((await call('GET', '/admin-orders-needing-attention')).json()).toEqual({ count: 0 })
}

/** The Stripe account Northwind is paid to, as Tandem records it. */
const payNorthwindTo = (accountId: string) =>
  server.db
    .updateTable('store_payment_accounts')
    .set({ account_id: accountId })
    .where('store_shop', '=', NORTHWIND)
    .execute()

/** Maya's copy of the overshirt stands for this Northwind variant (Tandem's own record). */
const linkOvershirtCopyTo = (brandVariantId: string) =>
  linkVariants(
    server.db,
    [
      {
        creatorStoreShop: MAYA,
        creatorVariantId: copyOf('linen-overshirt'),
        brandStoreShop: NORTHWIND,
        brandVariantId,
      },
    ],
    new Date().toISOString(),
  )

/**
 * Northwind's merchant opens Tandem's brand app in its Shopify admin and approves it: the App URL,
 * Shopify's approval, and the callback with the code.
 */
async function northwindInstallsBrandApp() {
  const launched = await server.app.inject({
    url: `/shopify/brand?${server.shopify.signedAppLaunch(NORTHWIND)}`,
  })
  expect(launched.statusCode).toBe(302)
  const approved = await fetch(launched.headers.location as string, { redirect: 'manual' })
  const callback = new URL(approved.headers.get('location') ?? '')
  const done = await server.app.inject({ url: callback.pathname + callback.search })
  expect(done.statusCode).toBe(200)
}

describe('an automatic order stopped by its brand’s payout account', () => {
  it('names the account Stripe does not know, and completes once another is set, without a click', async () => {
    // The account Tandem has for Northwind is no longer connected to the platform.
    await payNorthwindTo('acct_gone')
    const orderId = await overshirtPaid()
    await needsAttention(
      orderId,
      'Payment provider connected account ID not found: Stripe has no account acct_gone connected to the platform for northwind apparel: set its payout account on its store page',
      {
        party: ADMINISTRATOR,
        fix: 'set its payout account on its store page',
        link: NORTHWIND_PAGE,
      },
    )

    // Set on the store page, the account puts the order back on the queue at once: no recheck.
    await setPayoutAccount(NORTHWIND, NORTHWIND_ACCOUNT)
    await completesWithOneOvershirt(orderId)
  })

  it('names the account without an email, and completes on the recheck once it has one', async () => {
    const account = server.stripe.addAccount({ email: null })
    await setPayoutAccount(NORTHWIND, account)
    const orderId = await overshirtPaid()
    await needsAttention(
      orderId,
      `Payment provider connected account email not found: northwind apparel's payout account ${account} has no email: add one to the account in Stripe`,
      // Only Northwind can add it, in Stripe; its store page shows the account.
      {
        party: { role: 'BRAND', shop: NORTHWIND },
        fix: 'add one to the account in Stripe',
        link: NORTHWIND_PAGE,
      },
    )

    // Stripe tells Tandem of no such change: the hourly recheck asks again.
    server.stripe.setEmail(account, 'payouts@northwind.example')
    await server.jobs.send(ATTENTION_RECHECK_JOB, {})
    await completesWithOneOvershirt(orderId, account)
  })
})

describe('an automatic order stopped by its brand’s store', () => {
  it('names the store Tandem is not connected to, and completes once the brand reinstalls the app, without a click', async () => {
    await server.shopify.uninstall(NORTHWIND)
    const orderId = await overshirtPaid()
    await needsAttention(
      orderId,
      "northwind apparel is not connected to Tandem (Shopify refused a token for northwind-apparel.myshopify.com: The application is not installed on this shop.): check its app config on the Configs page and reinstall Tandem's brand app in it",
      {
        party: ADMINISTRATOR,
        fix: "check its app config on the Configs page and reinstall Tandem's brand app in it",
        link: CONFIGS_PAGE,
      },
    )

    // The reinstall comes through Tandem's install: it puts the order back on the queue at once.
    await northwindInstallsBrandApp()
    await completesWithOneOvershirt(orderId)
  })

  it('names the brand the marketplace does not know, and completes once it joins, without a click', async () => {
    // Northwind never joined: no store, so no commission and no payout account (they are its
    // store's), though its app config is on the Configs page.
    await server.db.deleteFrom('stores').where('shop', '=', NORTHWIND).execute()
    const orderId = await overshirtPaid()
    await needsAttention(
      orderId,
      "Store not found: northwind apparel is not a brand store of the marketplace: install Tandem's brand app in it, with its app config on the Configs page",
      {
        party: ADMINISTRATOR,
        fix: "install Tandem's brand app in it, with its app config on the Configs page",
        link: CONFIGS_PAGE,
      },
    )

    // Installing the app makes it a brand store and puts the order back on the queue at once,
    // where it names the next fix, and so on until it completes.
    await northwindInstallsBrandApp()
    const stores = async () => (await call('GET', '/admin-all-stores')).json()
    await expect.poll(stores, { timeout: 3_000 }).toContainEqual({
      shop: NORTHWIND,
      shopType: 'BRAND',
    })
    await needsAttention(
      orderId,
      'Commission not found: northwind apparel has no default commission: set it on its store page',
      { party: ADMINISTRATOR, fix: 'set it on its store page', link: NORTHWIND_PAGE },
    )
    await setDefaultCommission(NORTHWIND)
    await needsAttention(
      orderId,
      'Payment provider connected account ID not found: northwind apparel has no payout account: set it on its store page',
      { party: ADMINISTRATOR, fix: 'set it on its store page', link: NORTHWIND_PAGE },
    )
    await setPayoutAccount(NORTHWIND, NORTHWIND_ACCOUNT)
    await completesWithOneOvershirt(orderId)
  })
})

describe('an automatic order stopped by its brand’s catalogue', () => {
  it('names the variant the brand no longer has, and completes on the recheck once the copy is linked to one it sells', async () => {
    await linkOvershirtCopyTo(variant(999_999))
    const orderId = await overshirtPaid()
    await needsAttention(
      orderId,
      expect.stringMatching(
        new RegExp(
          String.raw`^Line "Linen Overshirt" cannot be transferred to northwind apparel: its store no longer has the variant it was linked to: link the creator's product to one northwind apparel sells$`,
        ),
      ),
      // Linked again on Maya's store page, where her listings are.
      {
        party: ADMINISTRATOR,
        fix: "link the creator's product to one northwind apparel sells",
        link: MAYA_PAGE,
      },
    )

    // Nothing in Tandem's calls links a copy yet: the hourly recheck finds the new link.
    await linkOvershirtCopyTo(OVERSHIRT)
    await server.jobs.send(ATTENTION_RECHECK_JOB, {})
    await completesWithOneOvershirt(orderId)
  })
})

describe('an automatic order that carries no Stripe payment', () => {
  it('names the creator, not the brand, as the one to mend it, and links to its store page', async () => {
    // Paid outside Tandem's checkout: the order names no PaymentIntent.
    const gid = await server.shopify.createCustomerOrder(MAYA, {
      lines: [{ variantId: copyOf('linen-overshirt'), quantity: 1 }],
      metafields: [],
    })
    const orderId = gid.split('/').pop()!
    await needsAttention(
      orderId,
      expect.stringMatching(
        /^Payment intent id not found: creator order #\d+ of maya makes has no Stripe payment on record, so Tandem has nothing to pay its brands and creator from: maya makes, the creator, has the customer pay through Tandem's checkout, or refunds or cancels the order in its Shopify admin$/,
      ),
      {
        party: { role: 'CREATOR', shop: MAYA },
        fix: "have the customer pay through Tandem's checkout, or refund or cancel the order in the creator's Shopify admin",
        link: MAYA_PAGE,
      },
    )
  })
})
