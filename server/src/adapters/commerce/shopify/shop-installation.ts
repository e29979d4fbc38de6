import { installedUnlessRefused } from './shop-connections'
import type { ShopifyApi } from './shopify-api'

// What a shop itself says of the app's installation there: the questions behind "Test connection"
// and behind believing an app/uninstalled webhook. Each call gets a token first if need be.

const WHO_AM_I = /* GraphQL */ `
  query ConnectionTest {
    shop {
      myshopifyDomain
    }
    currentAppInstallation {
      accessScopes {
        handle
      }
    }
  }
`

/** The cheapest authenticated question: answered only while the app is installed. */
const INSTALLED = /* GraphQL */ `
  query AppInstalled {
    currentAppInstallation {
      id
    }
  }
`

export interface ShopInstallation {
  /** The access scopes the shop has granted the app. */
  scopes(shop: string): Promise<string[]>
  /**
   * Whether the app is still installed in the shop. Uninstalling revokes the app's tokens and
   * Shopify then refuses it a new one with app_not_installed; a call that succeeds means it is
   * still installed. Throws when Shopify does not say either (unreachable, 5xx, 429, another
   * refusal); nothing more is sent once `signal` aborts.
   */
  installed(shop: string, signal?: AbortSignal): Promise<boolean>
}

export function createShopInstallation(api: ShopifyApi): ShopInstallation {
  return {
    async scopes(shop) {
      const answer: { currentAppInstallation: { accessScopes: { handle: string }[] } } =
        await api.request(shop, WHO_AM_I)
      return answer.currentAppInstallation.accessScopes.map((scope) => scope.handle)
    },

    installed: (shop, signal) =>
      installedUnlessRefused(() => api.request(shop, INSTALLED, undefined, { signal })),
  }
}
