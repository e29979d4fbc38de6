import { describe, expect, it } from 'vitest'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import { BOUNDARIES, crashHarness, LEASE_MS, STEPS } from './support/crash-harness'
import { LUMEN_ACCOUNT, MAYA_ACCOUNT } from './support/order-1001-transfer'

// The crash harness's second half (crash-harness.test.ts kills the server at every boundary): an
// answer lost on the way, the creator's commission killed mid-way, a lease lost by a stalled
// process, and 50 requests at once across two processes. Each time another run or process takes
// the order over, and each brand order, payment mark and transfer exists exactly once.

const {
  processOrder,
  processAfterTheLease,
  expectExactlyOnce,
  scenario,
  emulator,
  payments,
  start,
  setCreatorAccount,
  creatorOwed,
} = crashHarness()

describe('a lost answer through the real server', { timeout: 60_000 }, () => {
  it.each(STEPS)('of %s', async (operation) => {
    await scenario()
    const running = await start({ leaseMs: LEASE_MS })
    if (operation === 'createTransfer') {
      // Every try of the first attempt: the transfer is made, no answer is heard.
      payments().script({
        operation: 'transfers.create',
        mode: 'drop_after_write',
        target: LUMEN_ACCOUNT,
        times: 100,
      })
    } else {
      const mutation = operation === 'createOrder' ? 'orderCreate' : 'orderMarkAsPaid'
      emulator().script({ operation: mutation, mode: 'drop_after_write', shop: LUMEN })
    }
    const lost = await processOrder(running)
    payments().unscript()
    expect(lost.status).toBe(502)
    // The transfer's tries (a second, and more) outlast the call's deadline: the step times out,
    // and its lease is kept until the late tries can no longer land.
    expect(lost.message).toContain(
      operation === 'createTransfer'
        ? `the payment provider did not answer within ${LEASE_MS / 3} ms`
        : 'whether it was done is unknown',
    )
    expect(await processAfterTheLease(running)).toEqual({ status: 201, message: undefined })
    await expectExactlyOnce(running)
  })

  it('of createTransfer, not listed by Stripe yet: asked again under the same key, replayed', async () => {
    await scenario()
    const running = await start({ leaseMs: LEASE_MS })
    payments().script({
      operation: 'transfers.create',
      mode: 'drop_after_write',
      target: LUMEN_ACCOUNT,
      times: 100,
    })
    expect((await processOrder(running)).status).toBe(502)
    payments().unscript()
    // Reconciling finds nothing: only the key keeps the next attempt from paying again.
    payments().script({ operation: 'transfers.list', mode: 'stale', times: 100 })
    expect(await processAfterTheLease(running)).toEqual({ status: 201, message: undefined })
    await expectExactlyOnce(running)
    const keys = payments()
      .calls()
      .filter((call) => call.operation === 'transfers.create')
      .map((call) => call.idempotencyKey)
    expect(new Set(keys)).toEqual(
      new Set([`transfer:1001:${LUMEN}:usd`, `transfer:1001:${NORTHWIND}:usd`]),
    )
  })
})

describe(
  "the creator's commission, killed mid-way and paid by the next run",
  { timeout: 60_000 },
  () => {
    it.each(BOUNDARIES)('at creatorTransfer:%s', async (boundary) => {
      await scenario()
      payments().addAccount({ id: MAYA_ACCOUNT })
      const failpoint = `creatorTransfer:${boundary}`
      const doomed = await start({ failpoints: `${failpoint}=kill`, leaseMs: LEASE_MS })
      expect(await setCreatorAccount(doomed)).toBe(200)
      // The brands are paid; the commission's job, sent as the order completes, may kill the
      // process before or after its answer.
      await processOrder(doomed).catch(() => null)
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })
      await doomed.line(new RegExp(`^failpoint ${failpoint}: kill$`))

      const restarted = await start({ leaseMs: LEASE_MS })
      // Setting the account again pays what is owed, once the dead run's lease has run out.
      expect(await setCreatorAccount(restarted)).toBe(200)
      await expect.poll(() => creatorOwed(restarted), { timeout: 30_000 }).toEqual([])
      expect(
        payments()
          .transfers()
          .filter((transfer) => transfer.destination === MAYA_ACCOUNT)
          .map(({ amount, sourceTransaction }) => ({ amount, sourceTransaction })),
      ).toEqual([{ amount: 2730, sourceTransaction: 'ch_sandbox_order_1001' }])
      await expectExactlyOnce(restarted)
    })
  },
)

/**
 * Where a process stalls while another takes over. At createTransfer:before-call, the one taking
 * over sends the transfer under the same key (nothing was declined), and the lease keeps the
 * stalled one from sending it at all.
 */
const STALLS = [
  'createOrder:before-call',
  'createOrder:after-call',
  'markOrderAsPaid:before-intent',
  'createTransfer:before-call',
]

describe('a lease lost mid-way', { timeout: 60_000 }, () => {
  it.each(STALLS)(
    'at %s: another process takes over, the stalled one answers 409',
    async (failpoint) => {
      await scenario()
      const stalled = await start({ failpoints: `${failpoint}=pause`, leaseMs: LEASE_MS })
      const stalledAnswer = processOrder(stalled)
      await stalled.line(new RegExp(`^failpoint ${failpoint}: pause$`))

      const other = await start({ leaseMs: LEASE_MS })
      expect(await processAfterTheLease(other)).toEqual({ status: 201, message: undefined })

      stalled.child.kill('SIGUSR2')
      expect(await stalledAnswer).toEqual({
        status: 409,
        message:
          'Order transfer was taken over by another request while this one was held up: the preview shows where it stands',
      })
      await expectExactlyOnce(other)
    },
  )
})

describe('50 concurrent requests across two server processes', { timeout: 60_000 }, () => {
  it('answer one 201 and 49 409s, and make everything exactly once', async () => {
    await scenario()
    const servers = [await start(), await start()]
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => processOrder(servers[i % 2]!)),
    )
    const statuses = answers.map((answer) => answer.status).sort()
    const failed = servers.flatMap((each) =>
      each
        .output()
        .split('\n')
        .filter((line) => line.includes('"level":50')),
    )
    expect(failed).toEqual([])
    expect(statuses).toEqual([201, ...Array<number>(49).fill(409)])
    for (const answer of answers.filter((each) => each.status === 409)) {
      expect([
        'Order transfer is already being processed',
        'Order transfer already processed',
      ]).toContain(answer.message)
    }
    await expectExactlyOnce(servers[0]!)
  })
})
