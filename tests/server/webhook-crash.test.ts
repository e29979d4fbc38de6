import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { JOB_SCHEMA } from '../../server/src/jobs/open-job-queue'
import { sandboxApp } from '../../server/src/seed/sandbox-data'
import { WEBHOOK_FAILPOINTS, WEBHOOK_JOB } from '../../server/src/services/webhook-inbox'
import { crashScenarios } from './support/crash-scenario'
import type { ServerProcess } from './support/server-process'
import { orderInShop } from './support/order-in-shop'
import { signBody } from './support/signed-webhook'

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
/** Twice the longest takeover above, for a loaded machine. */
const TAKEOVER_DEADLINE_MS = 120_000

const MAYA = 'maya-makes.myshopify.com'
const ORDER_ID = 5001
const PAID_ORDER = {
  id: ORDER_ID,
  admin_graphql_api_id: `gid://shopify/Order/${ORDER_ID}`,
  name: `#${ORDER_ID}`,
  created_at: '2026-11-20T10:00:00Z',
  currency: 'USD',
  total_price: '12.00',
  line_items: [],
}

const crash = crashScenarios()
const start = (failpoints?: string) =>
  crash.current().start({
    jobLeaseMs: JOB_LEASE_MS,
    jobRetryDelaySeconds: 1,
    ...(failpoints ? { failpoints } : {}),
  })

/** Shopify's delivery of order 5001 paid, signed with Maya's app as Shopify signs it. */
async function deliver(on: ServerProcess, webhookId: string): Promise<unknown> {
  const body = JSON.stringify(PAID_ORDER)
  const response = await fetch(`${on.url}/webhooks/shopify`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-shop-domain': MAYA,
      'x-shopify-topic': 'orders/paid',
      'x-shopify-webhook-id': webhookId,
      'x-shopify-hmac-sha256': signBody(body, sandboxApp(MAYA).clientSecret),
    },
    body,
  })
  return { status: response.status, body: await response.json() }
}

const PG_BOSS_STATES: Record<string, string> = { completed: 'done', failed: 'dead' }

/** Whether the delivery was acted on and marked done, and the states of the webhook jobs. */
async function inbox(webhookId: string) {
  const db = await crash.current().db()
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .select('done_at')
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst()
  // pg-boss keeps its jobs in its own schema, under names of its own for done and dead.
  const table = crash.current().database.env.DATABASE_URL ? `${JOB_SCHEMA}.job` : 'jobs'
  const jobs = await sql<{ state: string }>`
    SELECT state FROM ${sql.table(table)} WHERE name = ${WEBHOOK_JOB}
  `.execute(db)
  return {
    done: Boolean(delivery?.done_at),
    jobs: jobs.rows.map(({ state }) => PG_BOSS_STATES[state] ?? state),
  }
}

/** Waits, polling, until the delivery is done and its one job ended; answers what it found. */
async function settled(webhookId: string) {
  const deadline = Date.now() + TAKEOVER_DEADLINE_MS
  for (;;) {
    const found = await inbox(webhookId)
    const ended = found.jobs.every((state) => state === 'done' || state === 'dead')
    if ((found.done && ended) || Date.now() > deadline) return found
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function ordersListed(on: ServerProcess) {
  const response = await fetch(`${on.url}/admin-creator-orders?q=${ORDER_ID}`, {
    headers: crash.admin(),
  })
  const { orders } = (await response.json()) as {
    orders: { id: string; name: string; creatorStoreShop: string }[]
  }
  return orders.map(({ id, name, creatorStoreShop }) => ({ id, name, creatorStoreShop }))
}

/** The delivery acted on once: done, its order listed once, its job done, a resend ignored. */
async function expectDoneOnce(on: ServerProcess, webhookId: string) {
  expect(await settled(webhookId)).toEqual({ done: true, jobs: ['done'] })
  expect(await ordersListed(on)).toEqual([
    { id: String(ORDER_ID), name: `#${ORDER_ID}`, creatorStoreShop: MAYA },
  ])
  expect(await deliver(on, webhookId)).toEqual({
    status: 200,
    body: { received: 'again, ignored' },
  })
  expect(await inbox(webhookId)).toEqual({ done: true, jobs: ['done'] })
}

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
