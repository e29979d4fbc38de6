import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Stripe from 'stripe'
import { describe, expect, it, vi } from 'vitest'
import { clientOf, failureOf, stripeEmulatorPerTest } from './support/stripe-client'

// The Stripe emulator as Tandem's adapter sees it, through the real stripe-node client: the
// answers, errors and idempotency Stripe gives, and the failures a test can script.

const NORTHWIND = 'acct_sandbox_northwind_apparel'
const LUMEN = 'acct_sandbox_lumen_botanicals'
const CHARGE_1001 = 'ch_sandbox_order_1001'
const DAY_MS = 24 * 60 * 60 * 1000

const under = stripeEmulatorPerTest()

/** Order 1001's transfer to Northwind, as Tandem makes it; `params` override any field. */
const transfer = (params: Partial<Stripe.TransferCreateParams> = {}, idempotencyKey?: string) =>
  under.stripe.transfers.create(
    {
      amount: 4000,
      currency: 'usd',
      destination: NORTHWIND,
      transfer_group: 'tandem-order-1001',
      source_transaction: CHARGE_1001,
      metadata: { creatorOrderId: '1001', brandShop: 'northwind-apparel.myshopify.com' },
      ...params,
    } as Stripe.TransferCreateParams,
    idempotencyKey ? { idempotencyKey } : undefined,
  )

describe('the seeded sandbox', () => {
  it('holds every brand payout account, with email and transfers active', async () => {
    const account = await under.stripe.accounts.retrieve(NORTHWIND)
    expect(account).toMatchObject({
      id: NORTHWIND,
      object: 'account',
      email: 'payouts@northwind-apparel.example',
      capabilities: { transfers: 'active' },
    })
    expect((await under.stripe.accounts.retrieve('acct_sandbox_ironpeak_outdoor')).email).toBe(
      'payouts@ironpeak-outdoor.example',
    )
  })

  it("holds the Stripe-paid orders' PaymentIntents, succeeded, for the order totals", async () => {
    const intent = await under.stripe.paymentIntents.retrieve('pi_sandbox_order_1001')
    expect(intent).toMatchObject({
      id: 'pi_sandbox_order_1001',
      object: 'payment_intent',
      amount: 19754,
      amount_received: 19754,
      currency: 'usd',
      status: 'succeeded',
      latest_charge: CHARGE_1001,
      created: under.clock.getTime() / 1000,
    })
    const euro = await under.stripe.paymentIntents.retrieve('pi_sandbox_order_1005')
    expect(euro).toMatchObject({ currency: 'eur', latest_charge: 'ch_sandbox_order_1005' })
  })

  it('starts empty when told not to seed', async () => {
    await under.emulator.close()
    await under.start({ seed: false })
    expect((await failureOf(under.stripe.accounts.retrieve(NORTHWIND))).statusCode).toBe(403)
  })
})

