import type { ShopType, Store } from '@shared/contract'
import type { Db } from '../db/connect'
import { Refusal } from '../domain/errors'

/** The refusal of every call that names a store the marketplace does not have. */
export const storeNotFound = (shop: string) => new Refusal('not_found', `Store not found: ${shop}`)

/** Every store, brands first, each type by shop: only the two columns the answer carries. */
export async function listStores(db: Db): Promise<Store[]> {
  const rows = await db
    .selectFrom('stores')
    .select(['shop', 'shop_type'])
    .orderBy('shop_type')
    .orderBy('shop')
    .execute()
  return rows.map((row) => ({ shop: row.shop, shopType: row.shop_type }))
}

/** The store's type, or null when there is no such store. */
export async function findStoreType(db: Db, shop: string): Promise<ShopType | null> {
  const row = await db
    .selectFrom('stores')
    .select('shop_type')
    .where('shop', '=', shop)
    .executeTakeFirst()
  return row?.shop_type ?? null
}

/**
 * Records the shop as a store of the marketplace of this type, with no products synced yet; a shop
 * that is one already keeps its type and everything else.
 */
export async function recordStore(
  db: Db,
  shop: string,
  shopType: ShopType,
  at: string,
): Promise<void> {
  await db
    .insertInto('stores')
    .values({
      shop,
      shop_type: shopType,
      product_count: 0,
      products_synced_at: null,
      created_at: at,
    })
    .onConflict((conflict) => conflict.column('shop').doNothing())
    .execute()
}

/** The store's type; a shop that is not one of the marketplace's stores is refused. */
export async function requireStoreType(db: Db, shop: string): Promise<ShopType> {
  const type = await findStoreType(db, shop)
  if (!type) throw storeNotFound(shop)
  return type
}

/**
 * Refuses a shop that is not one of the marketplace's stores of the type the call needs: an unknown
 * shop is not found (storeNotFound's sentence, unless the call's own `notFound`), a store of the
 * other type breaks the business rule `wrongType` states in the call's words. With `lock`, the type
 * is read through lockStore, which holds the store's row until the transaction ends.
 */
export async function requireStoreOf(
  db: Db,
  shop: string,
  expected: ShopType,
  refusal: { wrongType: string; notFound?: string; lock?: boolean },
): Promise<void> {
  const type = await (refusal.lock ? lockStore : findStoreType)(db, shop)
  if (type === null) {
    throw refusal.notFound === undefined
      ? storeNotFound(shop)
      : new Refusal('not_found', refusal.notFound)
  }
  if (type !== expected) throw new Refusal('business_rule', refusal.wrongType)
}

/**
 * Like findStoreType, but inside a transaction it also holds the store's row until the end: a
 * write that changes nothing takes PostgreSQL's row lock (and SQLite's database lock) where
 * SELECT … FOR UPDATE would not compile on SQLite. Commission writes of one brand take it so that
 * a default and a unique rate checked against each other cannot both pass concurrently.
 */
export async function lockStore(db: Db, shop: string): Promise<ShopType | null> {
  const row = await db
    .updateTable('stores')
    .set((eb) => ({ shop_type: eb.ref('shop_type') }))
    .where('shop', '=', shop)
    .returning('shop_type')
    .executeTakeFirst()
  return row?.shop_type ?? null
}
