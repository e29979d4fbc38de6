import { afterEach, describe, expect, it } from 'vitest'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import { ORDERS, orderTotalMinor } from '../../server/src/seed/sandbox-data'
import { CREATOR_PAYOUT_JOB } from '../../server/src/transfers/creator-payout'
import { jobsEnded, jobTableOf } from './support/job-states'
import {
  startServerUnderTest,
  usesPostgres,
  type ServerUnderTest,
} from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// Creators' commissions (docs/integrations.md "After the sale"): once an order's brands are paid,
// its creator is paid its commission out of the same charge, by a job; a creator without a payout
// account is owed it until one is set. Order 1001 of maya-makes pays Northwind 20.40 and Lumen
// 6.90 of creator commission: 27.30 USD in all.

const MAYA = 'maya-makes.myshopify.com'
const MAYA_ACCOUNT = 'acct_maya_makes'
const ORDER_1001_COMMISSION = 2730
const FOR_JOBS = { timeout: 20_000, interval: 100 }

let server: ServerUnderTest
const { processOrder } = transferCalls(() => server)
afterEach(() => server.close())

const start = async () => {
  server = await startServerUnderTest({ stripeApi: { wait: async () => {} } })
}

const payouts = async (shop: string) =>
  (
    await server.app.inject({
      url: `/admin-store-payment-account?shop=${encodeURIComponent(shop)}`,
      headers: server.asAdmin,
    })
  ).json() as Record<string, unknown>

const setAccount = (shop: string, accountId: string) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-set-store-payment-account',
    headers: server.asAdmin,
    payload: { shop, accountId },
  })

/** The transfers Stripe made to the creator, as a person reading Stripe's dashboard sees them. */
const creatorTransfers = () =>
  server.stripe
    .transfers()
    .filter((transfer) => transfer.destination === MAYA_ACCOUNT)
    .map(({ amount, currency, transferGroup, sourceTransaction, metadata }) => ({
      amount,
      currency,
      transferGroup,
      sourceTransaction,
      metadata,
    }))

/** Maya's payout account, known to Stripe and set on her store page. */
async function withMayaAccount() {
  server.stripe.addAccount({ id: MAYA_ACCOUNT })
  expect((await setAccount(MAYA, MAYA_ACCOUNT)).statusCode).toBe(200)
}

/** Every transfer to Maya is made by Stripe, and its answer lost, until unscripted. */
const mayaAnswersLost = () =>
  server.stripe.script({
    operation: 'transfers.create',
    mode: 'drop_after_write',
    target: MAYA_ACCOUNT,
    times: 1000,
  })

const PAID_TO_MAYA = {
  amount: ORDER_1001_COMMISSION,
  currency: 'usd',
  transferGroup: 'tandem-order-1001',
  sourceTransaction: 'ch_sandbox_order_1001',
  metadata: { creator_order_id: '1001', creator_shop: MAYA },
}

