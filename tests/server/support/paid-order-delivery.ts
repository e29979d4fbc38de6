import { sql } from 'kysely'
import { expect } from 'vitest'
import { JOB_SCHEMA } from '../../../server/src/jobs/open-job-queue'
import { sandboxApp } from '../../../server/src/seed/sandbox-data'
import { WEBHOOK_JOB } from '../../../server/src/services/webhook-inbox'
import type { crashScenarios } from './crash-scenario'
import type { ServerProcess } from './server-process'
import { signBody } from './signed-webhook'

// Shopify's delivery of Maya's order 5001 paid to a real server process, as the webhook crash
// tests and the database fault tests send it, and what they hold whatever happened to its job:
// acted on once, its order listed once, a resend ignored.

/**
 * Twice the longest takeover of a dead worker's job (about 15 s on PostgreSQL, on a short job
 * lease), for a loaded machine.
 */
const TAKEOVER_DEADLINE_MS = 120_000

export const MAYA = 'maya-makes.myshopify.com'
export const ORDER_ID = 5001
const PAID_ORDER = {
  id: ORDER_ID,
  admin_graphql_api_id: `gid://shopify/Order/${ORDER_ID}`,
  name: `#${ORDER_ID}`,
  created_at: '2026-11-20T10:00:00Z',
  currency: 'USD',
  total_price: '12.00',
  line_items: [],
}

export function paidOrderDelivery(crash: ReturnType<typeof crashScenarios>) {
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

  return { deliver, expectDoneOnce }
}
