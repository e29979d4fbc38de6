import type { CreatorOrderSummary, OrderReadiness, TransferStatus } from '@shared/contract'
import { sql } from 'kysely'
import type { Db } from '../db/connect'
import { readPage, type PageRequest } from '../db/keyset'
import type { ReasonOrder } from '../domain/attention'
import { formatMinorUnits } from '../domain/money'
import { settleWithLimit } from '../lib/remote-call'
import { readinessOf } from './order-readiness'

// The orders inbox: the creator orders Tandem knows of (repositories/creator-orders.ts records
// them), with where each order's transfer stands, and how many need attention.

export interface CreatorOrderFilters extends PageRequest {
  status?: TransferStatus
  needsAttention?: 'true'
  creatorShop?: string
  /** Part of the order's name, or its id. */
  q?: string
}

/**
 * How many orders of a page are previewed at once for their readiness: each preview reads Shopify
 * (and Stripe), within the rate limits the automatic transfers share, through the preview cache,
 * and Tandem's records over one of the database pool's ten connections at a time. A page's orders
 * are mostly different creators' and brands' (different cost buckets): ten at once preview a
 * page of 50 in five rounds, where four took thirteen.
 */
const PREVIEWS_AT_ONCE = 10

/**
 * Newest first, a page at a time; only orders whose header is known. An order an administrator
 * processes (MANUAL) has no outcome recorded: what its preview would say (`previewReadiness`)
 * is shown instead, so that one with no payment, no commission or nothing to transfer says so
 * before anyone previews it.
 */
export async function listCreatorOrders(
  db: Db,
  filters: CreatorOrderFilters,
  now: Date,
  previewReadiness: (order: ReasonOrder) => Promise<OrderReadiness>,
): Promise<{ orders: CreatorOrderSummary[]; nextCursor: string | null }> {
  const search = filters.q?.replace(/^#/, '')
  const query = inboxOrders(db, filters)
    // order_transfers keys orders by their id as text.
    .leftJoin('order_transfers as t', (join) =>
      join.on((eb) => eb(eb.cast('o.order_id', 'text'), '=', eb.ref('t.creator_order_id'))),
    )
    .leftJoin('order_holds as h', (join) =>
      join.on((eb) => eb(eb.cast('o.order_id', 'text'), '=', eb.ref('h.creator_order_id'))),
    )
    .leftJoin('brand_pauses as p', 'p.brand_store_shop', 'a.paused_brand')
    .select([
      'o.order_id',
      'o.store_shop',
      'o.name',
      'o.created_at',
      'o.currency',
      'o.total_minor',
      't.status',
      't.processed_at',
      't.lease_expires_at',
      'a.state as automation_state',
      'a.due_at',
      'a.message',
      'h.reason as hold_reason',
      'h.held_by',
      'h.held_at',
      'p.brand_store_shop as paused_brand',
      'p.reason as pause_reason',
      'p.paused_by',
      'p.paused_at',
    ])
    .$if(filters.creatorShop !== undefined, (qb) =>
      qb.where('o.store_shop', '=', filters.creatorShop!),
    )
    .$if(filters.status === 'NOT_STARTED', (qb) => qb.where('t.creator_order_id', 'is', null))
    .$if(filters.status === 'PARTIAL' || filters.status === 'COMPLETED', (qb) =>
      qb.where('t.status', '=', filters.status as 'PARTIAL' | 'COMPLETED'),
    )
    .$if(Boolean(search), (qb) =>
      qb.where((eb) =>
        eb.or([
          // Case-insensitive on both databases, the typed text taken literally.
          sql<boolean>`lower(${sql.ref('o.name')}) like ${`%${escapeLike(search!.toLowerCase())}%`} escape '\\'`,
          ...(/^\d{1,15}$/.test(search!) ? [eb('o.order_id', '=', Number(search))] : []),
        ]),
      ),
    )
  const page = await readPage(
    query,
    { sortedBy: 'o.created_at', id: 'o.order_id', order: 'desc', numericId: true },
    filters,
  )
  const readiness = await readinessOf(
    db,
    page.rows.map((row) => ({
      orderId: String(row.order_id),
      storeShop: row.store_shop,
      transferStatus: row.status,
      leaseExpiresAt: row.lease_expires_at,
      automation: row.automation_state
        ? { state: row.automation_state, dueAt: row.due_at, message: row.message }
        : null,
      hold:
        row.hold_reason !== null && row.held_at !== null
          ? { reason: row.hold_reason, by: row.held_by, since: row.held_at }
          : null,
      pause:
        row.paused_brand !== null && row.pause_reason !== null && row.paused_at !== null
          ? {
              shop: row.paused_brand,
              reason: row.pause_reason,
              by: row.paused_by,
              since: row.paused_at,
            }
          : null,
    })),
    now,
  )
  const manual = readiness.flatMap((each, index) => (each.state === 'MANUAL' ? [index] : []))
  const previewed = await settleWithLimit(manual, PREVIEWS_AT_ONCE, (index) =>
    previewReadiness({
      id: String(page.rows[index]!.order_id),
      storeShop: page.rows[index]!.store_shop,
    }),
  )
  previewed.forEach((outcome, at) => {
    if (outcome.status === 'fulfilled') readiness[manual[at]!] = outcome.value
  })
  return {
    orders: page.rows.map((row, index) => ({
      id: String(row.order_id),
      name: row.name!,
      creatorStoreShop: row.store_shop,
      createdAt: row.created_at!,
      currency: row.currency!,
      totalAmount: formatMinorUnits(Number(row.total_minor), row.currency!),
      transferStatus: row.status ?? 'NOT_STARTED',
      processedAt: row.processed_at ?? null,
      readiness: readiness[index]!,
    })),
    nextCursor: page.nextCursor,
  }
}

/** How many orders the inbox lists with the filter needsAttention: the sidebar's count. */
export async function countOrdersNeedingAttention(db: Db): Promise<{ count: number }> {
  const { count } = await inboxOrders(db, { needsAttention: 'true' })
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow()
  return { count: Number(count) }
}

/**
 * The orders the inbox lists (a creator store's, whose header is known) with where their automatic
 * processing stands, narrowed to those needing attention if asked: one place, so that the
 * sidebar's count and the filter's list are the same orders.
 */
const inboxOrders = (db: Db, { needsAttention }: Pick<CreatorOrderFilters, 'needsAttention'>) =>
  db
    .selectFrom('creator_order_index as o')
    .innerJoin('stores', (join) =>
      join.onRef('stores.shop', '=', 'o.store_shop').on('stores.shop_type', '=', 'CREATOR'),
    )
    .leftJoin('order_automation as a', (join) =>
      join.on((eb) => eb(eb.cast('o.order_id', 'text'), '=', eb.ref('a.creator_order_id'))),
    )
    .where('o.name', 'is not', null)
    .$if(needsAttention === 'true', (qb) => qb.where('a.state', '=', 'NEEDS_ATTENTION'))

/** A LIKE pattern's text matched literally: its wildcards and the escape character escaped. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`)
