import type { FastifyInstance } from 'fastify'
import type { RouteDeps } from '../deps'
import { registerCalls, type CallRoutes } from '../http/route'
import { appConfigRoutes } from './app-configs'
import { catalogRoutes } from './catalog'
import { commissionRoutes } from './commissions'
import { registerImageRoutes } from './images'
import { jobRoutes } from './jobs'
import { listRoutes } from './lists'
import { sandboxRoutes } from './sandbox'
import { shippingRoutes } from './shipping'
import { shopConnectionRoutes } from './shop-connections'
import { registerShopifyInstallRoutes } from './shopify-install'
import { registerShopifyWebhookRoute } from './shopify-webhooks'
import { storeRoutes } from './stores'
import { transferRoutes } from './transfers'

export function registerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  // Every call of the contract, each once: a call without a route here does not compile.
  const calls: CallRoutes = {
    ...appConfigRoutes(deps),
    ...storeRoutes(deps),
    ...catalogRoutes(deps),
    ...commissionRoutes(deps),
    ...transferRoutes(deps),
    ...shopConnectionRoutes(deps),
    ...listRoutes(deps),
    ...shippingRoutes(deps),
    ...jobRoutes(deps),
    ...sandboxRoutes(deps),
  }
  registerCalls(app, calls)
  // Shopify's own endpoints and the product images, outside the console's contract.
  registerShopifyInstallRoutes(app, deps)
  registerShopifyWebhookRoute(app, deps)
  registerImageRoutes(app)
}
