import type { Db } from '../../../db/connect'
import type { SecretBox } from '../../../secrets'
import type { CommercePort } from '../commerce-port'
import { createShopConnections, type ShopConnections } from './shop-connections'
import { createShopifyApi, type ShopifyApi, type ShopifyApiOptions } from './shopify-api'
import { createShopifyCommerce } from './shopify-commerce'

export interface ShopifyDeps {
  db: Db
  secrets: SecretBox
  /** TANDEM_SHOPIFY_ENDPOINT: the Shopify emulator; null for Shopify itself. */
  endpoint: string | null
  now: () => Date
  /** The caller's waits and per-request timeout, for tests that measure them. */
  api?: Pick<ShopifyApiOptions, 'wait' | 'random' | 'requestTimeoutMs'>
}

/** The Shopify adapter, assembled: shop connections, the throttle-aware caller, the port. */
export function connectShopify(deps: ShopifyDeps): {
  commerce: CommercePort
  connections: ShopConnections
  api: ShopifyApi
} {
  const connections = createShopConnections(deps)
  const api = createShopifyApi({ ...deps.api, endpoint: deps.endpoint, tokens: connections })
  return { commerce: createShopifyCommerce({ db: deps.db, api }), connections, api }
}
