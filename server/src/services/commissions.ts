import type {
  CallParsed,
  DefaultCommission,
  ShopType,
  UniqueCommissionRate,
} from '@shared/contract'
import type { Db } from '../db/connect'
import type { RouteDeps } from '../deps'
import { checkDefaultRates, checkUniqueRate } from '../domain/commission'
import { Refusal } from '../domain/errors'
import {
  deleteUniqueRate,
  findDefaultRates,
  listUniqueRates,
  upsertDefaultRates,
  upsertUniqueRate,
} from '../repositories/commissions'
import { requireStoreOf } from '../repositories/stores'
import { auditedChange, type Actor } from './audited-change'
import { requeueOrdersWaitingOn } from './automatic-transfers'

// Default commissions (per brand) and unique commission rates (per brand and creator pair). A store
// of the wrong type is a business-rule refusal (422): the request is well formed, but the
// marketplace's state (what that store is) makes it impossible. Rates that break a bound are bad
// input (400), as docs/product-rules.md "Money and commission rules" says, with the domain's
// sentence naming the rule.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

/** How the audit log names a brand and creator pair. */
const pairOf = (brand: string, creator: string) => `${brand} × ${creator}`

type Rates = { tandemCommissionRate: number | null; creatorCommissionRate: number | null }

const rateFields = (rates: Rates | null): Rates | null =>
  rates && {
    tandemCommissionRate: rates.tandemCommissionRate,
    creatorCommissionRate: rates.creatorCommissionRate,
  }

const withArticle = (type: ShopType) => (type === 'BRAND' ? 'a brand' : 'a creator')

/**
 * Refuses a store that does not exist or is not of the type the call needs, naming the field;
 * with `lock`, its row is held to the end of the transaction (lockStore).
 */
function requireStore(
  db: Db,
  field: string,
  shop: string,
  expected: ShopType,
  { lock = false } = {},
) {
  const other: ShopType = expected === 'BRAND' ? 'CREATOR' : 'BRAND'
  const wrongType = `${field} ${shop} is ${withArticle(other)} store, not ${withArticle(expected)} store`
  return requireStoreOf(db, shop, expected, { wrongType, lock })
}

export async function defaultRates(deps: Deps, shop: string): Promise<Rates> {
  await requireStore(deps.db, 'shop', shop, 'BRAND')
  return (
    (await findDefaultRates(deps.db, shop)) ?? {
      tandemCommissionRate: null,
      creatorCommissionRate: null,
    }
  )
}

export async function setDefaultRates(
  deps: Deps,
  actor: Actor,
  commission: CallParsed<'adminSetDefaultCommissionRate', 'body'>['defaultCommission'],
): Promise<DefaultCommission> {
  const shop = commission.brandStoreShop
  return auditedChange(deps, actor, async (trx) => {
    // Locked so that a unique rate created meanwhile cannot slip past the check below.
    await requireStore(trx, 'brandStoreShop', shop, 'BRAND', { lock: true })
    const uniqueRates = await listUniqueRates(trx, { brandShop: shop })
    const broken = checkDefaultRates(
      commission,
      uniqueRates.map((rate) => rate.commissionRate),
    )
    if (broken) throw new Refusal('invalid_input', broken)
    const before = await findDefaultRates(trx, shop)
    const after = await upsertDefaultRates(trx, commission, deps.now().toISOString())
    // The orders stopped for want of it (or of its earlier rates) are tried again.
    await requeueOrdersWaitingOn(deps, trx, shop)
    return {
      result: after,
      audit: {
        action: 'commission.default.set',
        target: shop,
        details: { before: rateFields(before), after: rateFields(after) },
      },
    }
  })
}

export const uniqueRates = (
  deps: Deps,
  filter: CallParsed<'adminGetUniqueCommissionRates', 'query'>,
): Promise<UniqueCommissionRate[]> => listUniqueRates(deps.db, filter)

export async function createUniqueRate(
  deps: Deps,
  actor: Actor,
  rate: CallParsed<'adminCreateUniqueCommissionRate', 'body'>['uniqueCommissionRate'],
): Promise<{ uniqueCommissionRate: UniqueCommissionRate; replacedCommissionRate: number | null }> {
  const { brandStoreShop: brand, creatorStoreShop: creator } = rate
  return auditedChange(deps, actor, async (trx) => {
    // The brand is locked so that its default cannot change between the check and the write.
    await requireStore(trx, 'brandStoreShop', brand, 'BRAND', { lock: true })
    await requireStore(trx, 'creatorStoreShop', creator, 'CREATOR')
    // Without a default the brand has no tandem rate yet, so only the 0…100 range applies;
    // setting the default later checks the sum against this rate.
    const broken = checkUniqueRate(rate.commissionRate, await findDefaultRates(trx, brand))
    if (broken) throw new Refusal('invalid_input', broken)
    const [before] = await listUniqueRates(trx, { brandShop: brand, creatorShop: creator })
    const after = await upsertUniqueRate(trx, rate, deps.now().toISOString())
    return {
      result: {
        uniqueCommissionRate: after,
        replacedCommissionRate: before?.commissionRate ?? null,
      },
      audit: {
        action: 'commission.unique.create',
        target: pairOf(brand, creator),
        details: {
          before: before ? { commissionRate: before.commissionRate } : null,
          after: { commissionRate: after.commissionRate },
        },
      },
    }
  })
}

export async function deleteUniqueRateOf(
  deps: Deps,
  actor: Actor,
  pair: { brandShop: string; creatorShop: string },
): Promise<UniqueCommissionRate> {
  return auditedChange(deps, actor, async (trx) => {
    const rate = await deleteUniqueRate(trx, pair)
    if (!rate) {
      throw new Refusal(
        'not_found',
        `No unique commission rate for ${pair.brandShop} and ${pair.creatorShop}`,
      )
    }
    return {
      result: rate,
      audit: {
        action: 'commission.unique.delete',
        target: pairOf(pair.brandShop, pair.creatorShop),
        details: { before: { commissionRate: rate.commissionRate }, after: null },
      },
    }
  })
}
