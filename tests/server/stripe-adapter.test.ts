import { afterEach, describe, expect, it } from 'vitest'
import {
  startStripeEmulator,
  type StripeEmulator,
  type StripeEmulatorOptions,
} from '../../emulators/stripe/emulator'
import {
  PaymentsError,
  type TransferRequest,
} from '../../server/src/adapters/payments/payments-port'
import { connectStripe } from '../../server/src/adapters/payments/stripe/stripe-payments'
import { StripeRate } from '../../server/src/adapters/payments/stripe/stripe-rate'

// The Stripe adapter (the `stripe` package with our retries and idempotency keys) against the
// Stripe emulator, which answers as Stripe does where it bites: refusals, 5xx, lost answers and
// idempotency keys kept for a day.

const NORTHWIND_ACCOUNT = 'acct_sandbox_northwind_apparel'

let stripe: StripeEmulator
afterEach(() => stripe.close())

/** The emulator and an adapter on it; the adapter's waits between tries are recorded, not slept. */
async function start(options: StripeEmulatorOptions = {}) {
  stripe = await startStripeEmulator(options)
  const waits: number[] = []
  const payments = connectStripe({
    secretKey: stripe.secretKey,
    endpoint: stripe.url,
    wait: async (ms) => {
      waits.push(ms)
    },
  })
  return { payments, waits }
}

const transfer = (changes: Partial<TransferRequest> = {}): TransferRequest => ({
  amountMinor: 10200,
  currency: 'USD',
  destinationAccountId: NORTHWIND_ACCOUNT,
  sourceTransaction: 'ch_sandbox_order_1001',
  idempotencyKey: 'transfer:1001:northwind-apparel.myshopify.com',
  transferGroup: 'tandem-order-1001',
  description: 'Tandem transfer of creator order #1001',
  metadata: { creator_order_id: '1001' },
  ...changes,
})

const callsOf = (operation: string) => stripe.calls().filter((call) => call.operation === operation)

