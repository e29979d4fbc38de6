import type { ShopType } from '@shared/contract'
import type { CommercePort } from '../commerce-port'
import type { KeyAttempts } from './idempotency-keys'
import { createShopInstallation, type ShopInstallation } from './shop-installation'
import {
  createShopConnections,
  type ConnectionStore,
  type ShopConnections,
} from './shop-connections'
import { createShopifyApi, type ShopifyApi, type ShopifyApiOptions } from './shopify-api'
import { createShopifyCommerce, type CreatorOrderIndex } from './shopify-commerce'
import { registerWebhooks } from './shopify-webhooks'

export interface ShopifyDeps {
  /** Where the shops' tokens and app credentials are kept (a repository implements it). */
  connectionStore: ConnectionStore
  /** The creator-order index the port looks orders up in and keeps (likewise). */
  creatorOrders: CreatorOrderIndex
  /** The idempotency-key attempts Shopify refused (likewise): idempotency-keys.ts. */
  keyAttempts: KeyAttempts
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

/** What the server's services use of Shopify beside the commerce port. */
export interface ShopifyServices {
  connections: ShopConnections
  installation: ShopInstallation
  /** Subscribes the shop to its webhooks (again: a registration may have failed before). */
  registerWebhooks(shop: string, shopType: ShopType): Promise<void>
}

/** The Shopify adapter, assembled: shop connections, the throttle-aware caller, the port. */
export function connectShopify(deps: ShopifyDeps): ShopifyServices & {
  commerce: CommercePort
  api: ShopifyApi
} {
  const log = deps.log ?? ((message: string) => console.warn(message))
  const register = (shop: string, shopType: ShopType) =>
    registerWebhooks({ api, publicUrl: deps.publicUrl }, shop, shopType)
  const connections = createShopConnections({
    store: deps.connectionStore,
    endpoint: deps.endpoint,
    now: deps.now,
    // Not awaited: the registration's own calls queue behind the one that got the token. A
    // failed one is done again by the shop's next "Test connection".
    onConnected: (shop, shopType) =>
      void register(shop, shopType).catch((error: unknown) =>
        log(`Webhooks of ${shop} not registered: ${String(error)}`),
      ),
  })
  const api = createShopifyApi({ ...deps.api, endpoint: deps.endpoint, tokens: connections })
  return {
    commerce: createShopifyCommerce({
      index: deps.creatorOrders,
      api,
      keyAttempts: deps.keyAttempts,
    }),
    connections,
    api,
    installation: createShopInstallation(api),
    registerWebhooks: register,
  }
}
