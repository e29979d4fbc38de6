import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import {
  createUniqueRate,
  defaultRates,
  deleteUniqueRateOf,
  setDefaultRates,
  uniqueRates,
} from '../services/commissions'

export const commissionRoutes = (deps: RouteDeps) =>
  ({
    adminGetDefaultShopCommissionRate: ({ query }) => defaultRates(deps, query.shop),
    adminSetDefaultCommissionRate: async ({ body, actor }) => ({
      defaultCommission: await setDefaultRates(deps, actor, body.defaultCommission),
    }),
    adminGetUniqueCommissionRates: async ({ query }) => ({
      uniqueCommissionRates: await uniqueRates(deps, query),
    }),
    adminCreateUniqueCommissionRate: ({ body, actor }) =>
      createUniqueRate(deps, actor, body.uniqueCommissionRate),
    adminDeleteUniqueCommissionRate: async ({ query, actor }) => ({
      uniqueCommissionRate: await deleteUniqueRateOf(deps, actor, query),
    }),
  }) satisfies Partial<CallRoutes>
