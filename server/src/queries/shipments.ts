import {
  FULFILLMENT_HOLD_REASONS,
  FULFILLMENT_ORDER_STATUSES,
  FULFILLMENT_STATUSES,
  type BrandFulfillment,
  type CallParsed,
  type Shipment,
} from '@shared/contract'
import type { OrderShipping } from '../adapters/commerce/shipping-port'
import type { Db } from '../db/connect'
import { readPage } from '../db/keyset'
import { findShippingPolicy } from '../shipping/shipping-policy'
import { brandOrdersMade } from '../shipping/shipping-jobs'

// The Shipping screen's list: each brand order of a transferred creator order, newest transfer
// first, with its shipping as Tandem last read it (shipping/brand-shipment.ts) and how far the
// creator's order follows each fulfillment. A brand order not read yet shows no status.

type Query = CallParsed<'adminShipments', 'query'>

const DAY_MS = 86_400_000

const KEYSET = { sortedBy: 't.created_at', id: 'b.brand_order_id', order: 'desc' } as const

/** Shopify's words, as the contract knows them: a value Shopify adds later is shown as none. */
const known = <T extends string>(values: readonly T[], value: string): T | null =>
  (values as readonly string[]).includes(value) ? (value as T) : null

export async function listShipments(db: Db, query: Query, now: Date) {
  const { lateAfterDays } = await findShippingPolicy(db)
  const lateBefore = new Date(now.getTime() - lateAfterDays * DAY_MS).toISOString()
  const { rows, nextCursor } = await readPage(
    brandOrdersMade(db)
      .select([
        'b.brand_order_id',
        'b.brand_store_shop',
        'b.creator_order_id',
        't.creator_store_shop',
        't.created_at',
        's.reading',
        's.read_at',
        's.fulfillment_order_status',
        's.shipped_at',
      ])
      .$narrowType<{ brand_order_id: string }>()
      .$if(query.status !== undefined, (qb) =>
        qb.where('s.fulfillment_order_status', '=', query.status!),
      )
      .$if(query.late !== undefined, (qb) =>
        qb.where('s.shipped_at', 'is', null).where('t.created_at', '<', lateBefore),
      )
      .$if(query.brandShop !== undefined, (qb) =>
        qb.where('b.brand_store_shop', '=', query.brandShop!),
      )
      .$if(query.creatorShop !== undefined, (qb) =>
        qb.where('t.creator_store_shop', '=', query.creatorShop!),
      ),
    KEYSET,
    query,
  )
  const [mirrors, names, cancelledByTandem] = await Promise.all([
    rows.length === 0
      ? []
      : db
          .selectFrom('fulfillment_mirrors')
          .select(['brand_fulfillment_id', 'state', 'message'])
          .where(
            'brand_order_id',
            'in',
            rows.map((row) => row.brand_order_id),
          )
          .execute(),
    orderNames(
      db,
      rows.map((row) => row.creator_order_id),
    ),
    tandemCancels(
      db,
      rows.map((row) => row.creator_order_id),
    ),
  ])
  const mirrorOf = new Map(mirrors.map((mirror) => [mirror.brand_fulfillment_id, mirror]))
  const shipments = rows.map((row): Shipment => {
    const reading: OrderShipping | null = row.reading ? JSON.parse(row.reading) : null
    return {
      creatorOrderId: row.creator_order_id,
      creatorOrderName: names.get(row.creator_order_id) ?? null,
      creatorStoreShop: row.creator_store_shop,
      brandStoreShop: row.brand_store_shop,
      brandOrderId: row.brand_order_id,
      transferredAt: row.created_at,
      fulfillmentOrderStatus: row.fulfillment_order_status
        ? known(FULFILLMENT_ORDER_STATUSES, row.fulfillment_order_status)
        : null,
      holds: (reading?.fulfillmentOrders ?? []).flatMap((fulfillmentOrder) =>
        fulfillmentOrder.holds.map((hold) => ({
          reason: known(FULFILLMENT_HOLD_REASONS, hold.reason) ?? 'OTHER',
          notes: hold.notes,
        })),
      ),
      cancelReason: reading?.cancelledAt ? (reading.cancelReason ?? 'OTHER') : null,
      cancelledBy: reading?.cancelledAt
        ? cancelledByTandem.has(cancelKey(row.creator_order_id, row.brand_store_shop))
          ? 'TANDEM'
          : 'BRAND'
        : null,
      unseen: reading?.unseen ?? null,
      fulfillments: (reading?.fulfillments ?? []).flatMap((fulfillment): BrandFulfillment[] => {
        const status = known(FULFILLMENT_STATUSES, fulfillment.status)
        if (!status) return []
        const mirror = mirrorOf.get(fulfillment.id)
        return [
          {
            id: fulfillment.id,
            status,
            createdAt: fulfillment.createdAt,
            tracking: fulfillment.tracking,
            quantity: fulfillment.lines.reduce((sum, line) => sum + line.quantity, 0),
            mirrorState: mirror?.state ?? (status === 'SUCCESS' ? 'PENDING' : 'FAILED'),
            mirrorMessage:
              mirror?.message ??
              (mirror || status === 'SUCCESS'
                ? null
                : 'the brand cancelled this shipment: nothing reached the creator’s order'),
          },
        ]
      }),
      late: row.shipped_at === null && row.created_at < lateBefore,
      readAt: row.read_at,
    }
  })
  return { shipments, nextCursor }
}

/** The creator orders' names (#1001), as the orders inbox indexed them. */
async function orderNames(db: Db, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('creator_order_index')
    .select(['order_id', 'name'])
    .where('order_id', 'in', orderIds.map(Number))
    .execute()
  return new Map(rows.flatMap((row) => (row.name ? [[String(row.order_id), row.name]] : [])))
}

const cancelKey = (creatorOrderId: string, brandShop: string) => `${creatorOrderId} ${brandShop}`

/**
 * The brand orders Tandem cancelled itself, after the creator's refund left them selling nothing
 * (transfers/brand-order-refund.ts, which says so in Activity): keyed by creator order and brand.
 * Any other cancelled brand order was cancelled by its brand.
 */
async function tandemCancels(db: Db, creatorOrderIds: string[]): Promise<Set<string>> {
  if (creatorOrderIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('audit_log')
    .select(['target', 'details'])
    .where('action', '=', 'order.brand-cancel')
    .where('target', 'in', creatorOrderIds)
    .execute()
  return new Set(
    rows.map((row) => cancelKey(row.target, String(JSON.parse(row.details).brandShop))),
  )
}
