import type { ShopConnection, ShopType } from '@shared/contract'
import { SecretUnreadableError } from '../../../secrets'
import { CommerceError } from '../commerce-port'
import type { ShopTokens } from './shopify-api'
import { shopOrigin } from './shopify-endpoint'

// Each shop's access token. A shop connects with the client-credentials grant (a token of 24
// hours, asked for again before it runs out) or, where Shopify refuses that grant, through the
// authorization-code install, whose expiring token comes with a refresh token. Tokens are kept in
// Tandem's database (sealed, like client secrets), so that every server process shares them,
// through the ConnectionStore port; they are never logged or answered to the console. One process
// at a time renews a shop's token (a refresh token is spent by its first use); the others wait,
// then take the token it stored.

/** A token is renewed this long before it runs out, so that no call starts with a dying one. */
const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000

/**
 * How long a process uses the token it holds before it looks at the database again. Another
 * process may have dropped it (the app was uninstalled) or replaced it (after Shopify refused it):
 * within this long every process stops sending it, for one read per shop and interval instead of
 * one per call to Shopify.
 */
export const HELD_TOKEN_RECHECK_MS = 15_000

export type ConnectionMethod = NonNullable<ShopConnection['method']>

/** The tokens stored for a shop, opened: what a renewal starts from. */
export interface StoredTokens {
  method: ConnectionMethod
  /** Whether an access token is stored at all: a shop without one is connected by the next. */
  holdsAccessToken: boolean
  /** Null when none is stored, or the stored one does not open (a key no longer held). */
  accessToken: string | null
  accessTokenExpiresAt: string | null
  /** Null as for the access token; only the authorization-code install has one. */
  refreshToken: string | null
  refreshTokenExpiresAt: string | null
}

/** Tokens Shopify just granted, as they are stored. */
export interface GrantedTokens {
  method: ConnectionMethod
  accessToken: string
  accessTokenExpiresAt: string
  refreshToken: string | null
  refreshTokenExpiresAt: string | null
  /** Comma-separated, as Shopify grants them. */
  scopes: string
}

/**
 * Where the connections are kept: Tandem's database, by a repository. The adapter holds nothing
 * of its own beyond the tokens of this process.
 */
export interface ConnectionStore {
  /**
   * The shop's app: the credentials a token is asked for with, and its type (which webhooks it is
   * sent). Null without an app config; throws SecretUnreadableError when its secret does not open.
   */
  app(shop: string): Promise<{ clientId: string; clientSecret: string; shopType: ShopType } | null>
  /** Null for a shop Tandem has no record of. */
  tokens(shop: string): Promise<StoredTokens | null>
  /** Keeps the tokens; the connection's error, if it had one, is cleared. */
  save(shop: string, tokens: GrantedTokens, at: Date): Promise<void>
  /** Keeps why the shop could not be connected, until a call to it succeeds again. */
  recordError(shop: string, error: unknown, at: Date): Promise<void>
  /** Drops the shop's connection, tokens and all. */
  forget(shop: string): Promise<void>
  /**
   * Runs `work` while no other server process runs work for the shop: one that does is waited
   * for. A shop's tokens are renewed this way.
   */
  oneAtATime<T>(shop: string, work: () => Promise<T>): Promise<T>
}

/**
 * What an answer without Shopify's reason means, and what to fix: Shopify's token endpoint
 * answers 404 for a domain that is no shop; an administrator reads words, not a status.
 */
function unexplained(status: number): string {
  if (status === 404)
    return "Shopify has no shop at this address: check the shop's .myshopify.com domain in its app config (HTTP 404)"
  if (status >= 500)
    return `Shopify failed to answer (HTTP ${status}): test the connection again in a few minutes`
  return `Shopify gave no reason (HTTP ${status}): check the shop's domain, client ID and secret in its app config`
}

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

/**
 * Whether the app is installed, by what Shopify did with a request that needs it to be: answered,
 * it is; refused a token with app_not_installed (uninstalling revokes the app's tokens), it is
 * not. Any other failure says neither, and is thrown.
 */
export async function installedUnlessRefused(ask: () => Promise<unknown>): Promise<boolean> {
  try {
    await ask()
    return true
  } catch (error) {
    if (error instanceof ShopConnectionError && error.code === 'app_not_installed') return false
    throw error
  }
}

export interface ShopConnections extends ShopTokens {
  /** Where the install sends the merchant to approve the app: the shop's authorize page. */
  authorizeUrl(shop: string, query: Record<string, string>): string
  /** Exchanges an install's authorization code for an expiring token with its refresh token. */
  exchangeCode(shop: string, code: string): Promise<void>
  /** The app was uninstalled: its tokens are dead, and the shop is not connected any more. */
  forget(shop: string): Promise<void>
  /**
   * Whether the app is installed in a shop Tandem holds no token for, asked without connecting
   * it: a client-credentials token is asked for and thrown away, neither stored nor held, and no
   * webhook is registered. Refused with app_not_installed: false. Throws on any other refusal
   * (an authorization-code shop is refused the grant whether installed or not) or failure.
   */
  installedWithoutConnecting(shop: string, signal?: AbortSignal): Promise<boolean>
}

interface Deps {
  store: ConnectionStore
  endpoint: string | null
  now: () => Date
  /** A shop got its first token (or was installed): its webhooks are registered then. */
  onConnected(shop: string, shopType: ShopType): void
}

