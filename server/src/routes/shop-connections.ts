import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import { shopConnection, testShopConnection } from '../services/shop-connections'

// Each shop's connection as the configs screen shows it, and its "Test connection".

export const shopConnectionRoutes = (deps: RouteDeps) =>
  ({
    adminShopConnection: ({ query }) => shopConnection(deps, query.shop),
    adminTestShopConnection: ({ body }) => testShopConnection(deps, body.shop),
  }) satisfies Partial<CallRoutes>
