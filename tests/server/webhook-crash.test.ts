import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { WEBHOOK_FAILPOINTS } from '../../server/src/services/webhook-inbox'
import { crashScenarios } from './support/crash-scenario'
import { orderInShop } from './support/order-in-shop'
import { MAYA, ORDER_ID, paidOrderDelivery } from './support/paid-order-delivery'

// The webhook inbox's crash tests: the real server in processes of its own, on SQLite (and on
// PostgreSQL when TANDEM_TEST_DATABASE_URL is set), killed with SIGKILL once a signed delivery was
// answered 200, where its job stands before acting or after acting and before marking it done.
// Another process, started after the kill or already running beside the killed one, takes the job
// over once the dead worker's claim runs out: the delivery ends done, its order listed once, its
// job done rather than dead, and Shopify's resend of it ignored.

/**
 * Short, so that a killed worker's claim runs out soon: a few seconds on SQLite. pg-boss takes
 * heartbeats of 10 s at the least, looks for lost ones every lease, and then waits the job's
 * retry delay (shortened below to 1 s from a delivery's 15): about 15 s on PostgreSQL.
 */
const JOB_LEASE_MS = 3000

const crash = crashScenarios()
const { deliver, expectDoneOnce } = paidOrderDelivery(crash)
const start = (failpoints?: string) =>
  crash.current().start({
    jobLeaseMs: JOB_LEASE_MS,
    jobRetryDelaySeconds: 1,
    ...(failpoints ? { failpoints } : {}),
  })

describe('killed with SIGKILL in a delivery’s job', { timeout: 180_000 }, () => {
  it.each(WEBHOOK_FAILPOINTS)('at %s, then started again', async (failpoint) => {
    await crash.begin()
    await orderInShop(crash.current(), MAYA, ORDER_ID)
    const doomed = await start(`${failpoint}=kill`)
    const webhookId = randomUUID()
    expect(await deliver(doomed, webhookId)).toEqual({ status: 200, body: { received: true } })
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })
    await doomed.line(new RegExp(`^failpoint ${failpoint}: kill$`))

    const restarted = await start()
    await expectDoneOnce(restarted, webhookId)
  })

  it.each(WEBHOOK_FAILPOINTS)('at %s, beside another running process', async (failpoint) => {
    await crash.begin()
    await orderInShop(crash.current(), MAYA, ORDER_ID)
    // Held at the failpoint until the other process runs, then killed there: a process that was
    // already running takes the job over.
    const doomed = await start(`${failpoint}=pause`)
    const webhookId = randomUUID()
    expect(await deliver(doomed, webhookId)).toEqual({ status: 200, body: { received: true } })
    await doomed.line(new RegExp(`^failpoint ${failpoint}: pause$`))
    const other = await start()
    doomed.child.kill('SIGKILL')
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })

    await expectDoneOnce(other, webhookId)
  })
})
