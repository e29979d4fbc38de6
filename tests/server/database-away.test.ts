import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { crashScenarios } from './support/crash-scenario'
import { order1001Transfer } from './support/order-1001-transfer'
import { orderInShop } from './support/order-in-shop'
import { ownPostgres } from './support/own-postgres'
import { MAYA, ORDER_ID, paidOrderDelivery } from './support/paid-order-delivery'
import type { ServerProcess } from './support/server-process'

// The database going away under a running server (PostgreSQL only, on a cluster of this file's
// own): stopped and started again, as a restart or a failover does, and frozen for 20 s, as a
// stalled host is. Meanwhile an order's transfer and a webhook's job are under way, each held at a
// failpoint until the database is gone. The server process stays up, answers 503 with
// Retry-After while the database is away and 200 once it is back, with no restart; the transfer
// and the job then finish, each brand order and transfer made once, the delivery acted on once.

/** In the server's DATABASE_URL (the cluster trusts without asking for it), never in its log. */
const PASSWORD = `never-logged-${randomUUID()}`

const cluster = ownPostgres()
const crash = crashScenarios({
  postgresUrl: () => {
    const url = new URL(cluster.current().url)
    url.password = PASSWORD
    return url.toString()
  },
})
const { processOrder, processAfterTheLease, expectExactlyOnce } = order1001Transfer(crash)
const { deliver, expectDoneOnce } = paidOrderDelivery(crash)

const AWAY = {
  error: 'unavailable',
  message: 'The database cannot be reached right now: try again in a moment',
}

/** How long the server has to notice the database gone, or back. */
const NOTICE = { timeout: 20_000, interval: 250 }

/**
 * An administrator's read of the orders inbox, and the health check: statuses and bodies, or "no
 * answer" within 3 s (a read sent just before the server noticed a frozen database waits for it).
 */
async function answers(on: ServerProcess) {
  const ask = (path: string, headers = {}) =>
    fetch(`${on.url}${path}`, { headers, signal: AbortSignal.timeout(3_000) })
  try {
    const inbox = await ask('/admin-creator-orders?q=1001', crash.admin())
    const health = await ask('/healthz')
    return {
      inbox: inbox.status,
      retryAfter: inbox.headers.get('retry-after'),
      body: inbox.status === 200 ? 'orders' : await inbox.json(),
      health: { status: health.status, body: await health.json() },
    }
  } catch {
    // A process that died says why.
    if (on.child.exitCode === null) return 'no answer'
    const error = on
      .output()
      .split('\n')
      .filter((line) => /Error|Emitted/.test(line))
    return `exited ${on.child.exitCode}: ${error.slice(0, 3).join('\n')}`
  }
}

const whileAway = {
  inbox: 503,
  retryAfter: '5',
  body: AWAY,
  health: { status: 503, body: { status: 'database-away', message: AWAY.message } },
}
const onceBack = {
  inbox: 200,
  retryAfter: null,
  body: 'orders',
  health: { status: 200, body: { status: 'ok' } },
}

/**
 * A server with order 1001's transfer and order 5001's webhook job each held at a failpoint, the
 * transfer after Lumen's order was made and before it was recorded, the job before it acts.
 */
async function busyServer() {
  await crash.begin()
  await orderInShop(crash.current(), MAYA, ORDER_ID)
  const server = await crash.startTakenOverSoon(
    'createOrder:after-call=pause,shopify-webhook:before-act=pause',
  )
  expect(await answers(server)).toEqual(onceBack)
  // Its answer is awaited once the database is back; a process that died answers nothing.
  const transfer = processOrder(server).catch((error: unknown) => ({ failed: String(error) }))
  const webhookId = randomUUID()
  expect(await deliver(server, webhookId)).toEqual({ status: 200, body: { received: true } })
  await server.line(/^failpoint createOrder:after-call: pause$/)
  await server.line(/^failpoint shopify-webhook:before-act: pause$/)
  return { server, transfer, webhookId }
}

/** What the transfer held while the database went away answered, then what processing it again did. */
type Outcome = [{ status: number; message?: string }, { status: number; message?: string }]
/** It gave up part way, and processed again, it finished what was left. */
const REFUSED_THEN_DONE: Outcome = [{ status: 503, message: AWAY.message }, { status: 201 }]
/** It waited for the database and finished. */
const WAITED_AND_DONE: Outcome = [
  { status: 201 },
  { status: 409, message: 'Order transfer already processed' },
]
/**
 * It waited for the database, whose freeze outlasted its lease (3.6 s): its next write, fenced by
 * the lease, refused to go on, and processed again, it finished what was left. Which of the three a
 * frozen database gives depends on whether the held query's wait or the pool's 10 s ends first.
 */
const WAITED_PAST_ITS_LEASE_THEN_DONE: Outcome = [
  {
    status: 409,
    message:
      'Order transfer was taken over by another request while this one was held up: the preview shows where it stands',
  },
  { status: 201 },
]

/**
 * Once the database is back: served again, the held transfer answered as one of `outcomes`, and
 * each brand order and transfer, and the delivery's job, done exactly once.
 */
async function expectCarriedOn(busy: Awaited<ReturnType<typeof busyServer>>, outcomes: Outcome[]) {
  const { server } = busy
  await expect.poll(() => answers(server), NOTICE).toEqual(onceBack)
  const held = await busy.transfer
  expect(outcomes).toContainEqual([held, await processAfterTheLease(server)])
  await expectExactlyOnce(server)
  await expectDoneOnce(server, busy.webhookId)
  expect(server.child.exitCode).toBe(null)
  // What an operator reads in the log: once that the database went, once that it came back.
  const said = (words: string) =>
    server
      .output()
      .split('\n')
      .filter((line) => line.includes(words)).length
  expect([said('The database cannot be reached:'), said('The database answers again:')]).toEqual([
    1, 1,
  ])
  expect(server.output()).not.toContain(PASSWORD)
}

it(
  'stopped and started again: 503 meanwhile, then everything goes on',
  { timeout: 90_000 },
  async () => {
    const busy = await busyServer()
    const { server } = busy
    await cluster.current().stop()
    try {
      // The held work goes on against a database that is gone.
      server.child.kill('SIGUSR2')
      await expect.poll(() => answers(server), NOTICE).toEqual(whileAway)
    } finally {
      await cluster.current().start()
    }
    // Its next write found the database gone.
    await expectCarriedOn(busy, [REFUSED_THEN_DONE])
  },
)

it('frozen for 20 s: 503 meanwhile, then everything goes on', { timeout: 90_000 }, async () => {
  const busy = await busyServer()
  const { server } = busy
  const frozenAt = Date.now()
  cluster.current().pause()
  try {
    server.child.kill('SIGUSR2')
    await expect.poll(() => answers(server), NOTICE).toEqual(whileAway)
    // Frozen for the 20 s a stalled host may take before it answers again.
    await new Promise((resolve) => setTimeout(resolve, frozenAt + 20_000 - Date.now()))
  } finally {
    cluster.current().resume()
  }
  // Its next query waited on a pooled connection, or gave up waiting for a new one (10 s).
  await expectCarriedOn(busy, [WAITED_AND_DONE, WAITED_PAST_ITS_LEASE_THEN_DONE, REFUSED_THEN_DONE])
})
