import { afterEach, describe, expect, it } from 'vitest'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import type { PaymentsPort } from '../../server/src/adapters/payments/payments-port'
import {
  startServerUnderTest,
  type ServerOptions,
  type ServerUnderTest,
} from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// A brand's transfer tried again after Stripe declined it. Stripe answers a reused idempotency key
// with its first answer for a day, a decline included: once an administrator fixed the cause, the
// next attempt must go under a key of its own, yet only once Stripe was seen to hold no transfer
// of the attempt before, so that no retry ever pays twice. Only a decline moves the key: after an
// unknown outcome (a lost answer, a timeout, a 5xx) the transfer may exist where Stripe's list does
// not show it yet, and only its key makes Stripe answer it rather than pay again.

const FIRST_KEY = `transfer:1001:${LUMEN}:usd`
const INACTIVE =
  'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments'

let server: ServerUnderTest
const { processOrder, preview } = transferCalls(() => server)

afterEach(async () => {
  await server.close()
})

/** Set: Stripe turns Lumen's transfers off just after processing next checked its account. */
let pausesLumen = false
/** Set: the next transfer's attempt dies right after Stripe made it, before recording it. */
let diesAfterTheCall = false

/**
 * A fresh server whose Stripe may pause Lumen's transfers between the account's check and the
 * transfer (which Stripe then declines), and whose attempts may die after a transfer's call.
 */
async function start(options: ServerOptions = {}) {
  pausesLumen = false
  diesAfterTheCall = false
  const pausingLumen = (stripe: PaymentsPort): PaymentsPort => ({
    ...stripe,
    connectedAccount: async (accountId, callOptions) => {
      const account = await stripe.connectedAccount(accountId, callOptions)
      if (accountId === LUMEN_ACCOUNT && pausesLumen) {
        pausesLumen = false
        server.stripe.setTransfersActive(LUMEN_ACCOUNT, false)
      }
      return account
    },
  })
  server = await startServerUnderTest({
    payments: pausingLumen,
    stripeApi: { wait: async () => {} },
    ...options,
    transferTiming: {
      ...options.transferTiming,
      failpoint: async (name) => {
        if (name !== 'createTransfer:after-call' || !diesAfterTheCall) return
        diesAfterTheCall = false
        throw new Error('The attempt died after Stripe made the transfer')
      },
    },
  })
}

/** Lumen's payouts go to `accountId` from now on: the Payouts card's call. */
const payLumenTo = (accountId: string) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-set-store-payment-account',
    headers: server.asAdmin,
    payload: { shop: LUMEN, accountId },
  })

/** The idempotency keys Lumen's transfers were asked under, in order, each once. */
const lumenKeys = () => [
  ...new Set(
    server.stripe
      .calls()
      .filter((call) => call.operation === 'transfers.create')
      .map((call) => call.idempotencyKey)
      .filter((key) => key?.includes(LUMEN)),
  ),
]

const lumenRow = async () =>
  server.db
    .selectFrom('order_transfer_brands')
    .select(['pending_step', 'transfer_key_attempt', 'transfer_declined_at', 'payment_transfer_id'])
    .where('creator_order_id', '=', '1001')
    .where('brand_store_shop', '=', LUMEN)
    .executeTakeFirstOrThrow()

/** Order 1001 COMPLETED, Stripe holding exactly one transfer for each brand. */
async function expectPaidOnce(lumenAccount: string): Promise<void> {
  const transfers = server.stripe.transfers().map((made) => [made.destination, made.amount])
  expect(Object.fromEntries(transfers)).toEqual({
    [lumenAccount]: 2484,
    [NORTHWIND_ACCOUNT]: 10200,
  })
  expect(transfers).toHaveLength(2)
  const done = (await preview('1001')).json().preview
  expect(done.status).toBe('COMPLETED')
  expect((await lumenRow()).payment_transfer_id).toBe(
    server.stripe.transfers().find((made) => made.destination === lumenAccount)!.id,
  )
}

/** The first attempt: Lumen's transfer declined by Stripe, under the first key. */
async function declinedOnce(): Promise<void> {
  pausesLumen = true
  const declined = await processOrder('1001')
  expect(declined.json()).toEqual({
    error: 'upstream_failed',
    message: `Transfer create failed for lumen botanicals: the payment provider answered "${INACTIVE}"`,
  })
  expect(await lumenRow()).toMatchObject({
    pending_step: 'createTransfer',
    transfer_key_attempt: 0,
    transfer_declined_at: expect.any(String),
  })
}

/**
 * The first attempt's call to Stripe for Lumen's transfer outlasts its 1 s deadline: answered as
 * a timeout, the transfer made after it.
 */