describe('reading accounts and PaymentIntents', () => {
  it('answers 403 for an unknown account, as Stripe does for one it cannot see', async () => {
    const error = await failureOf(under.stripe.accounts.retrieve('acct_unknown'))
    expect(error).toBeInstanceOf(Stripe.errors.StripePermissionError)
    expect(error).toMatchObject({ statusCode: 403, code: 'account_invalid' })
    expect(error.message).toBe(
      "The provided key 'sk_test_**********dbox' does not have access to account 'acct_unknown' " +
        '(or that account does not exist). Application access may have been revoked.',
    )
  })

  it('answers 404 resource_missing for an unknown PaymentIntent', async () => {
    const error = await failureOf(under.stripe.paymentIntents.retrieve('pi_unknown'))
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'intent' })
    expect(error.message).toBe("No such payment_intent: 'pi_unknown'")
  })

  it('shows added accounts and PaymentIntents as Stripe would', async () => {
    const bare = under.emulator.addAccount({ email: null, transfersActive: false })
    expect(bare).toMatch(/^acct_/)
    expect(await under.stripe.accounts.retrieve(bare)).toMatchObject({
      email: null,
      capabilities: { transfers: 'inactive' },
    })
    const pending = under.emulator.addPaymentIntent({
      amount: 500,
      currency: 'USD',
      status: 'processing',
    })
    expect(await under.stripe.paymentIntents.retrieve(pending.id)).toMatchObject({
      status: 'processing',
      currency: 'usd',
      amount_received: 0,
      latest_charge: null,
    })
  })

  it('answers every call with a Request-Id and refuses unknown URLs', async () => {
    const response = await fetch(`${under.emulator.url}/v1/charges`, {
      headers: { Authorization: `Bearer ${under.emulator.secretKey}` },
    })
    expect(response.status).toBe(404)
    expect(response.headers.get('request-id')).toMatch(/^req_/)
    const body = (await response.json()) as { error: { type: string; message: string } }
    expect(body.error.type).toBe('invalid_request_error')
    expect(body.error.message).toMatch(/^Unrecognized request URL \(GET: \/v1\/charges\)/)
  })

  it('refuses a wrong secret key with 401, spending no scripted fault', async () => {
    under.emulator.script({ operation: 'accounts.retrieve', mode: 'fail' })
    const error = await failureOf(
      clientOf(under.emulator, 'sk_test_wrong_key_1234').accounts.retrieve(NORTHWIND),
    )
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
    expect(error.message).toBe('Invalid API Key provided: sk_test_**********1234')
    expect((await failureOf(under.stripe.accounts.retrieve(NORTHWIND))).statusCode).toBe(500)
  })
})

