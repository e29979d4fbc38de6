import type { DefaultCommission, UniqueCommissionRate } from '@shared/contract'
import type { Db } from '../db/connect'
import type { DefaultRates } from '../domain/commission'
import { fromHundredths, toHundredths } from '../domain/money'

// Rates are stored as whole hundredths of a percent and answered in percent (see domain/money).

const toDefaultRates = (row: {
  tandem_rate_hundredths: number
  creator_rate_hundredths: number
}): DefaultRates => ({
  tandemCommissionRate: fromHundredths(row.tandem_rate_hundredths),
  creatorCommissionRate: fromHundredths(row.creator_rate_hundredths),
})

/** The brand's default commission in percent, or null when it has none yet. */
export async function findDefaultRates(db: Db, brandShop: string): Promise<DefaultRates | null> {
  const row = await db
    .selectFrom('default_commissions')
    .select(['tandem_rate_hundredths', 'creator_rate_hundredths'])
    .where('brand_store_shop', '=', brandShop)
    .executeTakeFirst()
  return row ? toDefaultRates(row) : null
}

/** Sets the brand's default commission, whether or not it had one, and answers what is stored. */
export async function upsertDefaultRates(
  db: Db,
  commission: DefaultCommission,
  updatedAt: string,
): Promise<DefaultCommission> {
  const rates = {
    tandem_rate_hundredths: toHundredths(commission.tandemCommissionRate),
    creator_rate_hundredths: toHundredths(commission.creatorCommissionRate),
    updated_at: updatedAt,
  }
  const row = await db
    .insertInto('default_commissions')
    .values({ brand_store_shop: commission.brandStoreShop, ...rates })
    .onConflict((conflict) => conflict.column('brand_store_shop').doUpdateSet(rates))
    .returning(['brand_store_shop', 'tandem_rate_hundredths', 'creator_rate_hundredths'])
    .executeTakeFirstOrThrow()
  return { brandStoreShop: row.brand_store_shop, ...toDefaultRates(row) }
}

const uniqueColumns = ['brand_store_shop', 'creator_store_shop', 'rate_hundredths'] as const

const toUniqueRate = (row: {
  brand_store_shop: string
  creator_store_shop: string
  rate_hundredths: number
}): UniqueCommissionRate => ({
  brandStoreShop: row.brand_store_shop,
  creatorStoreShop: row.creator_store_shop,
  commissionRate: fromHundredths(row.rate_hundredths),
})

/** Unique rates by brand, then creator; an absent shop matches every store. */
export async function listUniqueRates(
  db: Db,
  filter: { brandShop?: string; creatorShop?: string },
): Promise<UniqueCommissionRate[]> {
  let query = db.selectFrom('unique_commission_rates').select(uniqueColumns)
  if (filter.brandShop !== undefined) query = query.where('brand_store_shop', '=', filter.brandShop)
  if (filter.creatorShop !== undefined) {
    query = query.where('creator_store_shop', '=', filter.creatorShop)
  }
  const rows = await query.orderBy('brand_store_shop').orderBy('creator_store_shop').execute()
  return rows.map(toUniqueRate)
}

/**
 * What applies to a creator's orders from these brands, in percent and by brand shop: each brand's
 * default and the creator's unique rate with it, for those that have one. Two queries in all.
 */
export async function findRatesOfBrands(
  db: Db,
  creatorShop: string,
  brandShops: readonly string[],
): Promise<{ defaultRates: Map<string, DefaultRates>; uniqueRates: Map<string, number> }> {
  // `in ()` is no SQL: no brands, no query.
  if (brandShops.length === 0) return { defaultRates: new Map(), uniqueRates: new Map() }
  const [defaults, uniques] = await Promise.all([
    db
      .selectFrom('default_commissions')
      .select(['brand_store_shop', 'tandem_rate_hundredths', 'creator_rate_hundredths'])
      .where('brand_store_shop', 'in', brandShops)
      .execute(),
    db
      .selectFrom('unique_commission_rates')
      .select(['brand_store_shop', 'rate_hundredths'])
      .where('creator_store_shop', '=', creatorShop)
      .where('brand_store_shop', 'in', brandShops)
      .execute(),
  ])
  return {
    defaultRates: new Map(defaults.map((row) => [row.brand_store_shop, toDefaultRates(row)])),
    uniqueRates: new Map(
      uniques.map((row) => [row.brand_store_shop, fromHundredths(row.rate_hundredths)]),
    ),
  }
}

/** Creates the pair's rate, or replaces the one it has. */
export async function upsertUniqueRate(
  db: Db,
  rate: UniqueCommissionRate,
  updatedAt: string,
): Promise<UniqueCommissionRate> {
  const values = { rate_hundredths: toHundredths(rate.commissionRate), updated_at: updatedAt }
  const row = await db
    .insertInto('unique_commission_rates')
    .values({
      brand_store_shop: rate.brandStoreShop,
      creator_store_shop: rate.creatorStoreShop,
      ...values,
    })
    .onConflict((conflict) =>
      conflict.columns(['brand_store_shop', 'creator_store_shop']).doUpdateSet(values),
    )
    .returning(uniqueColumns)
    .executeTakeFirstOrThrow()
  return toUniqueRate(row)
}

/** Deletes the pair's rate and answers it, or null when the pair has none. */
export async function deleteUniqueRate(
  db: Db,
  pair: { brandShop: string; creatorShop: string },
): Promise<UniqueCommissionRate | null> {
  const row = await db
    .deleteFrom('unique_commission_rates')
    .where('brand_store_shop', '=', pair.brandShop)
    .where('creator_store_shop', '=', pair.creatorShop)
    .returning(uniqueColumns)
    .executeTakeFirst()
  return row ? toUniqueRate(row) : null
}
