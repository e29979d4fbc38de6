import type { FastifyInstance } from 'fastify'
import type { RouteDeps } from '../deps'
import { registerAppConfigRoutes } from './app-configs'
import { registerCommissionRoutes } from './commissions'
import { registerImageRoutes } from './images'
import { registerPayoutAccountRoutes } from './payout-accounts'
import { registerShopConnectionRoutes } from './shop-connections'
import { registerShopifyInstallRoutes } from './shopify-install'
import { registerShopifyWebhookRoute } from './shopify-webhooks'
import { registerStoreRoutes } from './stores'
import { registerTransferRoutes } from './transfers'

export function registerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  registerAppConfigRoutes(app, deps)
  registerStoreRoutes(app, deps)
  registerCommissionRoutes(app, deps)
  registerTransferRoutes(app, deps)
  registerShopConnectionRoutes(app, deps)
  registerPayoutAccountRoutes(app, deps)
  registerShopifyInstallRoutes(app, deps)
  registerShopifyWebhookRoute(app, deps)
  registerImageRoutes(app)
}
