import type { Db } from '../../../db/connect'
import type { ShopConnectionsTable } from '../../../db/schema'
import { findAppConfig } from '../../../repositories/app-configs'
import { SecretUnreadableError, type SecretBox, type SecretPlace } from '../../../secrets'
import { CommerceError } from '../commerce-port'
import { recordConnectionError } from './shop-connection-status'
import type { ShopTokens } from './shopify-api'
import { shopOrigin } from './shopify-endpoint'

// Each shop's access token. A shop connects with the client-credentials grant (a token of 24
// hours, asked for again before it runs out) or, where Shopify refuses that grant, through the
// authorization-code install, whose expiring token comes with a refresh token. Tokens are sealed
// in the database like client secrets, so that every server process shares them, and are never
// logged or answered to the console.

/** A token is renewed this long before it runs out, so that no call starts with a dying one. */
const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000

export type ConnectionMethod = ShopConnectionsTable['method']

/** What Shopify answers at /admin/oauth/access_token. */
interface TokenGrant {
  access_token: string
  scope: string
  expires_in?: number
  refresh_token?: string
  refresh_token_expires_in?: number
}

/**
 * Shopify refused to grant a token (a 4xx: the app is not installed, the grant is not permitted,
 * the credentials are wrong): the shop is not connected until someone acts.
 */
export class ShopConnectionError extends CommerceError {
  override name = 'ShopConnectionError'

  constructor(
    message: string,
    /** Shopify's OAuth error code (`app_not_installed`, `invalid_client` …) when it gave one. */
    readonly code?: string,
  ) {
    super(message)
  }
}

export interface ShopConnections extends ShopTokens {
  /** Where the install sends the merchant to approve the app: the shop's authorize page. */
  authorizeUrl(shop: string, query: Record<string, string>): string
  /** Exchanges an install's authorization code for an expiring token with its refresh token. */
  exchangeCode(shop: string, code: string): Promise<void>
  /** The app was uninstalled: its tokens are dead, and the shop is not connected any more. */
  forget(shop: string): Promise<void>
}

interface Deps {
  db: Db
  secrets: SecretBox
  endpoint: string | null
  now: () => Date
  /** A shop got its first token (or was installed): its webhooks are registered then. */
  onConnected(shop: string): void
}