describe('transfers', () => {
  it('creates a transfer from a charge to a connected account', async () => {
    const made = await transfer()
    expect(made).toMatchObject({
      object: 'transfer',
      amount: 4000,
      amount_reversed: 0,
      currency: 'usd',
      destination: NORTHWIND,
      transfer_group: 'tandem-order-1001',
      source_transaction: CHARGE_1001,
      metadata: { creatorOrderId: '1001', brandShop: 'northwind-apparel.myshopify.com' },
      reversed: false,
      livemode: false,
      created: under.clock.getTime() / 1000,
      reversals: { object: 'list', data: [], has_more: false },
    })
    expect(made.id).toMatch(/^tr_/)
    expect(made.destination_payment).toMatch(/^py_/)
    expect(under.emulator.transfers()).toEqual([
      {
        id: made.id,
        amount: 4000,
        currency: 'usd',
        destination: NORTHWIND,
        transferGroup: 'tandem-order-1001',
        sourceTransaction: CHARGE_1001,
        metadata: { creatorOrderId: '1001', brandShop: 'northwind-apparel.myshopify.com' },
        description: null,
        created: under.clock.getTime() / 1000,
      },
    ])
  })

  it('lists by transfer_group and destination, newest first, page by page', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await transfer({ amount: 100 + i })).id)
    await transfer({ destination: LUMEN })
    await transfer({ transfer_group: 'tandem-order-1004' })
    const filter = { transfer_group: 'tandem-order-1001', destination: NORTHWIND }
    const newestFirst = [...ids].reverse()

    const first = await under.stripe.transfers.list({ ...filter, limit: 2 })
    expect(first).toMatchObject({ object: 'list', url: '/v1/transfers', has_more: true })
    expect(first.data.map((t) => t.id)).toEqual(newestFirst.slice(0, 2))
    const second = await under.stripe.transfers.list({
      ...filter,
      limit: 2,
      starting_after: ids[3],
    })
    expect(second.data.map((t) => t.id)).toEqual(newestFirst.slice(2, 4))
    const last = await under.stripe.transfers.list({ ...filter, limit: 2, starting_after: ids[1] })
    expect(last).toMatchObject({ has_more: false })
    expect(last.data.map((t) => t.id)).toEqual([ids[0]])
    const back = await under.stripe.transfers.list({ ...filter, limit: 2, ending_before: ids[1] })
    expect(back.data.map((t) => t.id)).toEqual(newestFirst.slice(1, 3))
    expect(back.has_more).toBe(true)
    expect((await under.stripe.transfers.list()).data).toHaveLength(7)
  })

  it('refuses a list limit outside 1..100', async () => {
    const error = await failureOf(under.stripe.transfers.list({ limit: 101 }))
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid_integer',
      param: 'limit',
    })
  })

  it.each([
    ['no amount', { amount: undefined }, 'parameter_missing', 'amount'],
    ['no currency', { currency: undefined }, 'parameter_missing', 'currency'],
    ['no destination', { destination: undefined }, 'parameter_missing', 'destination'],
    ['a zero amount', { amount: 0 }, 'parameter_invalid_integer', 'amount'],
    ['a fractional amount', { amount: 12.5 }, 'parameter_invalid_integer', 'amount'],
    ['an unknown destination', { destination: 'acct_x' }, 'resource_missing', 'destination'],
    ['an unknown charge', { source_transaction: 'ch_x' }, 'resource_missing', 'source_transaction'],
  ])('refuses %s with 400 %s', async (_, params, code, param) => {
    const error = await failureOf(transfer(params))
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(error).toMatchObject({ statusCode: 400, code, param })
    expect(under.emulator.transfers()).toEqual([])
  })

  it('refuses a destination whose transfers capability is not active', async () => {
    const inactive = under.emulator.addAccount({ transfersActive: false })
    const error = await failureOf(transfer({ destination: inactive }))
    expect(error).toMatchObject({ statusCode: 400, code: 'insufficient_capabilities_for_transfer' })
    expect(error.message).toBe(
      'Your destination account needs to have at least one of the following capabilities ' +
        'enabled: transfers, crypto_transfers, legacy_payments',
    )
  })

  it("refuses a currency other than the one the source charge settled in, in Stripe's words", async () => {
    const error = await failureOf(transfer({ currency: 'eur' }))
    expect(error).toMatchObject({
      statusCode: 400,
      param: 'source_transaction',
      message:
        "The currency of source_transaction's balance transaction (usd) must be the same as the transfer currency (eur)",
    })
    // Order 1005 was charged in EUR; the platform settled it in USD.
    const fromEuros = { source_transaction: 'ch_sandbox_order_1005', transfer_group: 'g' }
    expect(await failureOf(transfer({ ...fromEuros, currency: 'eur' }))).toMatchObject({
      message:
        "The currency of source_transaction's balance transaction (usd) must be the same as the transfer currency (eur)",
    })
    await transfer({ ...fromEuros, currency: 'usd', amount: 5045 })
    expect(under.emulator.transfers().map((made) => [made.amount, made.currency])).toEqual([
      [5045, 'usd'],
    ])
  })

  it("shows a charge's balance transaction: USD at the seeded rate for a EUR charge", async () => {
    const charge = await under.stripe.charges.retrieve('ch_sandbox_order_1005', {
      expand: ['balance_transaction'],
    })
    expect(charge).toMatchObject({
      amount: 8078,
      amount_captured: 8078,
      amount_refunded: 0,
      currency: 'eur',
      payment_intent: 'pi_sandbox_order_1005',
      // 80.78 EUR × 1.16 = 93.7048 USD.
      balance_transaction: { amount: 9370, currency: 'usd', exchange_rate: 1.16 },
    })
    const unexpanded = await under.stripe.charges.retrieve('ch_sandbox_order_1005')
    expect(unexpanded.balance_transaction).toMatch(/^txn_/)
    expect(await failureOf(under.stripe.charges.retrieve('ch_nothing'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    })
  })

  it('refuses a transfer beyond what the charge holds once refunded', async () => {
    under.emulator.refund(CHARGE_1001, 15000)
    const error = await failureOf(transfer({ amount: 4755 }))
    expect(error).toMatchObject({ statusCode: 400, code: 'balance_insufficient' })
    expect(error.message).toBe(
      'Transfers using this transaction as a source must not exceed the source amount of $47.54.',
    )
    await transfer({ amount: 2000 })
    const again = await failureOf(transfer({ amount: 2755 }))
    expect(again.message).toBe(
      'Transfers using this transaction as a source must not exceed the source amount of ' +
        '$47.54. (There is already a transfer using this source, amounting to $20.00.)',
    )
    await transfer({ amount: 2754 })
  })

  it('refuses transfers from one charge beyond what it brought in', async () => {
    await transfer({ amount: 15000 })
    const error = await failureOf(transfer({ amount: 4755, destination: LUMEN }))
    expect(error).toMatchObject({ statusCode: 400, code: 'balance_insufficient' })
    await transfer({ amount: 4754, destination: LUMEN })
    expect(under.emulator.transfers().map((t) => t.amount)).toEqual([15000, 4754])
  })
})

