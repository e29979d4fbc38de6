import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { failureOf, stripeEmulatorPerTest } from './support/stripe-client'

// Transfer reversals and connected accounts' balances in the Stripe emulator, through stripe-node:
// what Tandem meets when it takes a brand's share of a refunded order back.

const NORTHWIND = 'acct_sandbox_northwind_apparel'
const CHARGE_1001 = 'ch_sandbox_order_1001'

const under = stripeEmulatorPerTest()

/** $40.00 of order 1001's charge to Northwind, as Tandem transfers a brand's amount. */
const transferToNorthwind = () =>
  under.stripe.transfers.create({
    amount: 4000,
    currency: 'usd',
    destination: NORTHWIND,
    transfer_group: 'tandem-order-1001',
    source_transaction: CHARGE_1001,
  })

const reverse = (
  transferId: string,
  params: Stripe.TransferCreateReversalParams = {},
  idempotencyKey?: string,
) =>
  under.stripe.transfers.createReversal(
    transferId,
    params,
    idempotencyKey ? { idempotencyKey } : undefined,
  )

describe("connected accounts' balances", () => {
  it('gain what transfers bring, and can be set as after a payout', async () => {
    expect(under.emulator.balance(NORTHWIND)).toEqual({})
    await transferToNorthwind()
    await transferToNorthwind()
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 8000 })
    under.emulator.setBalance(NORTHWIND, 'USD', 1200)
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 1200 })
  })
})

describe('a transfer from a charge whose funds are pending', () => {
  const TWO_DAYS_S = 2 * 24 * 60 * 60

  it('lands pending on the account, its reversal refused until the charge is available', async () => {
    await under.emulator.close()
    await under.start({ fundsPendingForSeconds: TWO_DAYS_S })
    const availableOn = under.clock.getTime() / 1000 + TWO_DAYS_S
    const charge = await under.stripe.charges.retrieve(CHARGE_1001, {
      expand: ['balance_transaction'],
    })
    expect(charge.balance_transaction).toMatchObject({
      status: 'pending',
      available_on: availableOn,
    })

    // Stripe makes the transfer at once; its funds wait for the charge's (Transfers.d.ts).
    const made = await transferToNorthwind()
    const asNorthwind = { stripeAccount: NORTHWIND }
    expect(await under.stripe.balance.retrieve({}, asNorthwind)).toMatchObject({
      object: 'balance',
      available: [{ amount: 0, currency: 'usd' }],
      pending: [{ amount: 4000, currency: 'usd' }],
    })
    const refused = await failureOf(reverse(made.id, { amount: 1000 }))
    expect(refused).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      code: 'balance_insufficient',
    })
    expect(under.emulator.reversals()).toEqual([])

    // A second before, still pending; at available_on, available.
    under.clock = new Date((availableOn - 1) * 1000)
    expect(under.emulator.pendingBalance(NORTHWIND)).toEqual({ usd: 4000 })
    under.clock = new Date(availableOn * 1000)
    expect(await under.stripe.balance.retrieve({}, asNorthwind)).toMatchObject({
      available: [{ amount: 4000, currency: 'usd' }],
      pending: [{ amount: 0, currency: 'usd' }],
    })
    expect((await reverse(made.id, { amount: 1000 })).amount).toBe(1000)
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 3000 })
  })

  it('becomes available when a test makes the charge available, as Stripe answers', async () => {
    await under.emulator.close()
    await under.start({ fundsPendingForSeconds: TWO_DAYS_S })
    const made = await transferToNorthwind()
    under.emulator.makeFundsAvailable(CHARGE_1001)
    expect(under.emulator.pendingBalance(NORTHWIND)).toEqual({})
    expect(
      (await under.stripe.charges.retrieve(CHARGE_1001, { expand: ['balance_transaction'] }))
        .balance_transaction,
    ).toMatchObject({ status: 'available' })
    expect((await reverse(made.id)).amount).toBe(4000)
  })

  it('answers 403 for the balance of an account the platform cannot see', async () => {
    const refused = await failureOf(
      under.stripe.balance.retrieve({}, { stripeAccount: 'acct_unknown' }),
    )
    expect(refused).toMatchObject({ statusCode: 403, code: 'account_invalid' })
  })
})

