import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import { catalogListings, listProducts, setListing, setStockBuffer } from '../catalog/listings'

export function catalogRoutes(deps: RouteDeps) {
  return {
    adminCatalogListings: ({ query }) => catalogListings(deps, query),
    adminListProducts: ({ body, actor }) => listProducts(deps, actor, body),
    adminSetListing: ({ body, actor }) => setListing(deps, actor, body),
    adminSetStockBuffer: ({ body, actor }) => setStockBuffer(deps, actor, body),
  } satisfies Partial<CallRoutes>
}
