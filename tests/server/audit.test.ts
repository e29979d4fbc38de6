import { afterEach, describe, expect, it } from 'vitest'
import { NORTHWIND } from '../support/sandbox-figures'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// The audit log: every change an administrator makes, who made it and what changed, newest first
// (GET /admin-audit-log); never a secret.

const MAYA = 'maya-makes.myshopify.com'
const ADMIN = 'claim-admin@tandem.test'

let server: ServerUnderTest
afterEach(() => server.close())

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: server.asAdmin, payload })
const entries = async (query = '') => {
  const response = await call('GET', `/admin-audit-log${query}`)
  expect(response.statusCode).toBe(200)
  return response.json() as {
    entries: { at: string; actorEmail: string; action: string; target: string; details: object }[]
    nextCursor: string | null
  }
}

describe('the audit log', () => {
  it('records each change with who, when, what and the values before and after', async () => {
    server = await startServerUnderTest()
    expect(await entries()).toEqual({ entries: [], nextCursor: null })
    const accountId = server.stripe.addAccount({ email: 'finance@northwind.example' })
    // One after another, as an administrator makes them.
    const changes = [
      () =>
        call('POST', '/admin-set-default-commission-rate', {
          defaultCommission: {
            brandStoreShop: NORTHWIND,
            tandemCommissionRate: 10,
            creatorCommissionRate: 17.5,
          },
        }),
      () =>
        call('POST', '/admin-create-unique-commission-rate', {
          uniqueCommissionRate: {
            brandStoreShop: NORTHWIND,
            creatorStoreShop: MAYA,
            commissionRate: 30,
          },
        }),
      () =>
        call(
          'DELETE',
          `/admin-delete-unique-commission-rate?brandShop=${NORTHWIND}&creatorShop=${MAYA}`,
        ),
      () =>
        call('POST', '/create-app-config', {
          shop: 'new-brand.myshopify.com',
          clientId: 'client-id-1',
          clientSecret: 'shpss_very_secret',
          shopType: 'BRAND',
        }),
      () => call('DELETE', '/delete-app-config/new-brand.myshopify.com'),
      () => call('POST', '/admin-create-order-transfer', { creatorOrderId: '1004' }),
      () => call('POST', '/admin-update-products', { storeShop: NORTHWIND }),
      () => call('POST', '/admin-set-store-payment-account', { shop: NORTHWIND, accountId }),
    ]
    for (const change of changes) expect((await change()).statusCode).toBeLessThan(300)

    const { entries: logged } = await entries()
    expect(
      logged.map(({ action, target, details, actorEmail }) => ({
        action,
        target,
        details,
        actorEmail,
      })),
    ).toEqual([
      {
        action: 'payout-account.set',
        target: NORTHWIND,
        details: {
          before: { accountId: 'acct_sandbox_northwind_apparel' },
          after: { accountId },
        },
        actorEmail: ADMIN,
      },
      {
        action: 'products.sync',
        target: NORTHWIND,
        details: { productCount: 2 },
        actorEmail: ADMIN,
      },
      {
        action: 'transfer.process',
        target: '1004',
        details: { status: 'COMPLETED', brandOrders: 2 },
        actorEmail: ADMIN,
      },
      {
        action: 'app-config.delete',
        target: 'new-brand.myshopify.com',
        details: { shopType: 'BRAND', clientId: 'client-id-1' },
        actorEmail: ADMIN,
      },
      {
        action: 'app-config.create',
        target: 'new-brand.myshopify.com',
        details: { shopType: 'BRAND', clientId: 'client-id-1' },
        actorEmail: ADMIN,
      },
      {
        action: 'commission.unique.delete',
        target: `${NORTHWIND} × ${MAYA}`,
        details: { before: { commissionRate: 30 }, after: null },
        actorEmail: ADMIN,
      },
      {
        action: 'commission.unique.create',
        target: `${NORTHWIND} × ${MAYA}`,
        details: { before: null, after: { commissionRate: 30 } },
        actorEmail: ADMIN,
      },
      {
        action: 'commission.default.set',
        target: NORTHWIND,
        details: {
          before: { tandemCommissionRate: 10, creatorCommissionRate: 15 },
          after: { tandemCommissionRate: 10, creatorCommissionRate: 17.5 },
        },
        actorEmail: ADMIN,
      },
    ])
    // Never a secret, in any entry.
    expect(JSON.stringify(logged)).not.toContain('shpss_very_secret')
  })

  it('records nothing for a refused change', async () => {
    server = await startServerUnderTest()
    const refused = await call('POST', '/admin-set-default-commission-rate', {
      defaultCommission: {
        brandStoreShop: NORTHWIND,
        tandemCommissionRate: 90,
        creatorCommissionRate: 20,
      },
    })
    expect(refused.statusCode).toBe(400)
    expect(
      (await call('POST', '/admin-create-order-transfer', { creatorOrderId: '1002' })).statusCode,
    ).toBe(422)
    expect((await entries()).entries).toEqual([])
  })

  it('records a transfer that failed part-way, since some of its steps may have been taken', async () => {
    server = await startServerUnderTest({ stripeApi: { wait: async () => {} } })
    server.stripe.script({ operation: 'transfers.create', mode: 'fail', status: 503, times: 100 })
    const failed = await call('POST', '/admin-create-order-transfer', {
      creatorOrderId: 'gid://shopify/Order/1004',
    })
    expect(failed.statusCode).toBe(502)
    expect((await entries()).entries).toEqual([
      expect.objectContaining({
        action: 'transfer.process',
        target: '1004',
        details: { status: 'FAILED', message: failed.json().message },
        actorEmail: ADMIN,
      }),
    ])
  })

  it('pages newest first by cursor', async () => {
    server = await startServerUnderTest()
    for (const rate of [11, 12, 13]) {
      await call('POST', '/admin-set-default-commission-rate', {
        defaultCommission: {
          brandStoreShop: NORTHWIND,
          tandemCommissionRate: 10,
          creatorCommissionRate: rate,
        },
      })
    }
    const rateOf = (entry: { details: object }) =>
      (entry.details as { after: { creatorCommissionRate: number } }).after.creatorCommissionRate
    const first = await entries('?limit=2')
    expect(first.entries.map(rateOf)).toEqual([13, 12])
    const second = await entries(`?limit=2&cursor=${first.nextCursor}`)
    expect(second.entries.map(rateOf)).toEqual([11])
    expect(second.nextCursor).toBeNull()
  })
})