describe('transfer reversals', () => {
  it('take a transfer back in parts until it is whole, then refuse more', async () => {
    const made = await transferToNorthwind()

    const first = await reverse(made.id, {
      amount: 1500,
      description: 'Refund of order 1001, line 1',
      metadata: { creatorOrderId: '1001', refundId: '77' },
    })
    expect(first).toMatchObject({
      object: 'transfer_reversal',
      amount: 1500,
      currency: 'usd',
      transfer: made.id,
      metadata: { creatorOrderId: '1001', refundId: '77' },
      created: under.clock.getTime() / 1000,
      source_refund: null,
    })
    expect(first.id).toMatch(/^trr_/)
    expect(first.balance_transaction).toMatch(/^txn_/)
    expect(first.destination_payment_refund).toMatch(/^pyr_/)
    expect(await under.stripe.transfers.retrieve(made.id)).toMatchObject({
      amount: 4000,
      amount_reversed: 1500,
      reversed: false,
      reversals: { object: 'list', data: [{ id: first.id, amount: 1500 }], has_more: false },
    })
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 2500 })

    // Without an amount, what is left of the transfer.
    const rest = await reverse(made.id)
    expect(rest.amount).toBe(2500)
    const whole = await under.stripe.transfers.retrieve(made.id)
    expect(whole).toMatchObject({ amount_reversed: 4000, reversed: true })
    expect(whole.reversals.data.map((reversal) => reversal.id)).toEqual([rest.id, first.id])
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 0 })

    const refused = await failureOf(reverse(made.id, { amount: 1 }))
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(refused.statusCode).toBe(400)
    expect(refused.message).toBe(`Transfer ${made.id} has already been reversed.`)
    expect(
      under.emulator.reversals().map((reversal) => [reversal.amount, reversal.description]),
    ).toEqual([
      [1500, 'Refund of order 1001, line 1'],
      [2500, null],
    ])
  })

  it('refuse more than is left of the transfer', async () => {
    const made = await transferToNorthwind()
    await reverse(made.id, { amount: 3000 })
    const error = await failureOf(reverse(made.id, { amount: 1001 }))
    expect(error).toMatchObject({ statusCode: 400, param: 'amount' })
    expect(error.message).toBe(
      'Transfer reversal amount ($10.01) is greater than unreversed amount on transfer ($10.00)',
    )
    expect((await reverse(made.id, { amount: 1000 })).amount).toBe(1000)
  })

  it("refuse what the account's balance cannot cover, changing nothing", async () => {
    const made = await transferToNorthwind()
    // Northwind was paid out all but $10.00.
    under.emulator.setBalance(NORTHWIND, 'usd', 1000)
    const error = await failureOf(reverse(made.id, { amount: 1500 }))
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(error).toMatchObject({ statusCode: 400, code: 'balance_insufficient' })
    expect(await under.stripe.transfers.retrieve(made.id)).toMatchObject({
      amount_reversed: 0,
      reversed: false,
      reversals: { data: [] },
    })
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 1000 })
    expect(under.emulator.reversals()).toEqual([])

    await reverse(made.id, { amount: 1000 })
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 0 })
  })

  it.each([
    ['a zero amount', { amount: 0 }, 400, 'parameter_invalid_integer'],
    ['a fractional amount', { amount: 12.5 }, 400, 'parameter_invalid_integer'],
  ])('refuse %s', async (_, params, statusCode, code) => {
    const made = await transferToNorthwind()
    expect(await failureOf(reverse(made.id, params))).toMatchObject({ statusCode, code })
  })

  it('refuse an unknown transfer with 404', async () => {
    const error = await failureOf(reverse('tr_unknown', { amount: 100 }))
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' })
    expect(error.message).toBe("No such transfer: 'tr_unknown'")
  })

  it("are listed newest first, page by page, and show on the transfers' list", async () => {
    const made = await transferToNorthwind()
    const ids: string[] = []
    for (const amount of [100, 200, 300]) ids.push((await reverse(made.id, { amount })).id)

    const first = await under.stripe.transfers.listReversals(made.id, { limit: 2 })
    expect(first).toMatchObject({
      object: 'list',
      url: `/v1/transfers/${made.id}/reversals`,
      has_more: true,
    })
    expect(first.data.map((reversal) => reversal.id)).toEqual([ids[2], ids[1]])
    const next = await under.stripe.transfers.listReversals(made.id, {
      limit: 2,
      starting_after: ids[1],
    })
    expect(next).toMatchObject({ has_more: false, data: [{ id: ids[0], amount: 100 }] })
    expect((await under.stripe.transfers.list({ destination: NORTHWIND })).data).toMatchObject([
      { id: made.id, amount_reversed: 600, reversed: false },
    ])
    expect(await failureOf(under.stripe.transfers.listReversals('tr_unknown'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    })
  })
})

