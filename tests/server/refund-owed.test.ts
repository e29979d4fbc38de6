import type Stripe from 'stripe'
import { afterEach, describe, expect, it } from 'vitest'
import { STRIPE_ATTEMPTS } from '../../server/src/adapters/payments/stripe/stripe-payments'
import { LUMEN, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import {
  FOR_JOBS,
  MAYA,
  MAYA_ACCOUNT,
  ORDER_1001,
  refundWorld,
  reversal,
  transferTo,
} from './support/refund-world'
import { jobStates, jobTableOf } from './support/job-states'
import { usesPostgres, type ServerOptions } from './support/server-under-test'
import { clientOf } from './support/stripe-client'

// What a refund leaves owed (issue 33): a brand whose Stripe balance cannot cover its reversal
// owes it, and its next transfer pays it back; a creator not paid yet is paid only what the order
// still earns her; a refund that comes before the transfer completes is settled once it does.
// Order 1001: Northwind 102.00 for two overshirts (one: 51.00), Maya 27.30 (10.20 of it for one).

const world = refundWorld()
afterEach(() => world.server().close())

/**
 * Maya refunds an overshirt of order 1001, whose 51.00 Northwind was paid out: Northwind owes it,
 * Maya's 10.20 went back.
 */
async function northwindOwesOvershirt() {
  await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
  await expect
    .poll(() => world.activity('transfer.reversal-owed'), FOR_JOBS)
    .toEqual([
      expect.objectContaining({ party: 'BRAND', storeShop: NORTHWIND, amount: '51.00 USD' }),
    ])
  await expect.poll(world.reversals, FOR_JOBS).toEqual([reversal(MAYA_ACCOUNT, 1020, '1001', MAYA)])
}

/**
 * Northwind's sale `next` (102.00) has the overshirt's 51.00 taken back from it, once, as its
 * balance shows: `balanceMinor` (its sales since 1001, less 51.00).
 */
async function debtTakenFrom(next: { orderId: string }, balanceMinor = 10200 - 5100) {
  await expect
    .poll(world.reversals, FOR_JOBS)
    .toEqual([
      reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
      reversal(NORTHWIND_ACCOUNT, 5100, next.orderId, NORTHWIND),
    ])
  // Recorded once Stripe answered the reversal: wait for the record, not the reversal.
  await expect
    .poll(() => world.activity('transfer.debt-deduction'), FOR_JOBS)
    .toEqual([
      expect.objectContaining({ party: 'DEBT', storeShop: NORTHWIND, amount: '51.00 USD' }),
    ])
  expect(world.server().stripe.balance(NORTHWIND_ACCOUNT)).toEqual({ usd: balanceMinor })
}

describe('a brand that cannot cover its reversal', () => {
  it('owes it, and gives it back from its next transfer, each step recorded', async () => {
    const server = await world.transferred1001()
    // Northwind was paid out: nothing is left on its Stripe balance.
    server.stripe.setBalance(NORTHWIND_ACCOUNT, 'usd', 0)
    await northwindOwesOvershirt()

    // Northwind's next sale: two overshirts again, 102.00, of which 51.00 goes back at once.
    const next = await world.customerBuys({ 'linen-overshirt': 2 })
    await world.transfer(next.orderId)
    await debtTakenFrom(next)

    // The new sale refunded in full: its transfer carries only 51.00 more to reverse; the other
    // 51.00 it owes back again.
    await world.creatorRefunds(next, [{ line: 0, quantity: 2 }])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
        reversal(MAYA_ACCOUNT, 2040, next.orderId, MAYA),
        reversal(NORTHWIND_ACCOUNT, 5100, next.orderId, NORTHWIND),
        reversal(NORTHWIND_ACCOUNT, 5100, next.orderId, NORTHWIND, 1),
      ])
    await expect
      .poll(() => world.activity('transfer.reversal-owed'), FOR_JOBS)
      .toEqual([
        expect.objectContaining({ storeShop: NORTHWIND, amount: '51.00 USD' }),
        expect.objectContaining({ storeShop: NORTHWIND, amount: '51.00 USD' }),
      ])
  })
})