async function lumenCallLandsLate(): Promise<void> {
  server.stripe.script({
    operation: 'transfers.create',
    mode: 'delay',
    delayMs: 1500,
    target: LUMEN_ACCOUNT,
  })
  expect((await processOrder('1001')).json().message).toBe(
    `Transfer create failed for lumen botanicals: the payment provider did not answer within 1 s`,
  )
}

/** Every try of Lumen's transfer is made by Stripe and its answer lost, until unscripted. */
const lumenAnswersLost = () =>
  server.stripe.script({
    operation: 'transfers.create',
    mode: 'drop_after_write',
    target: LUMEN_ACCOUNT,
    times: 100,
  })

/** Stripe's list lags behind: the newest transfer to each account is not in it yet. */
const listLags = () =>
  server.stripe.script({ operation: 'transfers.list', mode: 'stale', times: 100 })

/**
 * An attempt whose Lumen transfer Stripe made without its answer arriving; then Lumen's payouts
 * move to another account, and Stripe does not list the transfer yet: only its key, at the
 * account it went to, finds it.
 */
async function lumenAnswerLostThenAccountMoved() {
  lumenAnswersLost()
  expect((await processOrder('1001')).statusCode).toBe(502)
  server.stripe.unscript()
  const other = server.stripe.addAccount({ id: 'acct_lumen_other' })
  expect((await payLumenTo(other)).statusCode).toBe(200)
  listLags()
}

describe('a transfer Stripe declined', () => {
  it.each([
    [
      'the account is fixed in Stripe',
      async () => {
        server.stripe.setTransfersActive(LUMEN_ACCOUNT, true)
        return LUMEN_ACCOUNT
      },
    ],
    [
      'another account is set for the brand',
      async () => {
        const account = server.stripe.addAccount()
        expect((await payLumenTo(account)).statusCode).toBe(200)
        return account
      },
    ],
  ])('is made once %s: under a new key, as Stripe shows none of the first', async (_, fix) => {
    await start()
    await declinedOnce()
    const account = await fix()
    const retried = await processOrder('1001')
    expect(retried.statusCode).toBe(201)
    expect(retried.json().status).toBe('COMPLETED')
    await expectPaidOnce(account)
    expect(lumenKeys()).toEqual([FIRST_KEY, `${FIRST_KEY}:1`])
    expect(await lumenRow()).toMatchObject({
      pending_step: null,
      transfer_key_attempt: 1,
      transfer_declined_at: null,
    })
  })
})

describe('a transfer whose answer was lost', () => {
  it('on the first attempt is found on the next, and the key never changes', async () => {
    await start()
    diesAfterTheCall = true
    expect((await processOrder('1001')).statusCode).toBe(500)
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectPaidOnce(LUMEN_ACCOUNT)
    expect(lumenKeys()).toEqual([FIRST_KEY])
    expect(await lumenRow()).toMatchObject({ transfer_key_attempt: 0 })
  })

  it('on a retry after a decline is found on the next, and no third key is tried', async () => {
    await start()
    await declinedOnce()
    server.stripe.setTransfersActive(LUMEN_ACCOUNT, true)
    diesAfterTheCall = true
    expect((await processOrder('1001')).statusCode).toBe(500)
    expect(server.stripe.transfers()).toHaveLength(2)
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectPaidOnce(LUMEN_ACCOUNT)
    expect(lumenKeys()).toEqual([FIRST_KEY, `${FIRST_KEY}:1`])
    expect(await lumenRow()).toMatchObject({ transfer_key_attempt: 1 })
  })

  it('after a timeout waits out the lease, then is found: no new key while the call may land', async () => {
    let skewMs = 0
    await start({ transferTiming: { leaseMs: 3000 }, now: () => new Date(Date.now() + skewMs) })
    await lumenCallLandsLate()
    // The call may still land: no attempt reconciles, let alone asks under a new key, before the
    // lease has run out.
    expect((await processOrder('1001')).json().message).toBe(
      'Order transfer is already being processed',
    )
    await expect.poll(() => server.stripe.transfers().length, { timeout: 10_000 }).toBe(2)
    skewMs = 3_100
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectPaidOnce(LUMEN_ACCOUNT)
    expect(lumenKeys()).toEqual([FIRST_KEY])
    expect(await lumenRow()).toMatchObject({ transfer_key_attempt: 0 })
  })
})