describe('transfer reversals under an idempotency key', () => {
  it('replay the first answer and take nothing more', async () => {
    const made = await transferToNorthwind()
    const first = await reverse(made.id, { amount: 1000 }, 'reversal:77:northwind')
    const again = await reverse(made.id, { amount: 1000 }, 'reversal:77:northwind')
    expect(again.id).toBe(first.id)
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true')
    expect(under.emulator.reversals()).toHaveLength(1)
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 3000 })
  })

  it('replay a refusal for want of balance even once the balance covers it', async () => {
    const made = await transferToNorthwind()
    under.emulator.setBalance(NORTHWIND, 'usd', 0)
    const refused = await failureOf(reverse(made.id, { amount: 1000 }, 'key'))
    expect(refused.code).toBe('balance_insufficient')
    under.emulator.setBalance(NORTHWIND, 'usd', 5000)
    const replayed = await failureOf(reverse(made.id, { amount: 1000 }, 'key'))
    expect(replayed).toMatchObject({ code: 'balance_insufficient' })
    expect(replayed.headers?.['idempotent-replayed']).toBe('true')
    expect((await reverse(made.id, { amount: 1000 }, 'another key')).amount).toBe(1000)
  })
})

describe('transfer reversals as an operation of their own', () => {
  it('count under their own endpoint rate limit', async () => {
    await under.emulator.close()
    await under.start({ rateLimits: { perSecond: 10, perEndpointPerSecond: 1 } })
    const made = await transferToNorthwind()
    await reverse(made.id, { amount: 100 })
    const limited = await failureOf(reverse(made.id, { amount: 100 }))
    expect(limited).toBeInstanceOf(Stripe.errors.StripeRateLimitError)
    expect(limited.headers?.['stripe-rate-limited-reason']).toBe('endpoint-rate')
    expect((await under.stripe.transfers.listReversals(made.id)).data).toHaveLength(1)
    expect(under.emulator.calls().map((call) => [call.operation, call.status])).toEqual([
      ['transfers.create', 200],
      ['transfers.createReversal', 200],
      ['transfers.createReversal', 429],
      ['transfers.listReversals', 200],
    ])
  })

  it("take the faults scripted for their destination account's reversals", async () => {
    const made = await transferToNorthwind()
    under.emulator.script({
      operation: 'transfers.createReversal',
      target: 'acct_other',
      mode: 'fail',
    })
    under.emulator.script({
      operation: 'transfers.createReversal',
      target: NORTHWIND,
      mode: 'fail_saved',
    })
    expect((await failureOf(reverse(made.id, { amount: 100 }, 'key'))).statusCode).toBe(500)
    expect((await failureOf(reverse(made.id, { amount: 100 }, 'key'))).statusCode).toBe(500)
    expect(under.emulator.reversals()).toEqual([])

    under.emulator.unscript()
    under.emulator.script({
      operation: 'transfers.createReversal',
      mode: 'drop_after_write',
      times: 2,
    })
    const lost = await failureOf(reverse(made.id, { amount: 100 }, 'other key'))
    expect(lost).toBeInstanceOf(Stripe.errors.StripeConnectionError)
    const answered = await reverse(made.id, { amount: 100 }, 'other key')
    expect(under.emulator.reversals().map((reversal) => reversal.id)).toEqual([answered.id])
    expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 3900 })
  })
})

describe('the state file', () => {
  it('keeps balances and reversals, and reads one written before them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-stripe-reversals-'))
    try {
      const stateFile = join(dir, 'stripe.json')
      await under.emulator.close()
      await under.start({ stateFile })
      const reversedLater = await transferToNorthwind()
      const made = await transferToNorthwind()
      await reverse(made.id, { amount: 1000 })
      await under.emulator.close()

      await under.start({ stateFile })
      expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 7000 })
      expect((await under.stripe.transfers.retrieve(made.id)).amount_reversed).toBe(1000)
      const platform = under.emulator.platformBalance()
      await under.emulator.close()

      // As written before reversals and pending funds: no balances, no reversals.
      const old = JSON.parse(readFileSync(stateFile, 'utf8')) as {
        platform?: unknown
        accounts: Record<string, { available?: unknown; pending?: unknown }>
        paymentIntents: Record<string, { availableOn?: unknown }>
        transfers: { reversals?: unknown }[]
      }
      delete old.platform
      for (const account of Object.values(old.accounts)) {
        delete account.available
        delete account.pending
      }
      for (const intent of Object.values(old.paymentIntents)) delete intent.availableOn
      for (const transfer of old.transfers) delete transfer.reversals
      writeFileSync(stateFile, JSON.stringify(old))
      await under.start({ stateFile })
      expect(under.emulator.balance(NORTHWIND)).toEqual({ usd: 8000 })
      // The platform as its charges, transfers (none reversed, as the file says) left it.
      expect(under.emulator.platformBalance()).toEqual({
        available: { usd: platform.available.usd! - 1000 },
        pending: {},
      })
      expect((await reverse(reversedLater.id)).amount).toBe(4000)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