describe('reads', () => {
  it('answers a connected account, with or without email and active transfers, and null for one Stripe does not know', async () => {
    const { payments } = await start()
    expect(await payments.connectedAccount(NORTHWIND_ACCOUNT)).toEqual({
      accountId: NORTHWIND_ACCOUNT,
      email: 'payouts@northwind-apparel.example',
      transfersActive: true,
    })
    const bare = stripe.addAccount({ email: null, transfersActive: false })
    expect(await payments.connectedAccount(bare)).toEqual({
      accountId: bare,
      email: null,
      transfersActive: false,
    })
    expect(await payments.connectedAccount('acct_nobody')).toBeNull()
  })

  it('answers a PaymentIntent with its charge, and null for an unknown one', async () => {
    const { payments } = await start()
    expect(await payments.paymentIntent('pi_sandbox_order_1001')).toEqual({
      id: 'pi_sandbox_order_1001',
      status: 'succeeded',
      latestChargeId: 'ch_sandbox_order_1001',
      amountReceivedMinor: 19754,
      currency: 'USD',
      metadata: { creator_shop: 'maya-makes.myshopify.com', creator_order_id: '1001' },
    })
    const pending = stripe.addPaymentIntent({ amount: 500, currency: 'usd', status: 'processing' })
    expect(await payments.paymentIntent(pending.id)).toEqual({
      id: pending.id,
      status: 'processing',
      latestChargeId: null,
      amountReceivedMinor: 0,
      currency: 'USD',
      metadata: {},
    })
    expect(await payments.paymentIntent('pi_nothing')).toBeNull()
  })

  it("answers a charge with its refunds and its balance transaction's currency and rate", async () => {
    const { payments } = await start()
    // Order 1005's charge: 80.78 EUR, settled in USD at the emulator's 1.16.
    expect(await payments.charge('ch_sandbox_order_1005')).toEqual({
      id: 'ch_sandbox_order_1005',
      currency: 'EUR',
      capturedMinor: 8078,
      refundedMinor: 0,
      settlement: { currency: 'USD', exchangeRate: '1.16' },
      fundsAvailableAt: null,
    })
    stripe.refund('ch_sandbox_order_1001', 1000)
    expect(await payments.charge('ch_sandbox_order_1001')).toEqual({
      id: 'ch_sandbox_order_1001',
      currency: 'USD',
      capturedMinor: 19754,
      refundedMinor: 1000,
      settlement: { currency: 'USD', exchangeRate: '1' },
      fundsAvailableAt: null,
    })
    expect(await payments.charge('ch_nothing')).toBeNull()
  })

  it("reads the platform's and an account's balance, and when a charge's pending funds come", async () => {
    const now = new Date('2026-11-10T12:00:00.000Z')
    const { payments } = await start({ now: () => now, fundsPendingForSeconds: 86_400 })
    expect(await payments.charge('ch_sandbox_order_1001')).toMatchObject({
      fundsAvailableAt: '2026-11-11T12:00:00.000Z',
    })
    const pending = stripe.platformBalance().pending.usd!
    expect(await payments.balance(null, 'USD')).toEqual({
      availableMinor: 0,
      pendingMinor: pending,
    })
    await payments.createTransfer(transfer({ amountMinor: 4000 }))
    expect(await payments.balance(NORTHWIND_ACCOUNT, 'USD')).toEqual({
      availableMinor: 0,
      pendingMinor: 4000,
    })
    expect(await payments.balance(NORTHWIND_ACCOUNT, 'EUR')).toEqual({
      availableMinor: 0,
      pendingMinor: 0,
    })
  })

  it('retries a 5xx and a 429 with growing waits, then answers', async () => {
    const { payments, waits } = await start()
    stripe.script({ operation: 'accounts.retrieve', mode: 'fail', status: 500 })
    stripe.script({ operation: 'accounts.retrieve', mode: 'fail', status: 429 })
    stripe.script({ operation: 'accounts.retrieve', mode: 'fail', status: 503 })
    expect((await payments.connectedAccount(NORTHWIND_ACCOUNT))?.accountId).toBe(NORTHWIND_ACCOUNT)
    expect(callsOf('accounts.retrieve').map((call) => call.status)).toEqual([500, 429, 503, 200])
    expect(waits).toEqual([250, 500, 1000])
  })

  it('retries a 429 past four tries: Stripe did nothing, so it is asked again while the caller waits', async () => {
    const { payments, waits } = await start()
    stripe.script({ operation: 'accounts.retrieve', mode: 'fail', status: 429, times: 6 })
    expect((await payments.connectedAccount(NORTHWIND_ACCOUNT))?.accountId).toBe(NORTHWIND_ACCOUNT)
    expect(callsOf('accounts.retrieve').map((call) => call.status)).toEqual([
      ...Array<number>(6).fill(429),
      200,
    ])
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 4000])
  })

  it('gives up after four tries, saying what Stripe answered', async () => {
    const { payments } = await start()
    stripe.script({
      operation: 'paymentIntents.retrieve',
      mode: 'fail',
      status: 500,
      message: 'An unknown error occurred',
      times: 10,
    })
    const failed = payments.paymentIntent('pi_sandbox_order_1001')
    await expect(failed).rejects.toThrow(PaymentsError)
    await expect(failed).rejects.toThrow('An unknown error occurred')
    expect(callsOf('paymentIntents.retrieve')).toHaveLength(4)
  })

  it('finds the transfers of a group to one destination across pages, oldest first', async () => {
    const { payments } = await start()
    const made: string[] = []
    for (let i = 0; i < 103; i++) {
      const { id } = await payments.createTransfer(
        transfer({ amountMinor: 1, idempotencyKey: `bulk-${i}` }),
      )
      made.push(id)
    }
    await payments.createTransfer(
      transfer({ transferGroup: 'tandem-order-1004', idempotencyKey: 'other' }),
    )
    const found = await payments.findTransfers({
      transferGroup: 'tandem-order-1001',
      destinationAccountId: NORTHWIND_ACCOUNT,
    })
    expect(found.map((each) => each.id)).toEqual(made)
    expect(found[0]).toEqual({
      id: made[0],
      amountMinor: 1,
      currency: 'USD',
      metadata: { creator_order_id: '1001' },
      sourceTransaction: 'ch_sandbox_order_1001',
      amountReversedMinor: 0,
    })
    expect(callsOf('transfers.list')).toHaveLength(2)
    expect(
      await payments.findTransfers({
        transferGroup: 'tandem-order-1001',
        destinationAccountId: 'acct_sandbox_lumen_botanicals',
      }),
    ).toEqual([])
  })
})

