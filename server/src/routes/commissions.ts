import type { FastifyInstance } from 'fastify'
import type { ShopType } from '@shared/contract'
import { recordAudit } from '../audit/audit-log'
import type { RouteDeps } from '../deps'
import { checkDefaultRates, checkUniqueRate } from '../domain/commission'
import { HttpError } from '../http/errors'
import { defineRoute } from '../http/route'
import {
  deleteUniqueRate,
  findDefaultRates,
  listUniqueRates,
  upsertDefaultRates,
  upsertUniqueRate,
} from '../repositories/commissions'
import { findStoreType, lockStore } from '../repositories/stores'
import { storeNotFound } from './stores'

// Default commissions (per brand) and unique commission rates (per brand and creator pair). A store
// of the wrong type is a 422: the request is well formed, but the marketplace's state (what that
// store is) makes it impossible. Rates that break a bound are a 400, as docs/product-rules.md
// "Money and commission rules" says, with the domain's sentence naming the rule.

/** How the audit log names a brand and creator pair. */
const pairOf = (brand: string, creator: string) => `${brand} × ${creator}`

const rateFields = (
  rates: { tandemCommissionRate: number | null; creatorCommissionRate: number | null } | null,
) =>
  rates && {
    tandemCommissionRate: rates.tandemCommissionRate,
    creatorCommissionRate: rates.creatorCommissionRate,
  }

const withArticle = (type: ShopType) => (type === 'BRAND' ? 'a brand' : 'a creator')

/** Refuses a store that does not exist (404) or is not of the type the call needs (422). */
function requireStore(field: string, shop: string, type: ShopType | null, expected: ShopType) {
  if (type === null) throw storeNotFound(shop)
  if (type !== expected) {
    throw new HttpError(
      422,
      `${field} ${shop} is ${withArticle(type)} store, not ${withArticle(expected)} store`,
    )
  }
}

export function registerCommissionRoutes(app: FastifyInstance, deps: RouteDeps): void {
  defineRoute(app, 'adminGetDefaultShopCommissionRate', async ({ query }) => {
    requireStore('shop', query.shop, await findStoreType(deps.db, query.shop), 'BRAND')
    return (
      (await findDefaultRates(deps.db, query.shop)) ?? {
        tandemCommissionRate: null,
        creatorCommissionRate: null,
      }
    )
  })

  defineRoute(app, 'adminSetDefaultCommissionRate', async ({ body, request }) => {
    const commission = body.defaultCommission
    const shop = commission.brandStoreShop
    const stored = await deps.db.transaction().execute(async (trx) => {
      // Locked so that a unique rate created meanwhile cannot slip past the check below.
      requireStore('brandStoreShop', shop, await lockStore(trx, shop), 'BRAND')
      const uniqueRates = await listUniqueRates(trx, { brandShop: shop })
      const broken = checkDefaultRates(
        commission,
        uniqueRates.map((rate) => rate.commissionRate),
      )
      if (broken) throw new HttpError(400, broken)
      const before = await findDefaultRates(trx, shop)
      const after = await upsertDefaultRates(trx, commission, deps.now().toISOString())
      await recordAudit(trx, deps.now(), {
        actorEmail: request.adminEmail,
        action: 'commission.default.set',
        target: shop,
        details: { before: rateFields(before), after: rateFields(after) },
      })
      return after
    })
    return { defaultCommission: stored }
  })

  defineRoute(app, 'adminGetUniqueCommissionRates', async ({ query }) => ({
    uniqueCommissionRates: await listUniqueRates(deps.db, query),
  }))

  defineRoute(app, 'adminCreateUniqueCommissionRate', async ({ body, request }) => {
    const rate = body.uniqueCommissionRate
    const { brandStoreShop: brand, creatorStoreShop: creator } = rate
    const stored = await deps.db.transaction().execute(async (trx) => {
      // The brand is locked so that its default cannot change between the check and the write.
      requireStore('brandStoreShop', brand, await lockStore(trx, brand), 'BRAND')
      requireStore('creatorStoreShop', creator, await findStoreType(trx, creator), 'CREATOR')
      // Without a default the brand has no tandem rate yet, so only the 0…100 range applies;
      // setting the default later checks the sum against this rate.
      const broken = checkUniqueRate(rate.commissionRate, await findDefaultRates(trx, brand))
      if (broken) throw new HttpError(400, broken)
      const [before] = await listUniqueRates(trx, { brandShop: brand, creatorShop: creator })
      const after = await upsertUniqueRate(trx, rate, deps.now().toISOString())
      await recordAudit(trx, deps.now(), {
        actorEmail: request.adminEmail,
        action: 'commission.unique.create',
        target: pairOf(brand, creator),
        details: {
          before: before ? { commissionRate: before.commissionRate } : null,
          after: { commissionRate: after.commissionRate },
        },
      })
      return after
    })
    return { uniqueCommissionRate: stored }
  })

  defineRoute(app, 'adminDeleteUniqueCommissionRate', async ({ query, request }) => {
    const deleted = await deps.db.transaction().execute(async (trx) => {
      const rate = await deleteUniqueRate(trx, query)
      if (!rate) {
        throw new HttpError(
          404,
          `No unique commission rate for ${query.brandShop} and ${query.creatorShop}`,
        )
      }
      await recordAudit(trx, deps.now(), {
        actorEmail: request.adminEmail,
        action: 'commission.unique.delete',
        target: pairOf(query.brandShop, query.creatorShop),
        details: { before: { commissionRate: rate.commissionRate }, after: null },
      })
      return rate
    })
    return { uniqueCommissionRate: deleted }
  })
}
