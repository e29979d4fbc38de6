import type { Db } from '../db/connect'
import { underLeaseInTurn } from '../db/lease'
import type { RouteDeps } from '../deps'
import { withDeadline } from '../lib/remote-call'
import { orderCharge } from '../transfers/creator-payout-checks'
import { noticeRefund, sendRefundJob } from '../transfers/order-refunds'
import { transferTiming } from '../transfers/transfer-timing'
import { ordersUnsettled } from '../repositories/refund-notices'
import {
  chargesToRead,
  recordChargeReading,
  recordLook,
  recordShopifyChange,
  shopsToLookAt,
  transferredAmong,
} from './catch-up-records'

// Refunds are learned from refunds/create and orders/cancelled, which Shopify does not promise to
// deliver (an outage past its retries, a rotated app secret, a creator deleting its own
// subscription). So every quarter of an hour this reads what moved since it last looked, for the
// orders transferred in the last 90 days, and sends the refund job (transfers/order-refunds.ts,
// the one a webhook sends, which bears any number of runs) where something did:
// - Shopify: each creator shop's orders changed since its last look (updated_at), a page of 100
//   at a time, 20 pages a catch-up; a transferred order refunded or cancelled, changed since the
//   catch-up last sent it a job, is noticed as its webhook would have noticed it.
// - Stripe: the charges of the orders Shopify shows refunded (a refund in Shopify alone moves
//   nothing until the customer is refunded), each read at most once an hour, 100 per catch-up,
//   until one is refunded in full; a charge refunded further than last read gets the job.
// - Tandem: an order whose refunds were news since its refund job last ended settled (its runs
//   failed past their retries: Shopify or Stripe failing for hours, a reversal's outcome unknown)
//   gets the job again an hour after the last news, and every hour until a run settles it.
// Where each look stopped is recorded page by page, with the job it sends, so that a crash loses
// nothing: the next look reads again from the last recorded page.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'payments' | 'commerce' | 'now' | 'transferTiming'>

export const REFUND_CATCH_UP_JOB = 'refund-catch-up'

const DAY_MS = 86_400_000
/** How long after its transfer an order's refunds are looked for. */
const FOLLOWED_FOR_MS = 90 * DAY_MS
/**
 * How far behind Tandem's clock Shopify's search index may be: a look never records that it saw
 * past this long ago, so the next reads the last stretch again (what it sent a job for is not
 * sent again).
 */
const SEARCH_LAG_MS = 10 * 60_000
/**
 * Pages of a shop's changes read per catch-up at most (2,000 orders): a busy shop's rest waits for
 * the next, which starts where this one recorded it stopped.
 */
const PAGES_PER_SHOP = 20
const CHARGE_READ_AGAIN_AFTER_MS = 60 * 60_000
/** How long after the last news of an unsettled order its job is sent again. */
const UNSETTLED_FOR_MS = 60 * 60_000
/** Charges read per catch-up at most: the rest wait for the next. */
const CHARGES_PER_CATCH_UP = 100

/**
 * Where the crash harness kills the server: after Shopify showed a refund and before its job was
 * sent; after it was sent and before the catch-up recorded it.
 */
export const REFUND_CATCH_UP_FAILPOINTS = [
  'refund-catch-up:learned',
  'refund-catch-up:sent',
] as const

/**
 * One catch-up: Shopify's changes, then Stripe's refunds; a failing shop is logged and skipped.
 * `signal`: a stopping server has it end after the page or charge under way (what it did is
 * recorded), so that the database is not closed under it.
 */
