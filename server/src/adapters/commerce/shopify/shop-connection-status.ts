import type { ShopConnection } from '@shared/contract'
import type { Db } from '../../../db/connect'
import { ShopConnectionError } from './shop-connections'
import type { ShopifyApi } from './shopify-api'

// What the configs screen shows of each shop's connection: whether Tandem holds a live token, how
// it was granted, with which scopes, and the reason of the last failure. "Test connection" asks
// the shop itself, getting a token first if need be.

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

export type ConnectionStatus = ReturnType<typeof createConnectionStatus>

export function createConnectionStatus(deps: {
  db: Db
  api: ShopifyApi
  now: () => Date
  /** Subscribes the shop to its webhooks again (a registration may have failed before). */
  registerWebhooks: (shop: string) => Promise<void>
}) {
  const { db } = deps

  async function status(shop: string): Promise<ShopConnection> {
    const row = await db
      .selectFrom('shop_connections')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirst()
    if (row?.error) {
      return { shop, state: 'ERROR', method: null, scopes: [], message: row.error }
    }
    const now = deps.now().getTime()
    const live =
      row?.access_token_sealed &&
      (Date.parse(row.access_token_expires_at ?? '') > now ||
        Date.parse(row.refresh_token_expires_at ?? '') > now)
    if (!row || !live) {
      return {
        shop,
        state: 'NOT_CONNECTED',
        method: null,
        scopes: [],
        message: 'Tandem holds no access token for this shop yet: test the connection to get one',
      }
    }
    return {
      shop,
      state: 'CONNECTED',
      method: row.method,
      scopes: row.scopes ? row.scopes.split(',').filter(Boolean) : [],
      message: null,
    }
  }

  return {
    status,

    /**
     * Whether Shopify confirms that the app is gone from the shop: an app/uninstalled body proves
     * only that Shopify once signed it, so the shop is asked. Uninstalling revokes the app's
     * tokens and Shopify then refuses it a new one with app_not_installed; a call that succeeds
     * means it is still installed. A shop Tandem holds no token for has nothing to confirm
     * (asking would connect it). Throws when Shopify does not say either (unreachable, 5xx, 429,
     * another refusal); nothing more is sent once `signal` aborts.
     */
    async uninstallConfirmed(shop: string, signal?: AbortSignal): Promise<boolean> {
      const row = await db
        .selectFrom('shop_connections')
        .select('access_token_sealed')
        .where('shop', '=', shop)
        .executeTakeFirst()
      if (!row?.access_token_sealed) return false
      try {
        await deps.api.request(shop, INSTALLED, undefined, { signal })
        return false
      } catch (error) {
        if (error instanceof ShopConnectionError && error.code === 'app_not_installed') return true
        throw error
      }
    },

    /**
     * Calls the shop and registers its webhooks; a failure is recorded as the connection's error,
     * a success clears it.
     */
    async test(shop: string): Promise<ShopConnection> {
      try {
        const answer: { currentAppInstallation: { accessScopes: { handle: string }[] } } =
          await deps.api.request(shop, WHO_AM_I)
        await deps.registerWebhooks(shop)
        const scopes = answer.currentAppInstallation.accessScopes.map((scope) => scope.handle)
        await db
          .updateTable('shop_connections')
          .set({ scopes: scopes.join(','), error: null, updated_at: deps.now().toISOString() })
          .where('shop', '=', shop)
          .execute()
      } catch (error) {
        await recordConnectionError(db, shop, error, deps.now())
      }
      return status(shop)
    },
  }
}

/** Keeps why the shop could not be reached, until a call to it succeeds again. */
export async function recordConnectionError(db: Db, shop: string, error: unknown, at: Date) {
  const message = error instanceof Error ? error.message : String(error)
  const row = { error: message, updated_at: at.toISOString() }
  await db
    .insertInto('shop_connections')
    .values({ shop, method: 'CLIENT_CREDENTIALS', scopes: '', ...row })
    .onConflict((conflict) => conflict.column('shop').doUpdateSet(row))
    .execute()
}