describe('a refund while the order’s funds are still pending in Stripe', () => {
  const TWO_DAYS_MS = 2 * 24 * 60 * 60 * 1000
  /** One clock for the server and Stripe, which a test moves on. */
  let offsetMs = 0
  const now = () => new Date(Date.now() + offsetMs)
  /** A charge's funds are pending for two days, and the transfers from it with them. */
  function startPending(options: Pick<ServerOptions, 'jobRetries' | 'payments'> = {}) {
    offsetMs = 0
    return world.start({
      now,
      ...options,
      stripeEmulator: { now, fundsPendingForSeconds: TWO_DAYS_MS / 1000 },
    })
  }

  it('waits for them, then reverses the brand and the creator to the cent, owing nothing', async () => {
    const server = await startPending({ jobRetries: { limit: 0 } })
    await world.transfer('1001')
    await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
    // Stripe made every transfer, their funds pending until the charge's are available.
    expect(server.stripe.pendingBalance(NORTHWIND_ACCOUNT)).toEqual({ usd: 10200 })

    // A refund the day of the sale: Stripe refuses both reversals for the accounts' balances.
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    const charge = await clientOf(server.stripe).charges.retrieve(ORDER_1001.chargeId, {
      expand: ['balance_transaction'],
    })
    const { available_on: availableOn } = charge.balance_transaction as Stripe.BalanceTransaction
    const when = new Date(availableOn * 1000).toISOString().slice(0, 16).replace('T', ' ')
    await expect
      .poll(() => world.troubledJobs(), FOR_JOBS)
      .toEqual([
        expect.objectContaining({
          kind: 'order-refund',
          errorMessage: expect.stringMatching(
            new RegExp(
              `^Stripe still holds ${NORTHWIND}'s funds pending on ${NORTHWIND_ACCOUNT} ` +
                String.raw`\(0\.00 USD available, 102\.00 USD pending\): the reversal of 51\.00 USD ` +
                String.raw`from tr_\w+ waits for them to become available on ` +
                `${when} UTC, and is tried again then$`,
            ),
          ),
        }),
      ])
    expect(world.reversals()).toEqual([])
    expect(await world.activity('transfer.reversal-owed')).toEqual([])

    // Two days on, the funds are available: the refund catch-up sends the order's job again.
    offsetMs = TWO_DAYS_MS + 60 * 60 * 1000
    await server.jobs.send('refund-catch-up', {})
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, '1001', MAYA, 1),
        reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND, 1),
      ])
    await expect.poll(() => world.refundsSettled('1001'), FOR_JOBS).toBe(true)
    expect(server.stripe.balance(NORTHWIND_ACCOUNT)).toEqual({ usd: 10200 - 5100 })
    expect(server.stripe.balance(MAYA_ACCOUNT)).toEqual({ usd: 2730 - 1020 })
    expect(await world.activity('transfer.reversal-owed')).toEqual([])
  })

  it('sends anew a reversal refused just before the funds became available, owing nothing', async () => {
    // Stripe refuses Northwind's reversal for its pending funds, which are available by the time
    // Tandem reads its balance (as when a refusal is replayed by its key a day later).
    const server = await startPending({
      payments: (stripe) => ({
        ...stripe,
        reverseTransfer: (request, options) =>
          stripe.reverseTransfer(request, options).catch((error: unknown) => {
            world.server().stripe.makeFundsAvailable(ORDER_1001.chargeId)
            throw error
          }),
      }),
    })
    await world.transfer('1001')
    await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    // Maya's, sent after, found her funds available.
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
        reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND, 1),
      ])
    await expect.poll(() => world.refundsSettled('1001'), FOR_JOBS).toBe(true)
    expect(await world.activity('transfer.reversal-owed')).toEqual([])
  })

  it("refunds the brands' orders of a later refund while an earlier reversal waits", async () => {
    const server = await startPending({ jobRetries: { limit: 0 } })
    await world.transfer('1001')
    await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
    // Every answer to Northwind's reversal is lost: its outcome is unknown to Tandem.
    server.stripe.script({
      operation: 'transfers.createReversal',
      mode: 'fail',
      status: 500,
      target: NORTHWIND_ACCOUNT,
      times: STRIPE_ATTEMPTS,
    })
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect
      .poll(() => world.troubledJobs(), FOR_JOBS)
      .toEqual([expect.objectContaining({ kind: 'order-refund' })])

    // The face oil refunded next: sent again, Northwind's reversal waits for its funds, and
    // Lumen's order no longer ships the oil.
    await world.creatorRefunds(ORDER_1001, [{ line: 1, quantity: 1 }])
    const lumenOrder = world.brandOrder(LUMEN, '1001')
    await expect
      .poll(
        () =>
          world.brandOrder(LUMEN, '1001').cancelledAt !== null ||
          server.shopify.refunds(LUMEN, lumenOrder.id).length > 0,
        FOR_JOBS,
      )
      .toBe(true)
    expect(world.reversals()).toEqual([])
    expect(await world.activity('transfer.reversal-owed')).toEqual([])
  })

  it('owes at once what a brand paid out, however much of a newer sale is pending, and takes it once that is available', async () => {
    const server = await startPending()
    // Order 1001's funds became available, and Northwind was paid them out.
    server.stripe.makeFundsAvailable(ORDER_1001.chargeId)
    await world.transfer('1001')
    await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
    server.stripe.setBalance(NORTHWIND_ACCOUNT, 'usd', 0)
    // Its newer sale, two overshirts (102.00), is pending on its account.
    await world.transfer((await world.customerBuys({ 'linen-overshirt': 2 })).orderId)
    await expect
      .poll(() => server.stripe.pendingBalance(NORTHWIND_ACCOUNT), FOR_JOBS)
      .toEqual({
        usd: 10200,
      })

    await northwindOwesOvershirt()

    // A third sale, pending too: the debt is taken from it once its funds are available.
    const third = await world.customerBuys({ 'linen-overshirt': 2 })
    await world.transfer(third.orderId)
    // The debt's job, sent by the third transfer, passes it over.
    const jobTable = await jobTableOf(server.db, usesPostgres(), true)
    await expect
      .poll(() => jobStates(server.db, jobTable, 'store-debt'), FOR_JOBS)
      .toEqual(['done'])
    expect(world.reversals()).toEqual([reversal(MAYA_ACCOUNT, 1020, '1001', MAYA)])
    offsetMs = TWO_DAYS_MS + 60 * 60 * 1000
    await server.jobs.send('attention-recheck', {})
    await debtTakenFrom(third, 2 * 10200 - 5100)
    // Stripe refused Northwind one reversal: order 1001's, its money gone. The debt was never
    // asked of Stripe while the third sale's funds were pending.
    const refused = server.stripe
      .calls()
      .filter((call) => call.operation === 'transfers.createReversal' && call.status !== 200)
    expect(refused).toHaveLength(1)
  })
})

