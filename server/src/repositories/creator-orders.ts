import type { CreatorOrderSummary, TransferStatus } from '@shared/contract'
import type { CreatorOrderHeader } from '../adapters/commerce/commerce-port'
import { sql } from 'kysely'
import type { Db } from '../db/connect'
import { pastLastRow } from '../db/keyset'
import { formatMinorUnits } from '../domain/money'
import { badCursor, decodeCursor, pageOf } from '../domain/page-cursor'

// The creator orders Tandem knows of (creator_order_index): which shop has each, for lookups, and
// what the orders inbox lists, with where each order's transfer stands.

/** Records the order (again): a later sighting updates what an earlier one said. */
export async function indexCreatorOrder(db: Db, order: CreatorOrderHeader): Promise<void> {
  const listed = {
    store_shop: order.storeShop,
    name: order.name,
    // One form whoever saw it (Shopify writes "…:00Z", webhooks "…:00-05:00"): the inbox sorts
    // and pages by it as text.
    created_at: new Date(order.createdAt).toISOString(),
    currency: order.currency,
    total_minor: order.totalMinor,
  }
  await db
    .insertInto('creator_order_index')
    .values({ order_id: order.id, ...listed })
    .onConflict((conflict) => conflict.column('order_id').doUpdateSet(listed))
    .execute()
}

/** Records only which shop has the order, when nothing more is known of it. */
export async function indexCreatorOrderShop(db: Db, orderId: number, shop: string): Promise<void> {
  await db
    .insertInto('creator_order_index')
    .values({ order_id: orderId, store_shop: shop })
    .onConflict((conflict) => conflict.column('order_id').doUpdateSet({ store_shop: shop }))
    .execute()
}

export interface CreatorOrderFilters {
  status?: TransferStatus
  creatorShop?: string
  /** Part of the order's name, or its id. */
  q?: string
  cursor?: string
  limit: number
}

/** Newest first, a page at a time; only orders whose header is known. */
export async function listCreatorOrders(
  db: Db,
  filters: CreatorOrderFilters,
): Promise<{ orders: CreatorOrderSummary[]; nextCursor: string | null }> {
  const after = decodeCursor(filters.cursor)
  // Another list's cursor may decode too: only an order id goes into the bigint comparison.
  if (after && !/^\d{1,15}$/.test(after[1])) throw badCursor()
  const search = filters.q?.replace(/^#/, '')
  const rows = await db
    .selectFrom('creator_order_index as o')
    .innerJoin('stores', (join) =>
      join.onRef('stores.shop', '=', 'o.store_shop').on('stores.shop_type', '=', 'CREATOR'),
    )
    // order_transfers keys orders by their id as text.
    .leftJoin('order_transfers as t', (join) =>
      join.on((eb) => eb(eb.cast('o.order_id', 'text'), '=', eb.ref('t.creator_order_id'))),
    )
    .select([
      'o.order_id',
      'o.store_shop',
      'o.name',
      'o.created_at',
      'o.currency',
      'o.total_minor',
      't.status',
      't.processed_at',
    ])
    .where('o.name', 'is not', null)
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
    .$if(after !== null, (qb) =>
      qb.where(
        pastLastRow('o.created_at', 'o.order_id', { sortedBy: after![0], id: Number(after![1]) }),
      ),
    )
    .orderBy('o.created_at', 'desc')
    .orderBy('o.order_id', 'desc')
    .limit(filters.limit + 1)
    .execute()
  const page = pageOf(rows, filters.limit, (row) => [row.created_at!, String(row.order_id)])
  return {
    orders: page.rows.map((row) => ({
      id: String(row.order_id),
      name: row.name!,
      creatorStoreShop: row.store_shop,
      createdAt: row.created_at!,
      currency: row.currency!,
      totalAmount: formatMinorUnits(Number(row.total_minor), row.currency!),
      transferStatus: row.status ?? 'NOT_STARTED',
      processedAt: row.processed_at ?? null,
    })),
    nextCursor: page.nextCursor,
  }
}

/** A LIKE pattern's text matched literally: its wildcards and the escape character escaped. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`)