describe('transfers', () => {
  it('are made from the charge with our key; the same request again replays the first', async () => {
    const { payments } = await start()
    const first = await payments.createTransfer(transfer())
    const again = await payments.createTransfer(transfer())
    expect(again).toEqual(first)
    expect(stripe.transfers()).toEqual([
      expect.objectContaining({
        id: first.id,
        amount: 10200,
        currency: 'usd',
        destination: NORTHWIND_ACCOUNT,
        sourceTransaction: 'ch_sandbox_order_1001',
        transferGroup: 'tandem-order-1001',
        metadata: { creator_order_id: '1001' },
      }),
    ])
    expect(callsOf('transfers.create').map((call) => call.idempotencyKey)).toEqual([
      'transfer:1001:northwind-apparel.myshopify.com',
      'transfer:1001:northwind-apparel.myshopify.com',
    ])
  })

  it('refuse a key reused with another amount, and make nothing', async () => {
    const { payments } = await start()
    await payments.createTransfer(transfer())
    const reused = payments.createTransfer(transfer({ amountMinor: 9999 }))
    await expect(reused).rejects.toThrow(PaymentsError)
    await expect(reused).rejects.toThrow(
      /^Keys for idempotent requests can only be used with the same parameters they were first used with/,
    )
    expect(stripe.transfers().map((made) => made.amount)).toEqual([10200])
    // Not a failure worth retrying: asked once.
    expect(callsOf('transfers.create')).toHaveLength(2)
  })

  it('are made again under the same key once Stripe has forgotten it, after a day', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z')
    const { payments } = await start({ now: () => new Date(now) })
    // Small enough that the charge pays for it twice.
    const request = transfer({ amountMinor: 5000 })
    const first = await payments.createTransfer(request)
    now += 23 * 60 * 60_000
    expect(await payments.createTransfer(request)).toEqual(first)
    now += 2 * 60 * 60_000
    const second = await payments.createTransfer(request)
    expect(second.id).not.toBe(first.id)
    expect(stripe.transfers()).toHaveLength(2)
  })

  it('survive lost answers: resent under the key, Stripe replays the transfer it made', async () => {
    const { payments, waits } = await start()
    // Two: stripe-node itself resends once after a closed connection; ours is the third request.
    stripe.script({ operation: 'transfers.create', mode: 'drop_after_write', times: 2 })
    const made = await payments.createTransfer(transfer())
    expect(stripe.transfers()).toEqual([expect.objectContaining({ id: made.id })])
    expect(callsOf('transfers.create').map((call) => call.status)).toEqual([null, null, 200])
    expect(waits).toEqual([250])
  })

  it('are retried after a 5xx before Stripe began, and a saved 500 is answered as it was', async () => {
    const { payments } = await start()
    stripe.script({ operation: 'transfers.create', mode: 'fail', status: 503 })
    await payments.createTransfer(transfer())
    expect(stripe.transfers()).toHaveLength(1)

    stripe.script({ operation: 'transfers.create', mode: 'fail_saved', message: 'Stripe broke' })
    const key = 'transfer:1004:northwind-apparel.myshopify.com'
    const saved = payments.createTransfer(transfer({ amountMinor: 5000, idempotencyKey: key }))
    await expect(saved).rejects.toThrow('Stripe broke')
    // Tried again once: the replay of the saved 500 says asking again is of no use.
    expect(
      callsOf('transfers.create')
        .filter((call) => call.idempotencyKey === key)
        .map((call) => call.status),
    ).toEqual([500, 500])
    expect(stripe.transfers()).toHaveLength(1)
  })

  it("are never sent in an amount Stripe's currency table refuses (ISK in whole krónur, BHD in tens)", async () => {
    const { payments } = await start()
    for (const [amountMinor, currency, step] of [
      [150050, 'ISK', 100],
      [1235, 'BHD', 10],
    ] as const) {
      await expect(payments.createTransfer(transfer({ amountMinor, currency }))).rejects.toThrow(
        `${amountMinor} minor units of ${currency} cannot be sent to Stripe: it takes ${currency} amounts in multiples of ${step}`,
      )
    }
    expect(callsOf('transfers.create')).toEqual([])
  })

  it('refused by Stripe are not retried and say why', async () => {
    const { payments } = await start()
    const inactive = stripe.addAccount({ email: 'x@example.com', transfersActive: false })
    const cases = [
      [{ destinationAccountId: 'acct_nobody' }, "No such destination: 'acct_nobody'"],
      [{ destinationAccountId: inactive }, /capabilities enabled: transfers/],
      [{ sourceTransaction: 'ch_nothing' }, "No such charge: 'ch_nothing'"],
      [{ amountMinor: 10_000_000 }, /./],
    ] as const
    for (const [index, [changes, message]] of cases.entries()) {
      const refused = payments.createTransfer(transfer({ ...changes, idempotencyKey: `k${index}` }))
      await expect(refused).rejects.toThrow(PaymentsError)
      await expect(refused).rejects.toThrow(message)
      // Stripe's definite answer that it made nothing: a retry may go under a new key.
      await expect(refused).rejects.toMatchObject({ declined: true })
    }
    expect(callsOf('transfers.create')).toHaveLength(cases.length)
    expect(stripe.transfers()).toEqual([])
  })

  it('are declined only when Stripe answered a 4xx saying so, never when the outcome is unknown', async () => {
    const { payments } = await start()
    const declinedOf = async (request: Promise<unknown>) => {
      const error: unknown = await request.then(
        () => null,
        (failure: unknown) => failure,
      )
      expect(error).toBeInstanceOf(PaymentsError)
      return (error as PaymentsError).declined
    }
    let key = 0
    const send = () => payments.createTransfer(transfer({ idempotencyKey: `k${++key}` }))
    stripe.script({ operation: 'transfers.create', mode: 'fail', status: 402, message: 'No' })
    expect(await declinedOf(send())).toBe(true)
    for (const fault of [
      { mode: 'fail', status: 500, times: 4 },
      { mode: 'fail_saved', status: 502 },
      { mode: 'fail', status: 409, times: 4 },
      { mode: 'fail', status: 429, times: 20 },
      { mode: 'drop_after_write', times: 8 },
    ] as const) {
      stripe.script({ operation: 'transfers.create', ...fault })
      expect(await declinedOf(send()), fault.mode).toBe(false)
    }
    // Another request's parameters under the key: what that one did is not this answer's.
    await payments.createTransfer(transfer({ amountMinor: 100, idempotencyKey: 'used' }))
    const reused = payments.createTransfer(transfer({ amountMinor: 200, idempotencyKey: 'used' }))
    expect(await declinedOf(reused)).toBe(false)
    const unauthenticated = connectStripe({ secretKey: 'sk_test_wrong', endpoint: stripe.url })
    expect(await declinedOf(unauthenticated.createTransfer(transfer()))).toBe(false)
  })

  it('are never sent once the caller stopped waiting, before the first try or between tries', async () => {
    const controller = new AbortController()
    controller.abort()
    const { payments } = await start()
    await expect(
      payments.createTransfer(transfer(), { signal: controller.signal }),
    ).rejects.toThrow('Not sent to Stripe: the caller stopped waiting for it')
    expect(callsOf('transfers.create')).toEqual([])

    const giveUp = new AbortController()
    const waiting = connectStripe({
      secretKey: stripe.secretKey,
      endpoint: stripe.url,
      // The caller's deadline passes while the adapter waits to try again.
      wait: async () => giveUp.abort(),
    })
    stripe.script({ operation: 'transfers.create', mode: 'fail', status: 503 })
    await expect(waiting.createTransfer(transfer(), { signal: giveUp.signal })).rejects.toThrow(
      'Not sent to Stripe: the caller stopped waiting for it',
    )
    expect(callsOf('transfers.create').map((call) => call.status)).toEqual([503])
    expect(stripe.transfers()).toEqual([])
  })

  it('declined once Stripe began are answered the same under their key for a day', async () => {
    const { payments } = await start()
    const account = stripe.addAccount({ email: 'x@example.com', transfersActive: false })
    const request = transfer({ destinationAccountId: account, idempotencyKey: 'declined' })
    await expect(payments.createTransfer(request)).rejects.toThrow(/capabilities enabled/)
    // Stripe activates transfers; the same request under the same key still gets the decline.
    stripe.setTransfersActive(account, true)
    await expect(payments.createTransfer(request)).rejects.toThrow(/capabilities enabled/)
    expect(stripe.transfers()).toEqual([])
  })
})

