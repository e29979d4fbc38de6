import type { Db } from '../../../db/connect'
import type { SecretBox } from '../../../secrets'
import type { CommercePort } from '../commerce-port'
import { createConnectionStatus, type ConnectionStatus } from './shop-connection-status'
import { createShopConnections, type ShopConnections } from './shop-connections'
import { createShopifyApi, type ShopifyApi, type ShopifyApiOptions } from './shopify-api'
import { createShopifyCommerce } from './shopify-commerce'
import { registerWebhooks } from './shopify-webhooks'

export interface ShopifyDeps {
  db: Db
  secrets: SecretBox
  /** TANDEM_SHOPIFY_ENDPOINT: the Shopify emulator; null for Shopify itself. */
  endpoint: string | null
  /** Where Shopify reaches Tandem: its webhooks are registered at `{publicUrl}/webhooks/shopify`. */
  publicUrl: string
  now: () => Date
  /** Where a failure nobody waits for (a webhook registration) is told. */
  log?: (message: string) => void
  /** The caller's waits and per-request timeout, for tests that measure them. */
  api?: Pick<ShopifyApiOptions, 'wait' | 'random' | 'requestTimeoutMs'>
}

/** What the server's routes use of Shopify beside the commerce port. */
export interface ShopifyServices {
  connections: ShopConnections
  status: ConnectionStatus
}

/** The Shopify adapter, assembled: shop connections, the throttle-aware caller, the port. */
export function connectShopify(deps: ShopifyDeps): ShopifyServices & {
  commerce: CommercePort
  api: ShopifyApi
} {
  const log = deps.log ?? ((message: string) => console.warn(message))
  const register = (shop: string) => registerWebhooks({ ...deps, api }, shop)
  const connections = createShopConnections({
    ...deps,
    // Not awaited: the registration's own calls queue behind the one that got the token. A
    // failed one is done again by the shop's next "Test connection".
    onConnected: (shop) =>
      void register(shop).catch((error: unknown) =>
        log(`Webhooks of ${shop} not registered: ${String(error)}`),
      ),
  })
  const api = createShopifyApi({ ...deps.api, endpoint: deps.endpoint, tokens: connections })
  return {
    commerce: createShopifyCommerce({ db: deps.db, api }),
    connections,
    api,
    status: createConnectionStatus({ db: deps.db, api, now: deps.now, registerWebhooks: register }),
  }
}
