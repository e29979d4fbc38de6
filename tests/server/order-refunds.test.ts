import { afterEach, describe, expect, it } from 'vitest'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import {
  creatorRefunds,
  FOR_JOBS,
  MAYA,
  MAYA_ACCOUNT,
  transferred1001,
} from './support/refunds-after-transfer'
import type { ServerUnderTest } from './support/server-under-test'

// After the sale (issue 33): a creator order refunded or cancelled after its transfer gives back,
// with no click, what the units no longer sold earned each party (support/refunds-after-transfer.ts
// has order 1001's figures).

let server: ServerUnderTest
afterEach(() => server.close())

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: server.asAdmin, payload })

const minor = (amount: string) => Math.round(Number(amount) * 100)

const troubledJobs = async () =>
  (
    (await call('GET', '/admin-troubled-jobs')).json() as {
      jobs: { kind: string; about: unknown; errorMessage: string }[]
    }
  ).jobs

/** Every reversal Stripe made, as its dashboard lists them: from whom, how much, for what. */
const reversals = () =>
  server.stripe
    .reversals()
    .map(({ destination, amount, currency, metadata }) => ({
      destination,
      amount,
      currency,
      metadata,
    }))
    .sort((a, b) => a.destination.localeCompare(b.destination))

const reversal = (destination: string, amount: number, storeShop: string, seq = 0) => ({
  destination,
  amount,
  currency: 'usd',
  metadata: {
    creator_order_id: '1001',
    store_shop: storeShop,
    reversal_key: `reversal:1001:${storeShop}:${seq}`,
  },
})

/** The brand's order of 1001, as the brand's Shopify admin shows it. */
const brandOrder = (shop: string) => {
  const order = server.shopify.orders(shop).find((candidate) => candidate.tags.includes('tandem'))
  if (!order) throw new Error(`${shop} has no order from Tandem`)
  return order
}

const activity = async (action: string) =>
  (
    (await call('GET', '/admin-audit-log')).json() as {
      entries: { action: string; details: Record<string, unknown> }[]
    }
  ).entries
    .filter((entry) => entry.action === action)
    .map((entry) => entry.details)

describe('a refund after the transfer', () => {
  it("takes back one overshirt's share from Northwind and Maya, once, and refunds it in Northwind's order", async () => {
    server = await transferred1001()
    await creatorRefunds(server, 0, 1, 'RETURN')

    // Half of Northwind's 136.00 base is no longer sold: 51.00 of its 102.00, 10.20 of Maya's
    // 20.40; Tandem's 6.80 goes back with the customer's refund. Lumen keeps all of its.
    await expect
      .poll(reversals, FOR_JOBS)
      .toEqual([reversal(MAYA_ACCOUNT, 1020, MAYA), reversal(NORTHWIND_ACCOUNT, 5100, NORTHWIND)])
    const northwindOrder = brandOrder(NORTHWIND)
    await expect
      .poll(() => server.shopify.refunds(NORTHWIND, northwindOrder.id), FOR_JOBS)
      .toEqual([
        expect.objectContaining({
          amount: '0.00',
          lines: [expect.objectContaining({ line: 0, quantity: 1, restockType: 'CANCEL' })],
        }),
      ])
    expect(server.shopify.refunds(LUMEN, brandOrder(LUMEN).id)).toEqual([])
    expect(server.stripe.reversals().map((made) => made.destination)).not.toContain(LUMEN_ACCOUNT)
    expect(await activity('transfer.reversal')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ party: 'BRAND', storeShop: NORTHWIND, amount: '51.00 USD' }),
        expect.objectContaining({ party: 'CREATOR', storeShop: MAYA, amount: '10.20 USD' }),
      ]),
    )

    // The other overshirt refunded after.
    await creatorRefunds(server, 0, 1, 'NO_RESTOCK')
    await expect
      .poll(reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, MAYA),
        reversal(MAYA_ACCOUNT, 1020, MAYA, 1),
        reversal(NORTHWIND_ACCOUNT, 5100, NORTHWIND),
        reversal(NORTHWIND_ACCOUNT, 5100, NORTHWIND, 1),
      ])
    // Northwind's order sells nothing any more: it is cancelled.
    await expect.poll(() => brandOrder(NORTHWIND).cancelledAt, FOR_JOBS).not.toBeNull()
  })
})

describe('a refund Tandem is told of', () => {
  it("moves no money until Stripe shows the customer refunded: the creator's store alone is not believed", async () => {
    server = await transferred1001()
    const refund = await creatorRefunds(server, 0, 1, 'RETURN', { stripeToo: false })
    await expect.poll(troubledJobs, FOR_JOBS).toEqual([
      expect.objectContaining({
        kind: 'order-refund',
        about: { order: '#1001', shop: MAYA },
        errorMessage:
          'Stripe shows 0.00 USD refunded of charge ch_sandbox_order_1001, less than the 68.00 USD the refunded units of creator order 1001 cost: nothing goes back until the customer is refunded',
      }),
    ])
    expect(server.stripe.reversals()).toEqual([])
    expect(server.shopify.refunds(NORTHWIND, brandOrder(NORTHWIND).id)).toEqual([])

    // The payment app refunds the customer: the next run gives back.
    server.stripe.refund('ch_sandbox_order_1001', minor(refund.amount))
    await expect
      .poll(reversals, FOR_JOBS)
      .toEqual([reversal(MAYA_ACCOUNT, 1020, MAYA), reversal(NORTHWIND_ACCOUNT, 5100, NORTHWIND)])
  })
})
