import { createHmac, randomBytes } from 'node:crypto'
import type { Runtime } from './context'
import { json, type Answer } from './http'
import type { ShopRecord, TokenRecord } from './state'

// Shopify's OAuth endpoints: the client-credentials grant (apps of the shop's own organisation),
// the authorization-code install with its signed redirect, and expiring offline tokens renewed
// by single-use refresh tokens.

/** What a shop's app configuration grants unless told otherwise (ShopRecord.scopes). */
const ALL_SCOPES = [
  'read_products,write_products',
  'read_orders,read_all_orders,write_orders',
  'read_inventory,write_inventory,read_locations',
  'read_fulfillments,write_fulfillments',
  'read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders',
  'read_third_party_fulfillment_orders',
].join(',')
const CLIENT_CREDENTIALS_TTL_S = 86399
const EXPIRING_OFFLINE_TTL_S = 3600
const REFRESH_TTL_S = 7776000

const invalidClient = () =>
  json(400, {
    error: 'invalid_client',
    error_description:
      'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  })

/**
 * Shopify's HMAC of a query: the parameters other than hmac, sorted and form-encoded as a query
 * (the way Shopify's own app library checks it), HMAC-SHA256 with the client secret, hex.
 * Answers the parameters with hmac among them, sorted.
 */
export function signParams(params: Record<string, string>, secret: string): URLSearchParams {
  const message = new URLSearchParams(
    Object.keys(params)
      .sort()
      .map((key): [string, string] => [key, params[key]!]),
  ).toString()
  const hmac = createHmac('sha256', secret).update(message).digest('hex')
  const all: Record<string, string> = { ...params, hmac }
  return new URLSearchParams(
    Object.keys(all)
      .sort()
      .map((key): [string, string] => [key, all[key]!]),
  )
}

/** Shopify's `host` parameter: base64 of the shop's admin path. */
const hostParam = (shop: ShopRecord) => Buffer.from(`${shop.domain}/admin`).toString('base64')

/** What Shopify appends to the App URL when a merchant opens the app. */
export function signedAppLaunch(shop: ShopRecord): URLSearchParams {
  const timestamp = String(Math.floor(Date.now() / 1000))
  return signParams({ host: hostParam(shop), shop: shop.domain, timestamp }, shop.app.clientSecret)
}

const randomToken = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`

function issue(list: TokenRecord[], prefix: string, scope: string, ttlSeconds: number | null) {
  const now = Date.now()
  const token = randomToken(prefix)
  // Expired tokens are forgotten as new ones are issued, so that the lists stay short.
  const live = list.filter((t) => t.expiresAt === null || t.expiresAt > now)
  list.splice(0, list.length, ...live, {
    token,
    scope,
    expiresAt: ttlSeconds === null ? null : now + ttlSeconds * 1000,
  })
  return token
}

/** The scopes of a live access token of the shop; undefined when it is unknown or expired. */
export function accessScopes(shop: ShopRecord, token: string | undefined): string[] | undefined {
  const now = Date.now()
  const found = shop.accessTokens.find(
    (t) => t.token === token && (t.expiresAt === null || t.expiresAt > now),
  )
  return found?.scope.split(',')
}

/** Removes and answers a single-use refresh token, when it is live. */
function spendRefreshToken(shop: ShopRecord, token: string | undefined): TokenRecord | undefined {
  const index = shop.refreshTokens.findIndex((t) => t.token === token)
  const [found] = index >= 0 ? shop.refreshTokens.splice(index, 1) : []
  return found && found.expiresAt !== null && found.expiresAt > Date.now() ? found : undefined
}

function expiringTokens(shop: ShopRecord, scope: string) {
  return {
    access_token: issue(shop.accessTokens, 'shpat_', scope, EXPIRING_OFFLINE_TTL_S),
    scope,
    expires_in: EXPIRING_OFFLINE_TTL_S,
    refresh_token: issue(shop.refreshTokens, 'shprt_', scope, REFRESH_TTL_S),
    refresh_token_expires_in: REFRESH_TTL_S,
  }
}

/** POST /{shop}/admin/oauth/access_token */
export function answerAccessToken(
  runtime: Runtime,
  shop: ShopRecord,
  params: Record<string, string>,
): Answer {
  if (params.client_id !== shop.app.clientId || params.client_secret !== shop.app.clientSecret)
    return invalidClient()
  let answer: Answer
  // An uninstalled app gets no token until the merchant approves it again (its refresh tokens
  // were revoked with it).
  if (shop.uninstalled && params.grant_type === 'client_credentials')
    return json(400, {
      error: 'app_not_installed',
      error_description: 'The application is not installed on this shop.',
    })
  if (params.grant_type === 'client_credentials') {
    if (shop.grant === 'refuse')
      return json(400, {
        error: 'shop_not_permitted',
        error_description: 'Client credentials cannot be performed on this shop.',
      })
    const scope = shop.scopes ?? ALL_SCOPES
    const accessToken = issue(shop.accessTokens, 'shpat_', scope, CLIENT_CREDENTIALS_TTL_S)
    const body = {
      access_token: accessToken,
      scope,
      expires_in: CLIENT_CREDENTIALS_TTL_S,
    }
    answer = json(200, body)
  } else if (params.grant_type === 'refresh_token') {
    const spent = spendRefreshToken(shop, params.refresh_token)
    if (!spent)
      return json(400, {
        error: 'invalid_request',
        error_description: 'The refresh token was not found, has expired or was already used',
      })
    answer = json(200, expiringTokens(shop, spent.scope))
  } else if (params.code) {
    const index = shop.authorizationCodes.findIndex((c) => c.code === params.code)
    const [grant] = index >= 0 ? shop.authorizationCodes.splice(index, 1) : []
    if (!grant)
      return json(400, {
        error: 'invalid_request',
        error_description: 'The authorization code was not found or was already used',
      })
    // Without expiring=1 Shopify still issues the legacy non-expiring offline token.
    answer =
      params.expiring === '1'
        ? json(200, expiringTokens(shop, grant.scope))
        : json(200, {
            access_token: issue(shop.accessTokens, 'shpat_', grant.scope, null),
            scope: grant.scope,
          })
  } else {
    return json(400, { error: 'invalid_request', error_description: 'Missing grant_type or code' })
  }
  runtime.save()
  return answer
}

/** GET /{shop}/admin/oauth/authorize: the merchant approves at once. */
export function answerAuthorize(
  runtime: Runtime,
  shop: ShopRecord,
  query: URLSearchParams,
): Answer {
  const redirectUri = query.get('redirect_uri')
  if (query.get('client_id') !== shop.app.clientId || !redirectUri)
    return json(400, {
      errors: 'Oauth error invalid_request: The client_id or redirect_uri is invalid',
    })
  const code = randomBytes(16).toString('hex')
  // Approving the app installs it again.
  delete shop.uninstalled
  shop.authorizationCodes.push({ code, scope: query.get('scope') || ALL_SCOPES })
  runtime.save()
  const params: Record<string, string> = {
    code,
    host: hostParam(shop),
    shop: shop.domain,
    timestamp: String(Math.floor(Date.now() / 1000)),
  }
  const state = query.get('state')
  if (state !== null) params.state = state
  const location = new URL(redirectUri)
  for (const [key, value] of signParams(params, shop.app.clientSecret))
    location.searchParams.set(key, value)
  return { status: 302, headers: { Location: location.toString() }, body: '' }
}
