import { afterEach, describe, expect, it } from 'vitest'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import { connectStripe } from '../../server/src/adapters/payments/stripe/stripe-payments'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// Edges of money owed out of a charge, found in review: transfers out of the charge made outside
// Tandem (in the order's group, or another), and a transfer key across the settlement change.
// Through the real adapters against the emulators, as tests/server/transfers-payment.test.ts does.

const NORTHWIND_ACCOUNT = 'acct_sandbox_northwind_apparel'
const MISMATCH = 'Payment intent does not match the creator order'

let server: ServerUnderTest
const { processOrder } = transferCalls(() => server)
let running = false

async function start() {
  server = await startServerUnderTest({ stripeApi: { wait: async () => {} } })
  running = true
}

afterEach(async () => {
  if (running) await server.close()
  running = false
})

const brandOrders = () =>
  [NORTHWIND, LUMEN, 'ironpeak-outdoor.myshopify.com'].flatMap((shop) =>
    server.shopify.orders(shop),
  )

/** What processing answered, the brand orders' financial status and how many transfers Stripe holds. */
const outcome = (response: { statusCode: number; json: () => unknown }) => ({
  status: response.statusCode,
  body: response.json(),
  brandOrders: brandOrders().map((order) => order.displayFinancialStatus),
  transfers: server.stripe.transfers().length,
})

/** A transfer out of `charge` as the platform's dashboard (or code before issue 27) made it. */
async function transferOut(charge: string, amountMinor: number, transferGroup: string) {
  const stripe = connectStripe({ secretKey: server.stripe.secretKey, endpoint: server.stripe.url })
  await stripe.createTransfer({
    amountMinor,
    currency: 'USD',
    destinationAccountId: NORTHWIND_ACCOUNT,
    sourceTransaction: charge,
    idempotencyKey: `by-hand-${transferGroup}`,
    transferGroup,
    description: 'Moved out of the charge elsewhere',
    metadata: {},
  })
}

describe('what the charge still holds', () => {
  it('refuses order 1005 before ordering when its charge was drained by hand in its group', async () => {
    await start()
    // ch_sandbox_order_1005: 80.78 EUR settled as 93.70 USD; 50.00 USD moved out leaves 43.70,
    // less than Northwind's 53.94 USD. A transfer out of an order's charge made outside Tandem
    // carries the order's group (docs/integrations.md "Stripe"), where Tandem reads it.
    await transferOut('ch_sandbox_order_1005', 5000, 'tandem-order-1005')
    const response = await processOrder('1005')
    // Else Stripe refuses the transfer ("must not exceed the source amount") after Northwind's
    // order was made and marked PAID: the brand would ship and not be paid.
    expect(outcome(response)).toEqual({
      status: 422,
      body: {
        error: 'business_rule',
        message:
          `${MISMATCH}: its charge ch_sandbox_order_1005 holds 43.70 USD after refunds and ` +
          'transfers, less than the 53.94 USD the brands are owed; nothing was ordered or paid ' +
          "(review the charge's refunds and transfers in Stripe)",
      },
      brandOrders: [],
      transfers: 1,
    })
  })

  it.each([
    // What the attack of issue 27 left behind: an attacker's order (#9999) paid from order 1005's
    // charge under its own group, before the metadata rule existed.
    ['an earlier attacker order’s group', 'tandem-order-9999'],
    // A transfer made by hand in the dashboard, with some other group.
    ['another group', 'manual-payouts-2026-11'],
  ])('never drains order 1005’s charge twice when it was drained in %s', async (_, group) => {
    await start()
    await transferOut('ch_sandbox_order_1005', 5000, group)
    const response = await processOrder('1005')
    // Tandem reads the order's group only (Stripe lists no transfers by charge, and reading them
    // all costs a page per 100 the platform made since): this one is not seen before ordering.
    // Stripe refuses the brand's transfer beyond what the charge holds; the order stops for a
    // person, its brand order made and marked PAID, its transfer not made.
    expect(outcome(response)).toEqual({
      status: 502,
      body: {
        error: 'upstream_failed',
        message:
          `Transfer create failed for northwind apparel: the payment provider answered ` +
          '"Transfers using this transaction as a source must not exceed the source amount of ' +
          '$93.70. (There is already a transfer using this source, amounting to $50.00.)"',
      },
      brandOrders: ['PAID'],
      transfers: 1,
    })
  })
})

describe('the transfer’s idempotency key', () => {
  it('pays order 1005 in USD after the server before 007 tried the transfer in EUR', async () => {
    await start()
    // What the server before 007 sent for order 1005 (its order's currency) under the key it
    // still uses: Stripe refuses the currency and keeps that answer under the key for 24 hours.
    const stripe = connectStripe({
      secretKey: server.stripe.secretKey,
      endpoint: server.stripe.url,
    })
    await expect(
      stripe.createTransfer({
        amountMinor: 4650,
        currency: 'EUR',
        destinationAccountId: NORTHWIND_ACCOUNT,
        sourceTransaction: 'ch_sandbox_order_1005',
        idempotencyKey: `transfer:1005:${NORTHWIND}`,
        transferGroup: 'tandem-order-1005',
        description: 'Tandem transfer of creator order #1005',
        metadata: { creator_order_id: '1005', brand_shop: NORTHWIND },
      }),
    ).rejects.toThrow(/must be the same as the transfer currency/)

    // Under the same key Stripe would answer "Keys for idempotent requests can only be used with
    // the same parameters they were first used with", after Northwind's order was made and paid.
    const response = await processOrder('1005')
    expect({
      status: response.statusCode,
      refusal: (response.json() as { message?: string }).message,
      transfers: server.stripe.transfers(),
    }).toEqual({
      status: 201,
      refusal: undefined,
      transfers: [expect.objectContaining({ amount: 5394, currency: 'usd' })],
    })
  })
})
