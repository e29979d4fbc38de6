import { afterEach, describe, expect, it } from 'vitest'
import { NORTHWIND } from '../support/sandbox-figures'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// The Payouts card's calls: which Stripe connected account a store is paid to (a creator's
// commissions: creator-payouts.test.ts), as the server reads it from Stripe (the Stripe emulator, through the real adapter), and setting it.

const NORTHWIND_ACCOUNT = 'acct_sandbox_northwind_apparel'
const MAYA = 'maya-makes.myshopify.com'

let server: ServerUnderTest
afterEach(() => server.close())

const start = async () => {
  server = await startServerUnderTest({ stripeApi: { wait: async () => {} } })
}

const account = (shop: string, headers: Record<string, string> = server.asAdmin) =>
  server.app.inject({
    url: `/admin-store-payment-account?shop=${encodeURIComponent(shop)}`,
    headers,
  })

const setAccount = (payload: unknown) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-set-store-payment-account',
    headers: server.asAdmin,
    payload: payload as Record<string, unknown>,
  })

const stored = async (shop: string) =>
  (
    await server.db
      .selectFrom('store_payment_accounts')
      .select('account_id')
      .where('store_shop', '=', shop)
      .executeTakeFirst()
  )?.account_id

describe('GET /admin-store-payment-account', () => {
  it('answers the brand’s account with its email and whether transfers are active', async () => {
    await start()
    const response = await account(NORTHWIND)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      shop: NORTHWIND,
      accountId: NORTHWIND_ACCOUNT,
      email: 'payouts@northwind-apparel.example',
      transfersActive: true,
      commissionOwed: [],
      commissionWaitingReason: null,
    })
  })

  it('answers nulls for a brand without an account, and for an account Stripe does not know', async () => {
    await start()
    await server.db
      .deleteFrom('store_payment_accounts')
      .where('store_shop', '=', NORTHWIND)
      .execute()
    expect((await account(NORTHWIND)).json()).toEqual({
      shop: NORTHWIND,
      accountId: null,
      email: null,
      transfersActive: null,
      commissionOwed: [],
      commissionWaitingReason: null,
    })
    await server.db
      .insertInto('store_payment_accounts')
      .values({ store_shop: NORTHWIND, account_id: 'acct_closed', updated_at: '2026-11-01' })
      .execute()
    expect((await account(NORTHWIND)).json()).toEqual({
      shop: NORTHWIND,
      accountId: 'acct_closed',
      email: null,
      transfersActive: null,
      commissionOwed: [],
      commissionWaitingReason: null,
    })
  })

  it('refuses an unknown store, a malformed shop and a caller without a token', async () => {
    await start()
    const cases = [
      ['nobody.myshopify.com', server.asAdmin, 404, 'Store not found'],
      ['not a shop', server.asAdmin, 400, 'shop must look like name.myshopify.com'],
      [NORTHWIND, {}, 401, expect.any(String)],
    ] as const
    for (const [shop, headers, status, message] of cases) {
      const response = await account(shop, headers)
      expect({ status: response.statusCode, message: response.json().message }).toEqual({
        status,
        message,
      })
    }
  })

  it('answers 502 naming the account when Stripe fails, after retrying', async () => {
    await start()
    server.stripe.script({ operation: 'accounts.retrieve', mode: 'fail', status: 503, times: 10 })
    const response = await account(NORTHWIND)
    expect(response.statusCode).toBe(502)
    expect(response.json().message).toBe(
      `Payout account ${NORTHWIND_ACCOUNT} lookup failed: the payment provider answered "An unknown error occurred"`,
    )
  })
})

describe('POST /admin-set-store-payment-account', () => {
  it('sets an account Stripe knows, and the card reads it back', async () => {
    await start()
    const newAccount = server.stripe.addAccount({
      email: 'finance@northwind.example',
      transfersActive: false,
    })
    const response = await setAccount({
      shop: ` ${NORTHWIND.toUpperCase()} `,
      accountId: newAccount,
    })
    expect(response.statusCode).toBe(200)
    const expected = {
      shop: NORTHWIND,
      accountId: newAccount,
      email: 'finance@northwind.example',
      transfersActive: false,
      commissionOwed: [],
      commissionWaitingReason: null,
    }
    expect(response.json()).toEqual(expected)
    expect((await account(NORTHWIND)).json()).toEqual(expected)
  })

  it('refuses an account Stripe does not know, keeping the one set', async () => {
    await start()
    const response = await setAccount({ shop: NORTHWIND, accountId: 'acct_unknown123' })
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({
      error: 'business_rule',
      message:
        'Payment provider connected account ID not found: Stripe has no account acct_unknown123 connected to the platform',
    })
    expect(await stored(NORTHWIND)).toBe(NORTHWIND_ACCOUNT)
  })

  it('refuses malformed input naming the field', async () => {
    await start()
    const cases = [
      [{ shop: NORTHWIND, accountId: 'ba_123' }, 400, 'accountId must look like acct_…'],
      [{ shop: NORTHWIND, accountId: '' }, 400, 'accountId is required'],
      [{ shop: NORTHWIND }, 400, expect.stringContaining('accountId')],
      [{ shop: MAYA, accountId: 'acct_' }, 400, 'accountId must look like acct_…'],
    ] as const
    for (const [payload, status, message] of cases) {
      const response = await setAccount(payload)
      expect({ status: response.statusCode, message: response.json().message }).toEqual({
        status,
        message,
      })
    }
    expect(await stored(NORTHWIND)).toBe(NORTHWIND_ACCOUNT)
    expect(await stored(MAYA)).toBeUndefined()
  })
})