export function createShopConnections(deps: Deps): ShopConnections {
  /** The token this process uses per shop, and when the database last had it. */
  const held = new Map<string, { token: string; expiresAt: number; checkedAt: number }>()
  const obtaining = new Map<string, Promise<string>>()
  /** The token Shopify last refused per shop: never taken from the database again. */
  const refused = new Map<string, string>()

  const fresh = (expiresAt: number) => expiresAt - deps.now().getTime() > RENEW_BEFORE_EXPIRY_MS

  const hold = (shop: string, token: string, expiresAt: number) =>
    held.set(shop, { token, expiresAt, checkedAt: deps.now().getTime() })

  async function obtain(shop: string): Promise<string> {
    // Whatever this process held, the stored token is the one to use: another process may have
    // renewed it already, or forgotten the shop.
    held.delete(shop)
    const stored = await deps.store.tokens(shop)
    return (
      adopt(shop, stored) ??
      deps.store.oneAtATime(shop, async () => {
        // Another process may have renewed it while this one waited its turn.
        const current = await deps.store.tokens(shop)
        return adopt(shop, current) ?? renew(shop, current)
      })
    )
  }

  /**
   * The stored token, held from now on, when it can be used as it is. A token that does not open
   * is as good as none: a new one is asked for.
   */
  function adopt(shop: string, stored: StoredTokens | null): string | null {
    const token = stored?.accessToken
    if (!stored || !token || refused.get(shop) === token) return null
    const expiresAt = Date.parse(stored.accessTokenExpiresAt ?? '')
    if (!fresh(expiresAt)) return null
    hold(shop, token, expiresAt)
    return token
  }

  async function renew(shop: string, stored: StoredTokens | null): Promise<string> {
    const app = await appOf(shop)
    const refreshToken =
      stored?.method === 'AUTHORIZATION_CODE' &&
      Date.parse(stored.refreshTokenExpiresAt ?? '') > deps.now().getTime()
        ? stored.refreshToken
        : null
    const grant = await requestToken(
      shop,
      refreshToken
        ? { ...app.credentials, grant_type: 'refresh_token', refresh_token: refreshToken }
        : { ...app.credentials, grant_type: 'client_credentials' },
    ).catch(async (error: unknown) => {
      await deps.store.recordError(shop, error, deps.now())
      throw error
    })
    await save(shop, refreshToken ? 'AUTHORIZATION_CODE' : 'CLIENT_CREDENTIALS', grant)
    if (!stored?.holdsAccessToken) deps.onConnected(shop, app.shopType)
    return grant.access_token
  }

  async function appOf(shop: string) {
    const app = await deps.store.app(shop).catch((error: unknown) => {
      if (error instanceof SecretUnreadableError) throw new ShopConnectionError(error.message)
      throw error
    })
    if (!app) {
      throw new ShopConnectionError(`${shop} has no app config: add one in Configs to connect it`)
    }
    return {
      credentials: { client_id: app.clientId, client_secret: app.clientSecret },
      shopType: app.shopType,
    }
  }

  async function requestToken(
    shop: string,
    body: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<TokenGrant> {
    const timeout = AbortSignal.timeout(30_000)
    const response = await fetch(`${shopOrigin(shop, deps.endpoint)}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch((error: unknown) => {
      throw new CommerceError(`Shopify could not be reached to connect ${shop}: ${String(error)}`)
    })
    const answer = (await response.json().catch(() => ({}))) as Partial<TokenGrant> & {
      error?: string
      error_description?: string
    }
    if (!response.ok || !answer.access_token) {
      const reason = answer.error_description ?? answer.error ?? unexplained(response.status)
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
    const now = deps.now()
    const expiresAt = now.getTime() + (grant.expires_in ?? 86_400) * 1000
    await deps.store.save(
      shop,
      {
        method,
        accessToken: grant.access_token,
        accessTokenExpiresAt: new Date(expiresAt).toISOString(),
        refreshToken: grant.refresh_token ?? null,
        refreshTokenExpiresAt: grant.refresh_token_expires_in
          ? new Date(now.getTime() + grant.refresh_token_expires_in * 1000).toISOString()
          : null,
        scopes: grant.scope,
      },
      now,
    )
    hold(shop, grant.access_token, expiresAt)
  }

  return {
    accessToken(shop) {
      const current = held.get(shop)
      const checked = current && deps.now().getTime() - current.checkedAt < HELD_TOKEN_RECHECK_MS
      if (current && checked && fresh(current.expiresAt)) return Promise.resolve(current.token)
      // One look at the database, and renewal if due, per shop at a time in this process (the
      // store sees to renewals across processes): concurrent callers share it.
      let pending = obtaining.get(shop)
      if (!pending) {
        pending = obtain(shop).finally(() => obtaining.delete(shop))
        obtaining.set(shop, pending)
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
      const app = await appOf(shop)
      const grant = await requestToken(shop, { ...app.credentials, code, expiring: '1' })
      await save(shop, 'AUTHORIZATION_CODE', grant)
      deps.onConnected(shop, app.shopType)
    },
    async forget(shop) {
      held.delete(shop)
      await deps.store.forget(shop)
    },
    async installedWithoutConnecting(shop, signal) {
      const app = await appOf(shop)
      const asked = { ...app.credentials, grant_type: 'client_credentials' }
      return installedUnlessRefused(() => requestToken(shop, asked, signal))
    },
  }
}
