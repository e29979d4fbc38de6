import { storeName, type AttentionReasonView, type OrderReadiness } from '@shared/contract'
import { remedyOf, type AttentionKind } from '../domain/attention'
import type { Db } from '../db/connect'
import type { AutomationState } from '../db/schema'

// What the orders inbox says will happen to each order (docs/product-rules.md "Automatic
// transfers"), from what Tandem recorded: the order's transfer (completed, under a lease) first,
// then an administrator's hold, then where its automatic processing stands (a paused brand among
// it), then a partial transfer, and otherwise that an administrator processes it.

/** One inbox row's columns this reads. */
export interface ReadinessColumns {
  orderId: string
  /** The creator's store the order was placed on. */
  storeShop: string
  transferStatus: 'PARTIAL' | 'COMPLETED' | null
  leaseExpiresAt: string | null
  automation: { state: AutomationState; dueAt: string | null; message: string | null } | null
  /** An administrator's hold on the order. */
  hold: Held | null
  /** The pause of the brand its automatic processing stopped at. */
  pause: (Held & { shop: string }) | null
}

interface Held {
  reason: string
  by: string | null
  since: string
}

/** The readiness of each row, in the rows' order; `now` tells a lease held and a time come. */
export async function readinessOf(
  db: Db,
  rows: readonly ReadinessColumns[],
  now: Date,
): Promise<OrderReadiness[]> {
  const ids = rows.map((row) => row.orderId)
  const [reasons, failures] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .selectFrom('order_attention')
            .select(['creator_order_id', 'kind', 'brand_store_shop', 'sentence'])
            .where('creator_order_id', 'in', ids)
            .orderBy('creator_order_id')
            .orderBy('position')
            .execute(),
          db
            .selectFrom('order_transfer_brands')
            .select(['creator_order_id', 'brand_store_shop', 'failed_step', 'failed_message'])
            .where('creator_order_id', 'in', ids)
            .where('failed_step', 'is not', null)
            .orderBy('brand_store_shop')
            .execute(),
        ])
  const reasonsOf = (row: ReadinessColumns): AttentionReasonView[] =>
    reasons
      .filter((reason) => reason.creator_order_id === row.orderId)
      .map((reason) => ({
        sentence: reason.sentence,
        remedy: remedyOf(reason.kind as AttentionKind, reason.brand_store_shop, {
          id: row.orderId,
          storeShop: row.storeShop,
        }),
      }))
  const failureOf = (id: string) => {
    const failed = failures.find((failure) => failure.creator_order_id === id)
    return failed
      ? `${failed.failed_step} for ${storeName(failed.brand_store_shop)}: ${failed.failed_message ?? ''}`
      : 'a brand step failed'
  }
  return rows.map((row) => readiness(row, now.toISOString(), reasonsOf, failureOf))
}

function readiness(
  row: ReadinessColumns,
  now: string,
  reasonsOf: (row: ReadinessColumns) => AttentionReasonView[],
  failureOf: (id: string) => string,
): OrderReadiness {
  if (row.transferStatus === 'COMPLETED') return { state: 'COMPLETED' }
  if (row.leaseExpiresAt !== null && row.leaseExpiresAt > now) return { state: 'PROCESSING' }
  if (row.hold) return { state: 'HELD', ...row.hold }
  const { automation, pause } = row
  if (automation?.state === 'HELD' && pause) {
    const reason = `${storeName(pause.shop)} is paused: ${pause.reason}`
    return { state: 'HELD', reason, by: pause.by, since: pause.since }
  }
  switch (automation?.state) {
    case 'WAITING':
      // Its job is due: a worker takes it as soon as one is free.
      return automation.dueAt !== null && automation.dueAt > now
        ? { state: 'WAITING', until: automation.dueAt }
        : { state: 'PROCESSING' }
    case 'RETRYING':
      return {
        state: 'RETRYING',
        until: automation.dueAt ?? now,
        message: automation.message ?? '',
      }
    case 'NEEDS_ATTENTION': {
      const named = reasonsOf(row)
      return {
        state: 'NEEDS_ATTENTION',
        reasons:
          named.length > 0
            ? named
            : [{ sentence: automation.message ?? 'Needs attention', remedy: null }],
      }
    }
    case 'NOTHING_TO_TRANSFER':
      return { state: 'NOTHING_TO_TRANSFER', message: automation.message ?? '' }
  }
  if (row.transferStatus === 'PARTIAL') {
    return { state: 'PARTIAL', failedStep: failureOf(row.orderId) }
  }
  return { state: 'MANUAL' }
}
