import { SHOP_DOMAIN_PATTERN } from '@shared/contract'
import { CommerceError } from '../commerce-port'

/** The Admin API version every call names; moving to the next one is a change of this line. */
export const SHOPIFY_API_VERSION = '2026-10'

/**
 * Where a shop is reached: https://{shop} on Shopify, `{endpoint}/{shop}` on the emulator
 * (TANDEM_SHOPIFY_ENDPOINT). Only a shop domain passes, so that no stored value can point a
 * request, and the client secret or access token it carries, anywhere else.
 */
export function shopOrigin(shop: string, endpoint: string | null): string {
  if (!SHOP_DOMAIN_PATTERN.test(shop)) {
    throw new CommerceError(`"${shop}" is not a Shopify shop domain (name.myshopify.com)`)
  }
  return endpoint ? `${endpoint.replace(/\/+$/, '')}/${shop}` : `https://${shop}`
}