describe('refunds and payments of the sandbox', () => {
  it('refunds a charge by its PaymentIntent or its id, never past what it brought in', async () => {
    const first = await under.stripe.refunds.create({
      payment_intent: 'pi_sandbox_order_1001',
      amount: 13600,
    })
    expect(first).toMatchObject({
      object: 'refund',
      amount: 13600,
      charge: CHARGE_1001,
      currency: 'usd',
      payment_intent: 'pi_sandbox_order_1001',
      status: 'succeeded',
    })
    const tooMuch = await failureOf(
      under.stripe.refunds.create({ charge: CHARGE_1001, amount: 6155 }),
    )
    expect(tooMuch).toMatchObject({
      statusCode: 400,
      code: 'amount_too_large',
      message: 'Refund amount ($61.55) is greater than unrefunded amount on charge ($61.54)',
    })
    // Without an amount, the rest of the charge.
    expect((await under.stripe.refunds.create({ charge: CHARGE_1001 })).amount).toBe(6154)
    const charge = await under.stripe.charges.retrieve(CHARGE_1001)
    expect(charge).toMatchObject({ amount_refunded: 19754, refunded: true })
    const again = await failureOf(under.stripe.refunds.create({ charge: CHARGE_1001 }))
    expect(again).toMatchObject({ code: 'charge_already_refunded' })
  })

  it('takes a payment confirmed with a card, naming its order in its metadata', async () => {
    const paid = await under.stripe.paymentIntents.create({
      amount: 6800,
      currency: 'usd',
      confirm: true,
      payment_method: 'pm_card_visa',
      metadata: { creator_shop: 'maya-makes.myshopify.com', creator_order_id: '1006' },
    })
    expect(paid).toMatchObject({
      amount_received: 6800,
      status: 'succeeded',
      metadata: { creator_order_id: '1006' },
      latest_charge: expect.stringMatching(/^ch_/),
    })
    const unpaid = await under.stripe.paymentIntents.create({ amount: 6800, currency: 'usd' })
    expect(unpaid).toMatchObject({ status: 'requires_payment_method', latest_charge: null })
  })
})

describe("the platform's balance", () => {
  /** Stripe's answer to a transfer its platform's available balance cannot cover. */
  const insufficientFunds = {
    statusCode: 400,
    type: 'StripeInvalidRequestError',
    code: 'balance_insufficient',
    message:
      'Insufficient funds in Stripe account. In test mode, you can add funds to your available ' +
      'balance (bypassing your pending balance) by creating a charge with 4000 0000 0000 0077 as ' +
      'the card number. You can use the /v1/balance endpoint to view your Stripe balance (for ' +
      'more details, see stripe.com/docs/api#balance).',
  }

  it('pays a transfer without a source only out of what is available, pending funds not counted', async () => {
    await under.emulator.close()
    await under.start({ fundsPendingForSeconds: 2 * 24 * 60 * 60 })
    const { pending } = under.emulator.platformBalance()
    expect(await under.stripe.balance.retrieve()).toMatchObject({
      available: [{ amount: 0, currency: 'usd' }],
      pending: [{ amount: pending.usd, currency: 'usd' }],
    })
    const fromBalance = { source_transaction: undefined }
    expect(await failureOf(transfer(fromBalance, 'key'))).toMatchObject(insufficientFunds)
    // Kept under its key, as Stripe keeps a declined request's answer.
    expect(await failureOf(transfer(fromBalance, 'key'))).toMatchObject(insufficientFunds)
    expect(under.emulator.transfers()).toEqual([])

    // From the charge it is made, out of the charge's pending funds.
    await transfer()
    expect(under.emulator.platformBalance()).toEqual({
      available: {},
      pending: { usd: pending.usd! - 4000 },
    })

    // Two days on, the charges' funds are available, and pay it.
    under.clock = new Date(under.clock.getTime() + 2 * DAY_MS)
    const made = await transfer(fromBalance, 'another key')
    expect(made.source_transaction).toBeNull()
    expect(under.emulator.platformBalance()).toEqual({
      available: { usd: pending.usd! - 8000 },
      pending: {},
    })
  })

  it("holds the sandbox's charges available at once, less refunds and transfers, plus reversals", async () => {
    const before = under.emulator.platformBalance().available.usd!
    expect(before).toBeGreaterThan(0)
    const made = await transfer({ source_transaction: undefined })
    await under.stripe.transfers.createReversal(made.id, { amount: 1500 })
    under.emulator.refund(CHARGE_1001, 500)
    expect(under.emulator.platformBalance()).toEqual({
      available: { usd: before - 4000 + 1500 - 500 },
      pending: {},
    })
  })

  it('refuses what a payout of the platform left uncovered, until it is topped up', async () => {
    under.emulator.setPlatformBalance('USD', 3999)
    const fromBalance = { source_transaction: undefined }
    expect(await failureOf(transfer(fromBalance))).toMatchObject(insufficientFunds)
    under.emulator.setPlatformBalance('usd', 4000)
    await transfer(fromBalance)
    expect(under.emulator.platformBalance().available).toEqual({ usd: 0 })
  })
})