describe('transfer reversals', () => {
  const reversal = (transferId: string, amountMinor: number, idempotencyKey: string) => ({
    transferId,
    amountMinor,
    currency: 'USD',
    idempotencyKey,
    description: 'Tandem reversal of creator order #1001',
    metadata: { creator_order_id: '1001' },
  })

  it('take part of a transfer back under our key, replayed under it, and are listed oldest first', async () => {
    const { payments } = await start()
    const made = await payments.createTransfer(transfer())
    const first = await payments.reverseTransfer(reversal(made.id, 1100, 'reversal:1001:1'))
    expect(await payments.reverseTransfer(reversal(made.id, 1100, 'reversal:1001:1'))).toEqual(
      first,
    )
    const second = await payments.reverseTransfer(reversal(made.id, 900, 'reversal:1001:2'))
    expect(await payments.transferReversals(made.id)).toEqual([
      { id: first.id, amountMinor: 1100, metadata: { creator_order_id: '1001' } },
      { id: second.id, amountMinor: 900, metadata: { creator_order_id: '1001' } },
    ])
    expect(stripe.balance(NORTHWIND_ACCOUNT)).toEqual({ usd: 10200 - 2000 })
    expect((await payments.findTransfers({ transferGroup: 'tandem-order-1001' }))[0]).toMatchObject(
      { amountReversedMinor: 2000 },
    )
  })

  it('beyond the balance are declined with Stripe’s code, and take nothing', async () => {
    const { payments } = await start()
    const made = await payments.createTransfer(transfer())
    stripe.setBalance(NORTHWIND_ACCOUNT, 'usd', 500)
    const refused = payments.reverseTransfer(reversal(made.id, 1100, 'reversal:1001:1'))
    await expect(refused).rejects.toMatchObject({ declined: true, code: 'balance_insufficient' })
    // Beyond what is left of the transfer: declined too, and not retried.
    stripe.setBalance(NORTHWIND_ACCOUNT, 'usd', 100_000)
    const beyond = payments.reverseTransfer(reversal(made.id, 10201, 'reversal:1001:2'))
    await expect(beyond).rejects.toMatchObject({ declined: true })
    expect(await payments.transferReversals(made.id)).toEqual([])
    expect(callsOf('transfers.createReversal')).toHaveLength(2)
  })
})