export async function catchUpRefunds(
  deps: Deps,
  log: (message: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const timing = transferTiming(deps.transferTiming)
  // One process at a time; one started meanwhile looks after it, from where it stopped.
  await underLeaseInTurn(
    deps.db,
    REFUND_CATCH_UP_JOB,
    { ttlMs: timing.leaseMs, now: deps.now, pollMs: 250 },
    async () => {
      const since = new Date(deps.now().getTime() - FOLLOWED_FOR_MS).toISOString()
      const sent = new Set<string>()
      for (const { shop, from } of await shopsToLookAt(deps.db, since, SEARCH_LAG_MS)) {
        if (signal?.aborted) return
        await lookAtShop(deps, { shop, from, since }, sent, signal).catch((error: unknown) =>
          log(`Refunds of ${shop} not caught up: ${messageOf(error)}`),
        )
      }
      await readCharges(deps, { since, sent, signal }, log)
      await lookAgainAtUnsettled(deps, { since, sent })
    },
  )
}

/** The shop's orders changed from `from` on; `sent` gains the orders sent a refund job. */
async function lookAtShop(
  deps: Deps,
  look: { shop: string; from: string; since: string },
  sent: Set<string>,
  signal: AbortSignal | undefined,
) {
  const { shop, since } = look
  const { failpoint } = transferTiming(deps.transferTiming)
  const startedAt = deps.now().getTime()
  // Changes newer than this may not be searchable yet: the next look reads them again.
  const seenUpTo = new Date(startedAt - SEARCH_LAG_MS).toISOString()
  const upTo = (updatedAt: string) => (updatedAt < seenUpTo ? updatedAt : seenUpTo)
  let pages = 0
  let stoppedShort = false
  await deps.commerce.readOrdersChangedSince(shop, look.from, async (orders) => {
    const moved = orders.filter((order) => order.refundedOrCancelled)
    const transferred = await transferredAmong(
      deps.db,
      shop,
      moved.map((order) => String(order.id)),
      since,
    )
    for (const order of moved) {
      const id = String(order.id)
      if (!transferred.has(id) || transferred.get(id) === order.updatedAt) continue
      await failpoint('refund-catch-up:learned')
      // As the webhook's delivery does: noticed, and its refund job sent, in one transaction.
      await noticeRefund(deps, id, shop)
      await failpoint('refund-catch-up:sent')
      await recordShopifyChange(deps.db, id, order.updatedAt)
      sent.add(id)
    }
    const last = orders.at(-1)
    if (last) await recordLook(deps.db, shop, upTo(last.updatedAt), deps.now().toISOString())
    stoppedShort = orders.length > 0 && (++pages === PAGES_PER_SHOP || signal?.aborted === true)
    return orders.length > 0 && !stoppedShort
  })
  // Every change up to the search index's lag was read, unless the look stopped short.
  if (!stoppedShort) await recordLook(deps.db, shop, seenUpTo, deps.now().toISOString())
}

/** The charges of orders refunded in Shopify, read again; those sent a job this time are left. */
async function readCharges(
  deps: Deps,
  { since, sent, signal }: { since: string; sent: Set<string>; signal: AbortSignal | undefined },
  log: (message: string) => void,
) {
  const timing = transferTiming(deps.transferTiming)
  const readBefore = new Date(deps.now().getTime() - CHARGE_READ_AGAIN_AFTER_MS).toISOString()
  const due = await chargesToRead(deps.db, since, readBefore, CHARGES_PER_CATCH_UP)
  for (const row of due) {
    const id = row.creator_order_id
    if (signal?.aborted) return
    if (sent.has(id)) continue
    try {
      const charge = await orderCharge(deps, id, (call) =>
        withDeadline(timing.remoteTimeoutMs, call),
      )
      const reading = {
        refundedMinor: charge.refundedMinor,
        inFull: charge.refundedMinor >= charge.capturedMinor,
        at: deps.now().toISOString(),
      }
      await deps.db.transaction().execute(async (trx: Db) => {
        await recordChargeReading(trx, id, reading)
        if (charge.refundedMinor > (row.charge_refunded_minor ?? 0)) {
          await sendRefundJob(deps, trx, id)
        }
      })
    } catch (error) {
      log(`The charge of creator order ${id} was not read: ${messageOf(error)}`)
    }
  }
}

/**
 * The orders whose refunds are not settled since their last news, an hour on: news again, and
 * their job sent (unless sent it now).
 */
async function lookAgainAtUnsettled(
  deps: Deps,
  { since, sent }: { since: string; sent: Set<string> },
) {
  const now = deps.now()
  const quietSince = new Date(now.getTime() - UNSETTLED_FOR_MS).toISOString()
  const unsettled = await ordersUnsettled(deps.db, since, quietSince)
  await deps.db.transaction().execute(async (trx: Db) => {
    for (const { creator_order_id: id } of unsettled) {
      if (sent.has(id)) continue
      await sendRefundJob(deps, trx, id)
    }
  })
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
