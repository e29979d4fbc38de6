import { describe, expect, it } from 'vitest'
import { BOUNDARIES, crashHarness, LEASE_MS, STEPS } from './support/crash-harness'
import { LUMEN_ACCOUNT } from './support/order-1001-transfer'

// The crash harness: the real server in processes of its own, on SQLite (and on PostgreSQL when
// TANDEM_TEST_DATABASE_URL is set), killed with SIGKILL at every boundary of every remote step of
// processing, then started again to process once more. Whatever the moment, each brand order,
// payment mark and transfer exists exactly once, and the preview ends COMPLETED with their ids.
// Answers lost, leases lost and requests at once: crash-harness-takeover.test.ts.

const { processOrder, processAfterTheLease, expectExactlyOnce, scenario, payments, start } =
  crashHarness()

describe('killed with SIGKILL mid-way, then started again', { timeout: 60_000 }, () => {
  const boundaries = STEPS.flatMap((step) => BOUNDARIES.map((boundary) => `${step}:${boundary}`))

  it.each(boundaries)('at %s', async (failpoint) => {
    await scenario()
    const doomed = await start({ failpoints: `${failpoint}=kill`, leaseMs: LEASE_MS })
    await expect(processOrder(doomed)).rejects.toThrow()
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })
    await doomed.line(new RegExp(`^failpoint ${failpoint}: kill$`))

    const restarted = await start({ leaseMs: LEASE_MS })
    expect(await processAfterTheLease(restarted)).toEqual({ status: 201, message: undefined })
    await expectExactlyOnce(restarted)
  })
})

describe('killed while retrying a transfer Stripe declined', { timeout: 60_000 }, () => {
  it.each(BOUNDARIES)('at createTransfer:%s', async (boundary) => {
    await scenario()
    // Declined once Stripe began: saved under the first attempt's key, replayed to it for a day.
    payments().script({
      operation: 'transfers.create',
      mode: 'fail_saved',
      status: 400,
      target: LUMEN_ACCOUNT,
    })
    const running = await start({ leaseMs: LEASE_MS })
    expect((await processOrder(running)).status).toBe(502)

    // The retry goes under a new key, and is killed at each of its boundaries.
    const failpoint = `createTransfer:${boundary}`
    const doomed = await start({ failpoints: `${failpoint}=kill`, leaseMs: LEASE_MS })
    await expect(processOrder(doomed)).rejects.toThrow()
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })
    await doomed.line(new RegExp(`^failpoint ${failpoint}: kill$`))

    expect(await processAfterTheLease(running)).toEqual({ status: 201, message: undefined })
    await expectExactlyOnce(running)
  })
})
