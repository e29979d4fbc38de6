import type { FastifyInstance } from 'fastify'
import type { RouteDeps } from '../deps'
import { registerAppConfigRoutes } from './app-configs'
import { registerAuditRoutes } from './audit'
import { registerCommissionRoutes } from './commissions'
import { registerImageRoutes } from './images'
import { registerOrderRoutes } from './orders'
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
  registerOrderRoutes(app, deps)
  registerAuditRoutes(app, deps)
  registerShopifyInstallRoutes(app, deps)
  registerShopifyWebhookRoute(app, deps)
  registerImageRoutes(app)
}