describe('a debt whose taking Stripe failed', () => {
  /** Northwind owes 51.00 (its balance could not cover an overshirt's reversal). */
  async function northwindOwes() {
    world.server().stripe.setBalance(NORTHWIND_ACCOUNT, 'usd', 0)
    await northwindOwesOvershirt()
  }

  /**
   * Northwind's next sale is transferred; every try of the call that takes its debt back fails,
   * so that the taking's outcome is unknown to Tandem.
   */
  async function nextSaleAsTakingFails() {
    world.server().stripe.script({
      operation: 'transfers.createReversal',
      mode: 'fail',
      status: 500,
      target: NORTHWIND_ACCOUNT,
      times: STRIPE_ATTEMPTS,
    })
    const next = await world.customerBuys({ 'linen-overshirt': 2 })
    await world.transfer(next.orderId)
    return next
  }

  it("is taken on the job's retry, its unknown intent settled before the debt is counted", async () => {
    await world.transferred1001()
    await northwindOwes()
    const next = await nextSaleAsTakingFails()
    await debtTakenFrom(next)
  })

  it('is taken by the hourly recheck once the job has run out of retries', async () => {
    await world.start({ jobRetries: { limit: 0 } })
    await world.transfer('1001')
    await expect.poll(() => transferTo(world.server(), MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
    await northwindOwes()
    const next = await nextSaleAsTakingFails()
    await expect
      .poll(() => world.troubledJobs(), FOR_JOBS)
      .toEqual([expect.objectContaining({ kind: 'store-debt' })])
    await world.server().jobs.send('attention-recheck', {})
    await debtTakenFrom(next)
  })
})

describe('a creator that cannot cover the reversal of her commission', () => {
  it('owes it, and gives it back from her next commission', async () => {
    const server = await world.transferred1001()
    server.stripe.setBalance(MAYA_ACCOUNT, 'usd', 0)
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect
      .poll(() => world.activity('transfer.reversal-owed'), FOR_JOBS)
      .toEqual([
        expect.objectContaining({ party: 'CREATOR', storeShop: MAYA, amount: '10.20 USD' }),
      ])

    // Her next order earns her 20.40 on two overshirts: 10.20 of it goes back at once.
    const next = await world.customerBuys({ 'linen-overshirt': 2 })
    await world.transfer(next.orderId)
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([
        reversal(MAYA_ACCOUNT, 1020, next.orderId, MAYA),
        reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND),
      ])
    expect(server.stripe.balance(MAYA_ACCOUNT).usd).toBe(2040 - 1020)
  })
})

describe('a creator not paid yet', () => {
  /** Maya's payouts in Stripe, oldest first. */
  const paidToMaya = () =>
    world
      .server()
      .stripe.transfers()
      .filter((made) => made.destination === MAYA_ACCOUNT)
      .map((made) => made.amount)

  /**
   * Order 1001 transferred before Maya's account is set, then an overshirt refunded: Northwind
   * reversed, and Maya owed 17.10, which order 1001's charge no longer holds.
   */
  async function owedAfterRefund() {
    await world.start({ creatorAccount: false })
    await world.transfer('1001')
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND)])
    await expect
      .poll(() => world.commissionOwed(), FOR_JOBS)
      .toEqual([{ currency: 'USD', amount: '17.10', orders: 1 }])
  }

  it('is paid only what the order still earns her, once her account is set', async () => {
    await owedAfterRefund()
    await world.setAccount(MAYA, MAYA_ACCOUNT)
    await expect.poll(paidToMaya, FOR_JOBS).toEqual([1710])
    expect(world.reversals()).toEqual([reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND)])
  })

  it("waits while the platform's available balance cannot pay it, saying so, then is paid once", async () => {
    await owedAfterRefund()
    const { stripe } = world.server()
    // The platform's own payout took all its available balance.
    stripe.setPlatformBalance('usd', 0)
    const waiting = async () =>
      (
        await world.call('GET', `/admin-store-payment-account?shop=${encodeURIComponent(MAYA)}`)
      ).json().commissionWaitingReason as string | null

    await world.setAccount(MAYA, MAYA_ACCOUNT)
    await expect
      .poll(waiting, FOR_JOBS)
      .toBe(
        "The platform's available Stripe balance (0.00 USD, 0.00 USD pending) does not cover the commission of 17.10 USD, paid from it since the charge of creator order 1001 no longer holds it: it is paid once the available balance covers it (looked at hourly), or add funds to the platform's balance in Stripe",
      )
    expect(paidToMaya()).toEqual([])

    // Its balance covers the commission again: the hourly recheck pays it, once.
    stripe.setPlatformBalance('usd', 1710)
    await world.server().jobs.send('attention-recheck', {})
    await expect.poll(paidToMaya, FOR_JOBS).toEqual([1710])
    await expect.poll(waiting, FOR_JOBS).toBeNull()
    expect(stripe.platformBalance().available).toEqual({ usd: 0 })
    expect(await world.commissionOwed()).toEqual([])
  })
})

describe('a refund before the transfer completes', () => {
  it("takes back from the brands already paid, and lowers the creator's commission once it completes", async () => {
    await world.start()
    const server = world.server()
    // Stripe fails Lumen's transfer: the transfer stops with Northwind ordered and paid.
    await world.stoppedAtLumen()
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND)])

    server.stripe.unscript()
    await world.transfer('1001')
    // Maya is paid 27.30 less the overshirt's 10.20.
    await expect
      .poll(
        () =>
          server.stripe
            .transfers()
            .filter((made) => made.destination === MAYA_ACCOUNT)
            .map((made) => made.amount),
        FOR_JOBS,
      )
      .toEqual([1710])
    expect(world.reversals()).toEqual([reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND)])
  })
})
