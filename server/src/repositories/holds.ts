import type { BrandPause, OrderHold } from '@shared/contract'
import type { Db } from '../db/connect'
import type { BrandPausesTable } from '../db/schema'

// The orders administrators hold and the brands they paused (services/holds.ts): automatic
// processing leaves both alone until released.

export async function findOrderHold(db: Db, creatorOrderId: string): Promise<OrderHold | null> {
  const row = await db
    .selectFrom('order_holds')
    .selectAll()
    .where('creator_order_id', '=', creatorOrderId)
    .executeTakeFirst()
  return row
    ? {
        creatorOrderId: row.creator_order_id,
        reason: row.reason,
        heldBy: row.held_by,
        heldAt: row.held_at,
      }
    : null
}

/** Holds the order, or replaces the reason it is held for. */
export async function holdOrder(db: Db, hold: OrderHold): Promise<void> {
  const values = { reason: hold.reason, held_by: hold.heldBy, held_at: hold.heldAt }
  await db
    .insertInto('order_holds')
    .values({ creator_order_id: hold.creatorOrderId, ...values })
    .onConflict((conflict) => conflict.column('creator_order_id').doUpdateSet(values))
    .execute()
}

export async function releaseOrder(db: Db, creatorOrderId: string): Promise<void> {
  await db.deleteFrom('order_holds').where('creator_order_id', '=', creatorOrderId).execute()
}

const pauseOf = (row: BrandPausesTable | undefined): BrandPause | null =>
  row
    ? {
        shop: row.brand_store_shop,
        reason: row.reason,
        pausedBy: row.paused_by,
        pausedAt: row.paused_at,
      }
    : null

export async function findBrandPause(db: Db, shop: string): Promise<BrandPause | null> {
  const row = await db
    .selectFrom('brand_pauses')
    .selectAll()
    .where('brand_store_shop', '=', shop)
    .executeTakeFirst()
  return pauseOf(row)
}

/** The first of `shops` that is paused, with its pause; null when none is. */
export async function firstPausedBrand(
  db: Db,
  shops: readonly string[],
): Promise<BrandPause | null> {
  if (shops.length === 0) return null
  const row = await db
    .selectFrom('brand_pauses')
    .selectAll()
    .where('brand_store_shop', 'in', shops)
    .orderBy('brand_store_shop')
    .limit(1)
    .executeTakeFirst()
  return pauseOf(row)
}

/** Pauses the brand, or replaces the reason it is paused for. */
export async function pauseBrand(db: Db, pause: BrandPause): Promise<void> {
  const values = { reason: pause.reason, paused_by: pause.pausedBy, paused_at: pause.pausedAt }
  await db
    .insertInto('brand_pauses')
    .values({ brand_store_shop: pause.shop, ...values })
    .onConflict((conflict) => conflict.column('brand_store_shop').doUpdateSet(values))
    .execute()
}

export async function resumeBrand(db: Db, shop: string): Promise<void> {
  await db.deleteFrom('brand_pauses').where('brand_store_shop', '=', shop).execute()
}