describe('idempotency keys', () => {
  it('replay the first answer and make nothing more', async () => {
    const first = await transfer({}, 'transfer:1001:northwind')
    const again = await transfer({}, 'transfer:1001:northwind')
    expect(again.id).toBe(first.id)
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true')
    expect(again.lastResponse.headers['original-request']).toBe(first.lastResponse.requestId)
    expect(under.emulator.transfers()).toHaveLength(1)
  })

  it('refuse reuse with other parameters', async () => {
    await transfer({}, 'transfer:1001:northwind')
    const error = await failureOf(transfer({ amount: 4001 }, 'transfer:1001:northwind'))
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError)
    expect(error.message).toContain("Try using a key other than 'transfer:1001:northwind'")
    const otherMetadata = transfer(
      { metadata: { creatorOrderId: '1002' } },
      'transfer:1001:northwind',
    )
    expect(await failureOf(otherMetadata)).toBeInstanceOf(Stripe.errors.StripeIdempotencyError)
    expect(under.emulator.transfers()).toHaveLength(1)
  })

  it('are forgotten 24 hours after their first use, on the emulator clock', async () => {
    const first = await transfer({}, 'key')
    under.clock = new Date(under.clock.getTime() + DAY_MS - 1000)
    expect((await transfer({}, 'key')).id).toBe(first.id)
    under.clock = new Date(under.clock.getTime() + 1000)
    const fresh = await transfer({}, 'key')
    expect(fresh.id).not.toBe(first.id)
    expect(fresh.lastResponse.headers['idempotent-replayed']).toBeUndefined()
    expect(under.emulator.transfers()).toHaveLength(2)
  })

  it('save nothing for a request refused by validation', async () => {
    await failureOf(transfer({ destination: 'acct_x' }, 'key'))
    const made = await transfer({}, 'key')
    expect(under.emulator.transfers().map((t) => t.id)).toEqual([made.id])
  })

  it('answer 409 to a request whose key is still in use by a running one', async () => {
    under.emulator.script({ operation: 'transfers.create', mode: 'delay', delayMs: 300 })
    const first = transfer({}, 'key')
    await vi.waitFor(() => expect(under.emulator.calls()).toHaveLength(1))
    const error = await failureOf(transfer({}, 'key'))
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError)
    expect(error).toMatchObject({ statusCode: 409, rawType: 'idempotency_error' })
    const made = await first
    expect((await transfer({}, 'key')).id).toBe(made.id)
    expect(under.emulator.transfers()).toHaveLength(1)
  })
})

