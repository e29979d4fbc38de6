import Sqlite from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { afterEach, expect, it } from 'vitest'
import { migrateToLatest } from '../../server/src/db/migrations'
import type { Database } from '../../server/src/db/schema'

// Migration 007_owed_money on a database as a server before it left it: minor units become
// Stripe's, so amounts stored in a currency ICU counted without decimals (HUF) are rescaled, and
// the others stay as they were.

let db: Kysely<Database> | undefined
afterEach(() => db?.destroy())

const at = '2026-11-01T00:00:00.000Z'

/** A database as migration 006 left it. */
async function databaseAt006() {
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) })
  await migrateToLatest(db as unknown as Kysely<unknown>, undefined, '006_leases')
  return db
}

/**
 * A transfer as a server before 007 stored it: a brand owed 7500 minor units of `currency`, and,
 * when `paid`, already transferred that many, which Stripe read in its own minor units.
 */
async function addTransfer(
  into: Kysely<Database>,
  orderId: string,
  currency: string,
  paid?: { transferId: string },
) {
  await into
    .insertInto('order_transfers')
    .values({
      creator_order_id: orderId,
      creator_store_shop: 'maya-makes.myshopify.com',
      currency,
      status: paid ? 'COMPLETED' : 'PARTIAL',
      claimed_by: null,
      claimed_at: null,
      lease_expires_at: null,
      processed_at: paid ? at : null,
      processed_by: null,
      created_at: at,
    })
    .execute()
  await into
    .insertInto('order_transfer_brands')
    .values({
      creator_order_id: orderId,
      brand_store_shop: 'budapest-brand.myshopify.com',
      position: 0,
      base_minor: 10000,
      tandem_rate_hundredths: 1000,
      creator_rate_hundredths: 1500,
      creator_commission_minor: 1500,
      tandem_commission_minor: 1000,
      brand_amount_minor: 7500,
      lines: '[]',
      ...(paid && {
        brand_order_id: 'gid://shopify/Order/1',
        paid_at: at,
        payment_transfer_id: paid.transferId,
      }),
    })
    .execute()
}

it("rescales what was stored in HUF to Stripe's two decimals, and leaves USD alone", async () => {
  const db = await databaseAt006()
  const raw = db as unknown as Kysely<unknown>
  await db
    .insertInto('stores')
    .values({
      shop: 'budapest-brand.myshopify.com',
      shop_type: 'BRAND',
      product_count: 2,
      products_synced_at: at,
      created_at: at,
    })
    .execute()
  const product = (id: string, minPrice: number, currency: string) => ({
    store_shop: 'budapest-brand.myshopify.com',
    product_id: id,
    title: id,
    status: 'ACTIVE' as const,
    variant_count: 1,
    min_price_minor: minPrice,
    currency,
    seen_at: at,
  })
  await db
    .insertInto('store_products')
    .values([product('p1', 4990, 'HUF'), product('p2', 6800, 'USD')])
    .execute()
  const indexed = (orderId: number, total: number, currency: string) => ({
    order_id: orderId,
    store_shop: 'maya-makes.myshopify.com',
    name: `#${orderId}`,
    created_at: at,
    currency,
    total_minor: total,
  })
  await db
    .insertInto('creator_order_index')
    .values([indexed(2001, 12990, 'HUF'), indexed(2002, 19754, 'USD')])
    .execute()
  await addTransfer(db, '2001', 'HUF')
  await addTransfer(db, '2002', 'USD')

  await migrateToLatest(raw)

  expect(
    await db.selectFrom('store_products').select(['product_id', 'min_price_minor']).execute(),
  ).toEqual([
    { product_id: 'p1', min_price_minor: 499000 },
    { product_id: 'p2', min_price_minor: 6800 },
  ])
  expect(
    await db.selectFrom('creator_order_index').select(['order_id', 'total_minor']).execute(),
  ).toEqual([
    { order_id: 2001, total_minor: 1299000 },
    { order_id: 2002, total_minor: 19754 },
  ])
  expect(
    await db
      .selectFrom('order_transfer_brands')
      .select([
        'creator_order_id',
        'base_minor',
        'creator_commission_minor',
        'tandem_commission_minor',
        'brand_amount_minor',
        'settlement_currency',
      ])
      .orderBy('creator_order_id')
      .execute(),
  ).toEqual([
    {
      creator_order_id: '2001',
      base_minor: 1000000,
      creator_commission_minor: 150000,
      tandem_commission_minor: 100000,
      brand_amount_minor: 750000,
      settlement_currency: null,
    },
    {
      creator_order_id: '2002',
      base_minor: 10000,
      creator_commission_minor: 1500,
      tandem_commission_minor: 1000,
      brand_amount_minor: 7500,
      settlement_currency: null,
    },
  ])
})

it('keeps a HUF brand paid before 007 at what Stripe moved, not 100 times more', async () => {
  const db = await databaseAt006()
  // Stored as 7500 (ICU: no decimals) and sent to Stripe as 7500, which Stripe reads as 75.00
  // HUF where 7,500 HUF were owed: the record keeps the underpayment, to be put right.
  await addTransfer(db, '2001', 'HUF', { transferId: 'tr_paid_before_007' })
  await migrateToLatest(db as unknown as Kysely<unknown>)
  expect(
    await db
      .selectFrom('order_transfer_brands')
      .select(['brand_amount_minor', 'payment_transfer_id'])
      .execute(),
  ).toEqual([{ brand_amount_minor: 7500, payment_transfer_id: 'tr_paid_before_007' }])
})