describe("a creator's commission", () => {
  it('is owed while the creator has no payout account, and paid, once, when one is set', async () => {
    await start()
    expect((await processOrder('1001')).statusCode).toBe(201)
    // The brands are paid; the creator waits, saying why.
    await expect
      .poll(async () => (await payouts(MAYA)).commissionWaitingReason, FOR_JOBS)
      .toBe(
        "No payout account: set maya makes's Stripe account on its store page to pay its commission",
      )
    expect(await payouts(MAYA)).toEqual({
      shop: MAYA,
      accountId: null,
      email: null,
      transfersActive: null,
      commissionOwed: [{ currency: 'USD', amount: '27.30', orders: 1 }],
      commissionWaitingReason: expect.any(String),
    })
    expect(
      server.stripe
        .transfers()
        .map((transfer) => transfer.destination)
        .sort(),
    ).toEqual(['acct_sandbox_lumen_botanicals', 'acct_sandbox_northwind_apparel'])

    server.stripe.addAccount({ id: MAYA_ACCOUNT, email: 'payouts@maya.example' })
    const set = await setAccount(MAYA, MAYA_ACCOUNT)
    expect(set.statusCode).toBe(200)
    await expect.poll(creatorTransfers, FOR_JOBS).toEqual([PAID_TO_MAYA])
    await expect.poll(async () => (await payouts(MAYA)).commissionOwed, FOR_JOBS).toEqual([])
    // Activity says what moved, to whom, with Stripe's id.
    const activity = await server.app.inject({ url: '/admin-audit-log', headers: server.asAdmin })
    const paid = server.stripe.transfers().find((transfer) => transfer.destination === MAYA_ACCOUNT)
    expect(
      (activity.json() as { entries: { action: string }[] }).entries.filter(
        (entry) => entry.action === 'transfer.creator-commission',
      ),
    ).toEqual([
      expect.objectContaining({
        actorEmail: null,
        target: '1001',
        details: { creatorShop: MAYA, amount: '27.30 USD', transferId: paid!.id },
      }),
    ])
    expect(await payouts(MAYA)).toMatchObject({
      accountId: MAYA_ACCOUNT,
      email: 'payouts@maya.example',
      transfersActive: true,
      commissionWaitingReason: null,
    })

    // Setting the account again pays nothing more: once every payout job it could have sent (in
    // its transaction, before answering) has ended.
    expect((await setAccount(MAYA, MAYA_ACCOUNT)).statusCode).toBe(200)
    const jobTable = await jobTableOf(server.db, usesPostgres(), true)
    await jobsEnded(server.db, jobTable, [CREATOR_PAYOUT_JOB], FOR_JOBS)
    expect(creatorTransfers()).toEqual([PAID_TO_MAYA])
  })

  it('is paid right after the brands when the creator has an account; brands owe none', async () => {
    await start()
    await withMayaAccount()
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expect.poll(creatorTransfers, FOR_JOBS).toEqual([PAID_TO_MAYA])
    // What the charge paid: each brand its amount, the creator its commission; Tandem keeps the rest.
    const paid = server.stripe
      .transfers()
      .map((transfer) => [transfer.destination, transfer.amount])
      .sort()
    expect(paid).toEqual([
      ['acct_maya_makes', 2730],
      ['acct_sandbox_lumen_botanicals', 2484],
      ['acct_sandbox_northwind_apparel', 10200],
    ])
    for (const brand of [NORTHWIND, LUMEN]) {
      expect((await payouts(brand)).commissionOwed).toEqual([])
    }
  })

  it('waits, saying why, on an account Stripe cannot pay, and is paid by the recheck once it can', async () => {
    await start()
    server.stripe.addAccount({ id: MAYA_ACCOUNT, transfersActive: false })
    expect((await setAccount(MAYA, MAYA_ACCOUNT)).statusCode).toBe(200)
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expect
      .poll(async () => (await payouts(MAYA)).commissionWaitingReason, FOR_JOBS)
      .toBe(`Stripe account ${MAYA_ACCOUNT} cannot receive transfers yet`)
    expect(creatorTransfers()).toEqual([])

    server.stripe.setTransfersActive(MAYA_ACCOUNT, true)
    await server.jobs.send('attention-recheck', {})
    await expect.poll(creatorTransfers, FOR_JOBS).toEqual([PAID_TO_MAYA])
  })

  it('is paid once when Stripe made the transfer but its answer was lost: found, not made again', async () => {
    await start()
    await withMayaAccount()
    mayaAnswersLost()
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expect.poll(() => creatorTransfers().length, FOR_JOBS).toBe(1)
    server.stripe.unscript()
    await expect.poll(async () => (await payouts(MAYA)).commissionOwed, FOR_JOBS).toEqual([])
    expect(creatorTransfers()).toEqual([PAID_TO_MAYA])
  })

  it('keeps to the account an unanswered transfer went to when the account is changed meanwhile: paid there once, never to the new one', async () => {
    await start()
    await withMayaAccount()
    // Stripe makes the transfer and the answer is lost; its list does not show it yet.
    mayaAnswersLost()
    server.stripe.script({ operation: 'transfers.list', mode: 'stale', times: 1000 })
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expect
      .poll(async () => (await payouts(MAYA)).commissionWaitingReason, FOR_JOBS)
      .toMatch(/^Stripe did not complete the commission transfer of 27\.30 USD/)

    const creates = () =>
      server.stripe.calls().filter((call) => call.operation === 'transfers.create').length
    const before = creates()
    const other = server.stripe.addAccount({ id: 'acct_maya_other' })
    expect((await setAccount(MAYA, other)).statusCode).toBe(200)
    // A run after the change, while Stripe still hides the transfer.
    await expect.poll(creates, FOR_JOBS).toBeGreaterThan(before)

    server.stripe.unscript()
    await expect.poll(async () => (await payouts(MAYA)).commissionOwed, FOR_JOBS).toEqual([])
    expect(creatorTransfers()).toEqual([PAID_TO_MAYA])
    expect(server.stripe.transfers().filter((transfer) => transfer.destination === other)).toEqual(
      [],
    )
  })

  it('waits, saying so, when the charge was refunded since and no longer holds the commission', async () => {
    await start()
    expect((await processOrder('1001')).statusCode).toBe(201)
    // Before Maya has an account, the customer is refunded all but 27.29 of what the charge
    // holds after the brands' 102.00 and 24.84.
    const charged = orderTotalMinor(ORDERS.find((order) => order.id === 1001)!)
    server.stripe.refund('ch_sandbox_order_1001', charged - 10200 - 2484 - 2729)
    server.stripe.addAccount({ id: MAYA_ACCOUNT })
    expect((await setAccount(MAYA, MAYA_ACCOUNT)).statusCode).toBe(200)
    await expect
      .poll(async () => (await payouts(MAYA)).commissionWaitingReason, FOR_JOBS)
      .toBe(
        'Charge ch_sandbox_order_1001 holds 27.29 USD after refunds and transfers, less than the commission of 27.30 USD: review its refunds in Stripe',
      )
    expect(creatorTransfers()).toEqual([])
  })

  it('is paid when the brands keep nothing of the order: its payment is held for the creator all the same', async () => {
    await start()
    // Tandem 20 % and the creator 80 %: every brand's amount is nothing.
    await server.db
      .updateTable('default_commissions')
      .set({ tandem_rate_hundredths: 2000, creator_rate_hundredths: 8000 })
      .execute()
    await server.db.deleteFrom('unique_commission_rates').execute()
    expect((await processOrder('1001')).statusCode).toBe(201)
    const frozen = await server.db
      .selectFrom('order_transfer_brands')
      .select(['base_minor', 'brand_amount_minor', 'creator_commission_minor'])
      .where('creator_order_id', '=', '1001')
      .execute()
    expect(frozen.map((brand) => brand.brand_amount_minor)).toEqual([0, 0])
    const commission = frozen.reduce((sum, brand) => sum + brand.creator_commission_minor, 0)
    expect(commission).toBe(frozen.reduce((sum, brand) => sum + brand.base_minor, 0) * 0.8)

    await withMayaAccount()
    await expect.poll(creatorTransfers, FOR_JOBS).toEqual([{ ...PAID_TO_MAYA, amount: commission }])
    expect(server.stripe.transfers()).toHaveLength(1)
  })

  it('refuses an order whose brands keep nothing and that names no payment: the creator could never be paid', async () => {
    await start()
    await server.db
      .updateTable('default_commissions')
      .set({ tandem_rate_hundredths: 2000, creator_rate_hundredths: 8000 })
      .execute()
    const id = await server.shopify.createPaidOrder(MAYA, {
      lines: [{ variantId: 'gid://shopify/ProductVariant/401', quantity: 1 }],
      metafields: [],
    })
    const refused = await processOrder(id.split('/').pop()!)
    expect(refused.statusCode).toBe(422)
    expect(refused.json().message).toMatch(
      /^Payment intent id not found: creator order #\d+ of maya makes has no Stripe payment on record/,
    )
    expect(server.stripe.transfers()).toEqual([])
  })

  it('goes to the account set since once Stripe declined it at the old one, under the next key', async () => {
    await start()
    await withMayaAccount()
    // Declined, and saved under its key by Stripe: replayed to that key for a day.
    server.stripe.script({
      operation: 'transfers.create',
      mode: 'fail_saved',
      status: 400,
      target: MAYA_ACCOUNT,
    })
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expect
      .poll(async () => (await payouts(MAYA)).commissionWaitingReason, FOR_JOBS)
      .toMatch(/^Stripe declined the commission transfer of 27\.30 USD/)
    const other = server.stripe.addAccount({ id: 'acct_maya_other' })
    expect((await setAccount(MAYA, other)).statusCode).toBe(200)
    await expect.poll(async () => (await payouts(MAYA)).commissionOwed, FOR_JOBS).toEqual([])
    expect(server.stripe.transfers().filter((transfer) => transfer.destination === other)).toEqual([
      expect.objectContaining({ amount: ORDER_1001_COMMISSION }),
    ])
    expect(creatorTransfers()).toEqual([])
    const keys = server.stripe
      .calls()
      .filter((call) => call.idempotencyKey?.startsWith('creator-commission:'))
      .map((call) => call.idempotencyKey)
    expect(new Set(keys)).toEqual(
      new Set(['creator-commission:1001:usd', 'creator-commission:1001:usd:1']),
    )
  })
})