describe('scripted faults', () => {
  it("'fail' refuses before the endpoint: the same key then succeeds", async () => {
    under.emulator.script({ operation: 'transfers.create', mode: 'fail' })
    const error = await failureOf(transfer({}, 'key'))
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError)
    expect(error.statusCode).toBe(500)
    expect(under.emulator.transfers()).toEqual([])
    const made = await transfer({}, 'key')
    expect(under.emulator.transfers().map((t) => t.id)).toEqual([made.id])
  })

  it("'fail' with 429 is a rate limit", async () => {
    under.emulator.script({
      operation: 'paymentIntents.retrieve',
      mode: 'fail',
      status: 429,
      times: 2,
    })
    for (let i = 0; i < 2; i++) {
      const error = await failureOf(under.stripe.paymentIntents.retrieve('pi_sandbox_order_1001'))
      expect(error).toBeInstanceOf(Stripe.errors.StripeRateLimitError)
      expect(error).toMatchObject({ rawType: 'invalid_request_error', code: 'rate_limit' })
    }
    expect((await under.stripe.paymentIntents.retrieve('pi_sandbox_order_1001')).amount).toBe(19754)
  })

  it("'fail_saved' is saved under the key: retries replay the 500", async () => {
    under.emulator.script({ operation: 'transfers.create', mode: 'fail_saved', message: 'Boom' })
    expect((await failureOf(transfer({}, 'key'))).statusCode).toBe(500)
    const replayed = await failureOf(transfer({}, 'key'))
    expect(replayed).toMatchObject({ statusCode: 500, message: 'Boom', rawType: 'api_error' })
    expect(replayed.headers?.['idempotent-replayed']).toBe('true')
    expect(under.emulator.transfers()).toEqual([])
    await transfer({}, 'another key')
    expect(under.emulator.transfers()).toHaveLength(1)
  })

  it("'drop_after_write' keeps the transfer but loses the answer; the same key answers it", async () => {
    // stripe-node retries a reset connection once, with the same key, even with retries off: the
    // caller sees the connection error only when that retry is dropped too.
    under.emulator.script({ operation: 'transfers.create', mode: 'drop_after_write', times: 2 })
    const error = await failureOf(transfer({}, 'key'))
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError)
    expect(under.emulator.transfers()).toHaveLength(1)
    expect(under.emulator.calls().map((call) => [call.idempotencyKey, call.status])).toEqual([
      ['key', null],
      ['key', null],
    ])
    const answered = await transfer({}, 'key')
    expect(answered.id).toBe(under.emulator.transfers()[0]!.id)
    expect(under.emulator.transfers()).toHaveLength(1)
  })

  it("'drop_after_write' once goes unnoticed: stripe-node's own retry gets the saved answer", async () => {
    under.emulator.script({ operation: 'transfers.create', mode: 'drop_after_write' })
    const made = await transfer({}, 'key')
    expect(made.lastResponse.headers['idempotent-replayed']).toBe('true')
    expect(under.emulator.transfers().map((t) => t.id)).toEqual([made.id])
    expect(under.emulator.calls().map((call) => call.status)).toEqual([null, 200])
  })

  it("'stale' lists transfers as they stood before the newest it matches were made", async () => {
    const lumen = await transfer({ destination: LUMEN, amount: 1000 }, 'lumen')
    const first = await transfer({}, 'first')
    const second = await transfer({}, 'second')
    const ids = async (params: Stripe.TransferListParams) =>
      (await under.stripe.transfers.list(params)).data.map((made) => made.id)
    under.emulator.script({
      operation: 'transfers.list',
      target: NORTHWIND,
      mode: 'stale',
      times: 2,
    })
    under.emulator.script({ operation: 'transfers.list', mode: 'stale', behind: 2 })
    expect(await ids({ destination: NORTHWIND })).toEqual([first.id])
    expect(await ids({ destination: LUMEN })).toEqual([])
    expect(await ids({ destination: NORTHWIND })).toEqual([first.id])
    expect(await ids({ destination: NORTHWIND })).toEqual([second.id, first.id])
    expect(await ids({ destination: LUMEN })).toEqual([lumen.id])
  })

  it('hit only the calls about their target, in the order scripted', async () => {
    under.emulator.script({
      operation: 'accounts.retrieve',
      target: LUMEN,
      mode: 'fail',
      status: 503,
    })
    under.emulator.script({ operation: 'accounts.retrieve', mode: 'fail', status: 502 })
    expect((await failureOf(under.stripe.accounts.retrieve(NORTHWIND))).statusCode).toBe(502)
    expect((await failureOf(under.stripe.accounts.retrieve(LUMEN))).statusCode).toBe(503)
    expect((await under.stripe.accounts.retrieve(LUMEN)).id).toBe(LUMEN)
    expect(under.emulator.calls().map((call) => [call.operation, call.path, call.status])).toEqual([
      ['accounts.retrieve', `/v1/accounts/${NORTHWIND}`, 502],
      ['accounts.retrieve', `/v1/accounts/${LUMEN}`, 503],
      ['accounts.retrieve', `/v1/accounts/${LUMEN}`, 200],
    ])
  })
})

