import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import { listShipments } from '../queries/shipments'
import { findShippingPolicy, setShippingPolicy } from '../shipping/shipping-policy'

// The Shipping screen: the brand orders as shipped, and the days after which one is late.

export const shippingRoutes = (deps: RouteDeps) =>
  ({
    adminShipments: ({ query }) => listShipments(deps.db, query, deps.now()),
    adminShippingPolicy: () => findShippingPolicy(deps.db),
    adminSetShippingPolicy: ({ body, actor }) => setShippingPolicy(deps, actor, body),
  }) satisfies Partial<CallRoutes>