describe("Stripe's rate limits", () => {
  const LIMITS = { perSecond: 10, perEndpointPerSecond: 5 }

  /** `count` calls of each kind Tandem makes, all at once, and what each answered. */
  async function burst(payments: ReturnType<typeof connectStripe>, count: number) {
    const each = Array.from({ length: count }, (_, i) => i)
    return Promise.all([
      ...each.map(() => payments.connectedAccount(NORTHWIND_ACCOUNT).then((a) => a?.accountId)),
      ...each.map(() => payments.paymentIntent('pi_sandbox_order_1001').then((pi) => pi?.id)),
      ...each.map(() => payments.charge('ch_sandbox_order_1001').then((charge) => charge?.id)),
      ...each.map((i) =>
        payments
          .createTransfer(transfer({ amountMinor: 1, idempotencyKey: `burst-${i}` }))
          .then((made) => stripe.transfers().some((t) => t.id === made.id)),
      ),
    ])
  }

  const expected = (count: number) => [
    ...Array<string>(count).fill(NORTHWIND_ACCOUNT),
    ...Array<string>(count).fill('pi_sandbox_order_1001'),
    ...Array<string>(count).fill('ch_sandbox_order_1001'),
    ...Array<boolean>(count).fill(true),
  ]

  it('paced at the limits, a burst is answered in full and Stripe refuses none of it', async () => {
    stripe = await startStripeEmulator({ rateLimits: LIMITS })
    const payments = connectStripe({
      secretKey: stripe.secretKey,
      endpoint: stripe.url,
      rate: new StripeRate(LIMITS),
    })
    expect(await burst(payments, 6)).toEqual(expected(6))
    expect(stripe.calls()).toHaveLength(24)
    expect(stripe.calls().filter((call) => call.status !== 200)).toEqual([])
    expect(stripe.transfers()).toHaveLength(6)
  })

  it('unpaced, the burst meets 429s, and each is asked again until Stripe takes it', async () => {
    stripe = await startStripeEmulator({ rateLimits: LIMITS })
    // The real waits between tries: Stripe's bucket refills as they pass.
    const payments = connectStripe({ secretKey: stripe.secretKey, endpoint: stripe.url })
    expect(await burst(payments, 6)).toEqual(expected(6))
    const statuses = stripe.calls().map((call) => call.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(24)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0)
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
    // A refused transfer did nothing: one transfer per key.
    expect(stripe.transfers()).toHaveLength(6)
  })

  it('a caller that stops waiting for its turn leaves the queue and sends nothing', async () => {
    stripe = await startStripeEmulator()
    const payments = connectStripe({
      secretKey: stripe.secretKey,
      endpoint: stripe.url,
      rate: new StripeRate({ perSecond: 1, perEndpointPerSecond: 1 }),
    })
    // Two turns at once after an idle spell; the next ones a second apart.
    const first = [
      payments.connectedAccount(NORTHWIND_ACCOUNT),
      payments.connectedAccount(NORTHWIND_ACCOUNT),
    ]
    const giveUp = new AbortController()
    const abandoned = payments.connectedAccount(NORTHWIND_ACCOUNT, { signal: giveUp.signal })
    const after = payments.connectedAccount(NORTHWIND_ACCOUNT)
    giveUp.abort()
    await expect(abandoned).rejects.toThrow('Not sent to Stripe: the caller stopped waiting for it')
    expect((await Promise.all([...first, after])).map((account) => account?.accountId)).toEqual(
      Array<string>(3).fill(NORTHWIND_ACCOUNT),
    )
    expect(callsOf('accounts.retrieve')).toHaveLength(3)
  })
})

describe('configuration', () => {
  it('says when the platform key is missing or wrong, never echoing it whole', async () => {
    await start()
    const unconfigured = connectStripe({ secretKey: null, endpoint: stripe.url })
    await expect(unconfigured.connectedAccount(NORTHWIND_ACCOUNT)).rejects.toThrow(
      'Stripe is not configured: STRIPE_SECRET_KEY is not set',
    )
    const wrongKey = 'sk_test_wrong_key_9876'
    const wrong = connectStripe({ secretKey: wrongKey, endpoint: stripe.url })
    const refused = wrong.connectedAccount(NORTHWIND_ACCOUNT)
    await expect(refused).rejects.toThrow(/Invalid API Key provided/)
    await expect(refused).rejects.not.toThrow(wrongKey)
  })
})