describe('rate limits', () => {
  it("answer 429 over an endpoint's rate or the account's, in Stripe's words, until the second passes", async () => {
    await under.emulator.close()
    await under.start({ rateLimits: { perSecond: 3, perEndpointPerSecond: 2 } })
    await under.stripe.accounts.retrieve(NORTHWIND)
    await under.stripe.accounts.retrieve(LUMEN)
    const endpoint = await failureOf(under.stripe.accounts.retrieve(NORTHWIND))
    expect(endpoint).toBeInstanceOf(Stripe.errors.StripeRateLimitError)
    expect(endpoint).toMatchObject({
      statusCode: 429,
      rawType: 'invalid_request_error',
      code: 'rate_limit',
      doc_url: 'https://docs.stripe.com/error-codes/rate-limit',
      message: expect.stringMatching(/^Request rate limit exceeded\./),
    })
    expect(endpoint.headers?.['stripe-rate-limited-reason']).toBe('endpoint-rate')
    // Another endpoint has room of its own, but the account has one request left.
    await under.stripe.paymentIntents.retrieve('pi_sandbox_order_1001')
    const account = await failureOf(under.stripe.charges.retrieve(CHARGE_1001))
    expect(account.headers?.['stripe-rate-limited-reason']).toBe('global-rate')

    under.clock = new Date(under.clock.getTime() + 1000)
    expect((await under.stripe.accounts.retrieve(NORTHWIND)).id).toBe(NORTHWIND)
    expect(under.emulator.calls().map((call) => call.status)).toEqual([
      200, 200, 429, 200, 429, 200,
    ])
  })

  it('refuse a request before it did anything: no transfer, no key saved, no fault spent', async () => {
    await under.emulator.close()
    await under.start({ rateLimits: { perSecond: 1, perEndpointPerSecond: 1 } })
    await under.stripe.accounts.retrieve(NORTHWIND)
    under.emulator.script({ operation: 'transfers.create', mode: 'fail', status: 503 })
    const limited = await failureOf(transfer({ amount: 4000 }, 'key'))
    expect(limited.statusCode).toBe(429)
    expect(under.emulator.transfers()).toEqual([])

    under.clock = new Date(under.clock.getTime() + 1000)
    // The scripted fault is still there for the next request that reaches the endpoint.
    expect((await failureOf(transfer({ amount: 4000 }, 'key'))).statusCode).toBe(503)
    under.clock = new Date(under.clock.getTime() + 1000)
    // Other parameters under the same key: had the 429 been saved, this would be an idempotency_error.
    const made = await transfer({ amount: 3000 }, 'key')
    expect(under.emulator.transfers()).toEqual([
      expect.objectContaining({ id: made.id, amount: 3000 }),
    ])
  })
})

describe('the state file', () => {
  it('keeps accounts, transfers and idempotency keys across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-stripe-emulator-'))
    try {
      const stateFile = join(dir, 'stripe.json')
      await under.emulator.close()
      await under.start({ stateFile })
      const account = under.emulator.addAccount()
      const made = await transfer({ destination: account }, 'key')
      await under.emulator.close()

      await under.start({ stateFile })
      expect(under.emulator.transfers().map((t) => t.id)).toEqual([made.id])
      expect((await under.stripe.accounts.retrieve(account)).id).toBe(account)
      expect((await transfer({ destination: account }, 'key')).id).toBe(made.id)
      expect((await under.stripe.transfers.list({ destination: account })).data).toHaveLength(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
