import { afterEach, describe, expect, it } from 'vitest'
import { REFUND_CATCH_UP_JOB } from '../../server/src/refunds/refund-catch-up'
import { ORDER_REFUND_JOB } from '../../server/src/transfers/order-refunds'
import { NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import { jobsEnded, jobStates, jobTableOf } from './support/job-states'
import {
  creatorStopsRefundNews,
  FOR_JOBS,
  MAYA,
  MAYA_ACCOUNT,
  ORDER_1001,
  refundWorld,
  reversal,
  transferTo,
} from './support/refund-world'
import { usesPostgres } from './support/server-under-test'

// Refunds whose webhooks never came (issue 45, attack 8): Maya deletes her subscriptions to
// refunds/create and orders/cancelled, then refunds an overshirt of order 1001 in Shopify and
// Stripe. The refund catch-up, as its schedule runs it, reads her orders changed since it last
// looked and sends the refund job: Northwind gives back 51.00 and Maya 10.20, once, and
// Northwind's order refunds the overshirt.

const world = refundWorld()
afterEach(() => world.server().close())

/** A run of the catch-up as its schedule sends it, waited for with the refund jobs it sent. */
async function catchUp() {
  const server = world.server()
  expect(await server.jobs.send(REFUND_CATCH_UP_JOB, {})).not.toBeNull()
  const jobTable = await jobTableOf(server.db, usesPostgres(), true)
  await jobsEnded(server.db, jobTable, [REFUND_CATCH_UP_JOB], FOR_JOBS)
  // A catch-up sends its refund jobs before it ends: once they ended, nothing more moves.
  await jobsEnded(server.db, jobTable, [ORDER_REFUND_JOB], FOR_JOBS)
}

/** One overshirt's share back from Northwind and Maya, as Stripe and Northwind's Shopify show it. */
async function expectOneOvershirtBack() {
  const server = world.server()
  expect(world.reversals()).toEqual([
    reversal(MAYA_ACCOUNT, 1020, '1001', MAYA),
    reversal(NORTHWIND_ACCOUNT, 5100, '1001', NORTHWIND),
  ])
  // Paid 102.00 and 27.30, each less what went back.
  expect(server.stripe.balance(NORTHWIND_ACCOUNT).usd).toBe(5100)
  expect(server.stripe.balance(MAYA_ACCOUNT).usd).toBe(1710)
  const northwindOrder = world.brandOrder(NORTHWIND, '1001')
  expect(
    server.shopify.refunds(NORTHWIND, northwindOrder.id).map(({ amount, lines }) => ({
      amount,
      lines: lines.map(({ line, quantity }) => ({ line, quantity })),
    })),
  ).toEqual([{ amount: '0.00', lines: [{ line: 0, quantity: 1 }] }])
}

/**
 * Order 1001 transferred and Maya paid, on a server whose jobs are not retried (one that fails
 * gives up at once) and whose clock `hourOn` moves 61 minutes on.
 */
async function transferredWithJobsGivingUp() {
  let later = 0
  const server = await world.start({
    jobRetries: { limit: 0 },
    now: () => new Date(Date.now() + later),
  })
  await world.transfer('1001')
  await expect.poll(() => transferTo(server, MAYA_ACCOUNT)?.amount, FOR_JOBS).toBe(2730)
  return { server, hourOn: () => void (later = 61 * 60_000) }
}

describe('the refund catch-up', () => {
  it('reverses a refund whose webhook never came, once, however often it looks', async () => {
    const server = await world.transferred1001()
    await creatorStopsRefundNews(server.shopify)
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    // Shopify told the server nothing: nothing moved.
    expect(world.reversals()).toEqual([])

    await catchUp()
    await expectOneOvershirtBack()
    // Looked again (Stripe's charge read this time too), and again: nothing more moves.
    await catchUp()
    await catchUp()
    await expectOneOvershirtBack()
  })

  it('moves a refund seen by its webhook and by the catch-up once', async () => {
    await world.transferred1001()
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect.poll(world.reversals, FOR_JOBS).toHaveLength(2)

    await catchUp()
    await expectOneOvershirtBack()
    // Both sent the refund job, and both ran.
    const server = world.server()
    const jobTable = await jobTableOf(server.db, usesPostgres(), true)
    expect(await jobStates(server.db, jobTable, ORDER_REFUND_JOB)).toEqual(['done', 'done'])
  })

  it('reverses a refund made in Shopify once Stripe shows the customer refunded, after its job gave up', async () => {
    // The refund's job gives up at once while the customer waits; the clock is moved on below,
    // past the hour before a charge is read again.
    const { server, hourOn } = await transferredWithJobsGivingUp()
    await creatorStopsRefundNews(server.shopify)
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }], { stripeToo: false })
    await catchUp()
    expect(world.reversals()).toEqual([])
    // The Jobs page names it: Stripe shows nothing refunded.
    expect(await world.troubledJobs()).toEqual([
      expect.objectContaining({
        kind: ORDER_REFUND_JOB,
        errorMessage: expect.stringMatching(/Stripe/),
      }),
    ])
    // Stripe read: nothing refunded yet, nothing sent.
    await catchUp()
    expect(world.reversals()).toEqual([])

    // Maya's payment app refunds the customer; the charge is read again an hour later.
    server.stripe.refund(ORDER_1001.chargeId, 6800)
    await catchUp()
    expect(world.reversals()).toEqual([])
    hourOn()
    await catchUp()
    await expectOneOvershirtBack()
  })

  it('settles a reversal whose outcome Stripe left unknown after its job gave up, its creator gone since', async () => {
    // The clock is moved on below, past the hour a reversal's outcome may stay unknown before
    // its order's job is sent again.
    const { server, hourOn } = await transferredWithJobsGivingUp()
    // Stripe fails every reversal of Northwind's transfer: its intent is left with no outcome.
    server.stripe.script({
      operation: 'transfers.createReversal',
      mode: 'fail',
      status: 500,
      target: NORTHWIND_ACCOUNT,
      times: 1000,
    })
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    await expect
      .poll(world.reversals, FOR_JOBS)
      .toEqual([reversal(MAYA_ACCOUNT, 1020, '1001', MAYA)])
    // The catch-ups that see the refund in Shopify, then the charge in Stripe, send the job again:
    // Stripe still fails it.
    await catchUp()
    await catchUp()
    expect(world.reversals()).toEqual([reversal(MAYA_ACCOUNT, 1020, '1001', MAYA)])

    // Maya uninstalls the app: her orders can no longer be read. Stripe answers again; nothing
    // has changed in Shopify or Stripe since, but the intent is still unsettled an hour on: its
    // order's job is sent again and sends the 51.00 it decided, with nothing to read of Maya's.
    await server.shopify.uninstall(MAYA)
    server.stripe.unscript()
    hourOn()
    await catchUp()
    await expectOneOvershirtBack()
    await catchUp()
    await expectOneOvershirtBack()
  })

  it('sends the job again, hourly, until a run settles the refund its failed jobs left', async () => {
    const { server, hourOn } = await transferredWithJobsGivingUp()
    await creatorStopsRefundNews(server.shopify)
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    // Maya's Shopify fails the refund job's reads of her order for a while (an outage, or her
    // app's budget spent): the jobs the catch-ups send, on seeing the order changed and then its
    // charge refunded, both give up before anything is reversed.
    server.shopify.script({ operation: 'order', shop: MAYA, mode: 'error', status: 400, times: 2 })
    await catchUp()
    await catchUp()
    expect(await world.troubledJobs()).toEqual([
      expect.objectContaining({ kind: ORDER_REFUND_JOB }),
      expect.objectContaining({ kind: ORDER_REFUND_JOB }),
    ])
    expect(world.reversals()).toEqual([])
    // Shopify answers again, and nothing moves in Shopify or Stripe; an hour after the last news
    // the refund, still unsettled, is looked at again, and settled.
    hourOn()
    await catchUp()
    await expectOneOvershirtBack()
    await catchUp()
    await expectOneOvershirtBack()
  })

  it('resumes from where it last looked when a look failed', async () => {
    const server = await world.transferred1001()
    await creatorStopsRefundNews(server.shopify)
    await catchUp()
    await world.creatorRefunds(ORDER_1001, [{ line: 0, quantity: 1 }])
    // Maya's Shopify refuses the look: nothing is recorded as seen, nothing moves.
    server.shopify.script({ operation: 'orders', shop: MAYA, mode: 'error', status: 400 })
    await catchUp()
    expect(world.reversals()).toEqual([])
    expect(server.jobLog.map(({ message }) => message)).toEqual([
      expect.stringMatching(`^Refunds of ${MAYA} not caught up: `),
    ])

    const looks = server.shopify.calls(MAYA, 'orders')
    await catchUp()
    await expectOneOvershirtBack()
    // One page: from where the last look that succeeded stopped, not from the first transfer.
    expect(server.shopify.calls(MAYA, 'orders')).toBe(looks + 1)
  })
})
