import type { DefaultCommission, UniqueCommissionRate } from '@shared/contract'
import type { Db } from '../db/connect'
import type { DefaultRates } from '../domain/commission'

// Rates are stored as whole hundredths of a percent (12.5 % is 1250). The contract has already
// refused rates with more than two decimals, so rounding only removes the binary noise of the
// double (12.34 × 100 is 1234.0000000000002), and dividing back is exact to the two decimals.
const toHundredths = (rate: number): number => Math.round(rate * 100)
const fromHundredths = (hundredths: number): number => hundredths / 100

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