export function createShopConnections(deps: Deps): ShopConnections {
  const held = new Map<string, { token: string; expiresAt: number }>()
  const renewing = new Map<string, Promise<string>>()
  /** The token Shopify last refused per shop: never taken from the database again. */
  const refused = new Map<string, string>()

  const fresh = (expiresAt: number) => expiresAt - deps.now().getTime() > RENEW_BEFORE_EXPIRY_MS

  async function renew(shop: string): Promise<string> {
    const row = await deps.db
      .selectFrom('shop_connections')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirst()
    // Another process may have renewed it already. A token that does not open (sealed under a
    // key no longer held) is as good as none: a new one is asked for.
    const token = row?.access_token_sealed
      ? openedOrNull(row.access_token_sealed, { shop, field: 'Shopify access token' })
      : null
    if (row && token) {
      const expiresAt = Date.parse(row.access_token_expires_at ?? '')
      if (refused.get(shop) !== token && fresh(expiresAt)) {
        held.set(shop, { token, expiresAt })
        return token
      }
    }
    const credentials = await credentialsOf(shop)
    const refreshToken =
      row?.refresh_token_sealed &&
      Date.parse(row.refresh_token_expires_at ?? '') > deps.now().getTime()
        ? openedOrNull(row.refresh_token_sealed, { shop, field: 'Shopify refresh token' })
        : null
    const method = row?.method === 'AUTHORIZATION_CODE' && refreshToken ? row.method : null
    const grant = await requestToken(
      shop,
      method && refreshToken
        ? { ...credentials, grant_type: 'refresh_token', refresh_token: refreshToken }
        : { ...credentials, grant_type: 'client_credentials' },
    ).catch(async (error: unknown) => {
      await recordConnectionError(deps.db, shop, error, deps.now())
      throw error
    })
    await save(shop, method ?? 'CLIENT_CREDENTIALS', grant)
    if (!row?.access_token_sealed) deps.onConnected(shop)
    return grant.access_token
  }

  function openedOrNull(sealed: string, place: SecretPlace): string | null {
    try {
      return deps.secrets.open(sealed, place)
    } catch (error) {
      if (error instanceof SecretUnreadableError) return null
      throw error
    }
  }

  async function credentialsOf(shop: string) {
    const config = await findAppConfig(deps.db, deps.secrets, shop).catch((error: unknown) => {
      if (error instanceof SecretUnreadableError) throw new ShopConnectionError(error.message)
      throw error
    })
    if (!config) {
      throw new ShopConnectionError(`${shop} has no app config: add one in Configs to connect it`)
    }
    return { client_id: config.clientId, client_secret: config.clientSecret }
  }

  async function requestToken(shop: string, body: Record<string, string>): Promise<TokenGrant> {
    const response = await fetch(`${shopOrigin(shop, deps.endpoint)}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    }).catch((error: unknown) => {
      throw new CommerceError(`Shopify could not be reached to connect ${shop}: ${String(error)}`)
    })
    const answer = (await response.json().catch(() => ({}))) as Partial<TokenGrant> & {
      error?: string
      error_description?: string
    }
    if (!response.ok || !answer.access_token) {
      const reason = answer.error_description ?? answer.error ?? `HTTP ${response.status}`
      const message = `Shopify refused a token for ${shop}: ${reason}`
      // Only a 4xx is Shopify's word on the shop (the app uninstalled, the grant not permitted);
      // a 5xx says nothing about it.
      throw response.status >= 500
        ? new CommerceError(message)
        : new ShopConnectionError(message, answer.error)
    }
    return answer as TokenGrant
  }

  async function save(shop: string, method: ConnectionMethod, grant: TokenGrant): Promise<void> {
    const now = deps.now().getTime()
    const expiresAt = now + (grant.expires_in ?? 86_400) * 1000
    const row = {
      method,
      access_token_sealed: deps.secrets.seal(grant.access_token, {
        shop,
        field: 'Shopify access token',
      }),
      access_token_expires_at: new Date(expiresAt).toISOString(),
      refresh_token_sealed: grant.refresh_token
        ? deps.secrets.seal(grant.refresh_token, { shop, field: 'Shopify refresh token' })
        : null,
      refresh_token_expires_at: grant.refresh_token_expires_in
        ? new Date(now + grant.refresh_token_expires_in * 1000).toISOString()
        : null,
      scopes: grant.scope,
      error: null,
      updated_at: new Date(now).toISOString(),
    }
    await deps.db
      .insertInto('shop_connections')
      .values({ shop, ...row })
      .onConflict((conflict) => conflict.column('shop').doUpdateSet(row))
      .execute()
    held.set(shop, { token: grant.access_token, expiresAt })
  }

  return {
    accessToken(shop) {
      const current = held.get(shop)
      if (current && fresh(current.expiresAt)) return Promise.resolve(current.token)
      // One renewal per shop at a time: concurrent callers share it.
      let pending = renewing.get(shop)
      if (!pending) {
        pending = renew(shop).finally(() => renewing.delete(shop))
        renewing.set(shop, pending)
      }
      return pending
    },
    rejected(shop, token) {
      refused.set(shop, token)
      if (held.get(shop)?.token === token) held.delete(shop)
    },
    authorizeUrl: (shop, query) =>
      `${shopOrigin(shop, deps.endpoint)}/admin/oauth/authorize?${new URLSearchParams(query)}`,
    async exchangeCode(shop, code) {
      const grant = await requestToken(shop, {
        ...(await credentialsOf(shop)),
        code,
        expiring: '1',
      })
      await save(shop, 'AUTHORIZATION_CODE', grant)
      deps.onConnected(shop)
    },
    async forget(shop) {
      held.delete(shop)
      await deps.db.deleteFrom('shop_connections').where('shop', '=', shop).execute()
    },
  }
}