describe('a transfer whose answer was lost, and that Stripe does not list yet', () => {
  /** Past the lease of an attempt whose call timed out: the next one may reconcile. */
  let skewMs = 0
  const startSkewed = () => {
    skewMs = 0
    return start({ transferTiming: { leaseMs: 3000 }, now: () => new Date(Date.now() + skewMs) })
  }

  it.each([
    [
      'every try of the call lost its answer',
      async () => {
        lumenAnswersLost()
        expect((await processOrder('1001')).statusCode).toBe(502)
        server.stripe.unscript()
      },
    ],
    [
      'the attempt died after the call',
      async () => {
        diesAfterTheCall = true
        expect((await processOrder('1001')).statusCode).toBe(500)
      },
    ],
    [
      'Stripe finished the call after its deadline',
      async () => {
        await lumenCallLandsLate()
        await expect.poll(() => server.stripe.transfers().length, { timeout: 10_000 }).toBe(2)
      },
    ],
  ])(
    'is asked again under the same key when %s: Stripe answers it, nothing is paid twice',
    async (_, lose) => {
      await startSkewed()
      await lose()
      expect(server.stripe.transfers()).toHaveLength(2)
      // One brand's outcome is unknown (the attempt dies at the first brand's call), not a decline.
      const rows = () =>
        server.db
          .selectFrom('order_transfer_brands')
          .select(['pending_step', 'transfer_key_attempt', 'transfer_declined_at'])
          .where('creator_order_id', '=', '1001')
          .where('pending_step', 'is not', null)
          .execute()
      expect(await rows()).toEqual([
        { pending_step: 'createTransfer', transfer_key_attempt: 0, transfer_declined_at: null },
      ])
      listLags()
      skewMs = 3_100
      const retried = await processOrder('1001')
      expect(retried.statusCode).toBe(201)
      await expectPaidOnce(LUMEN_ACCOUNT)
      const keys = server.stripe
        .calls()
        .filter((call) => call.operation === 'transfers.create')
        .map((call) => call.idempotencyKey)
      expect([...new Set(keys)].sort()).toEqual([FIRST_KEY, `transfer:1001:${NORTHWIND}:usd`])
      expect(await rows()).toEqual([])
    },
  )

  it('keeps to the account it went to when the brand’s account is changed meanwhile: paid there once, never to the new one', async () => {
    await startSkewed()
    await lumenAnswerLostThenAccountMoved()
    skewMs = 3_100
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectPaidOnce(LUMEN_ACCOUNT)
    expect(lumenKeys()).toEqual([FIRST_KEY])
  })

  it('keeps to the account another request’s unanswered transfer went to, though this one checked the account set since', async () => {
    // The second request reads the order first, and is held there while the first one runs.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let first = true
    await start({
      commerce: (commerce) => ({
        ...commerce,
        findCreatorOrder: async (orderId) => {
          if (first) {
            first = false
            await held
          }
          return commerce.findCreatorOrder(orderId)
        },
      }),
    })
    const second = processOrder('1001')
    await expect.poll(() => first).toBe(false)
    await lumenAnswerLostThenAccountMoved()
    // Its checks read the new account; under the claim, the row says where the transfer went.
    release()
    expect((await second).statusCode).toBe(201)
    await expectPaidOnce(LUMEN_ACCOUNT)
    expect(lumenKeys()).toEqual([FIRST_KEY])
  })

  it('after a decline and a retry under a new key whose answer was lost, keeps that key', async () => {
    await startSkewed()
    await declinedOnce()
    server.stripe.setTransfersActive(LUMEN_ACCOUNT, true)
    diesAfterTheCall = true
    expect((await processOrder('1001')).statusCode).toBe(500)
    expect(await lumenRow()).toMatchObject({ transfer_key_attempt: 1, transfer_declined_at: null })
    listLags()
    skewMs = 3_100
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectPaidOnce(LUMEN_ACCOUNT)
    expect(lumenKeys()).toEqual([FIRST_KEY, `${FIRST_KEY}:1`])
  })
})

describe('a transfer whose call Stripe failed with a 5xx saved under its key', () => {
  it('keeps its key, failing while Stripe replays the 5xx: the call may have made it', async () => {
    let stripeSkewMs = 0
    await start({ stripeEmulator: { now: () => new Date(Date.now() + stripeSkewMs) } })
    server.stripe.script({
      operation: 'transfers.create',
      mode: 'fail_saved',
      status: 500,
      message: 'Stripe broke',
      target: LUMEN_ACCOUNT,
    })
    const broken = `Transfer create failed for lumen botanicals: the payment provider answered "Stripe broke"`
    expect((await processOrder('1001')).json().message).toBe(broken)
    // Replayed, not sent under a new key: whether a 5xx made the transfer is unknown.
    expect((await processOrder('1001')).json().message).toBe(broken)
    expect(lumenKeys()).toEqual([FIRST_KEY])
    expect(server.stripe.transfers()).toHaveLength(1)
    expect(await lumenRow()).toMatchObject({
      pending_step: 'createTransfer',
      transfer_key_attempt: 0,
      transfer_declined_at: null,
    })
    // A day on, Stripe has forgotten the key: the same key makes the transfer.
    stripeSkewMs = 24 * 60 * 60 * 1000 + 60_000
    expect((await processOrder('1001')).statusCode).toBe(201)
    await expectPaidOnce(LUMEN_ACCOUNT)
    expect(lumenKeys()).toEqual([FIRST_KEY])
  })
})
