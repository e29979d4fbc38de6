import { randomBytes } from 'node:crypto'
import type { AppConfig, ShopConnection, ShopType } from '@shared/contract'
import { CommerceError } from '../adapters/commerce/commerce-port'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import {
  findAppConfig,
  findAppConfigShopType,
  type ReadableAppConfig,
} from '../repositories/app-configs'
import { insertOAuthState, takeOAuthState } from '../repositories/oauth-states'
import {
  findShopConnection,
  recordConnectionError,
  recordConnectionScopes,
} from '../repositories/shop-connections'
import { recordStore } from '../repositories/stores'
import { requeueOrdersWaitingOn } from './automatic-transfers'

// Each shop's connection: what the configs screen shows of it and its "Test connection", and the
// authorization-code install, for a shop whose organisation Shopify does not let Tandem's app use
// the client-credentials grant with (routes/shopify-install.ts is Shopify's side of it). Neither
// is audited: a test changes no setting, and an install is Shopify's call, not an administrator's.
// A shop Tandem connects to either way is a store of the marketplace from then on.

type Deps = Pick<RouteDeps, 'db' | 'secrets' | 'shopify' | 'now' | 'jobs'>

/**
 * What the app asks of a shop: its products and stock, to read (a brand's) and to write (the
 * listings on a creator's), with the location stock is kept at; orders to read and to create,
 * all of them, since without read_all_orders Shopify hides those older than 60 days; and their
 * fulfillments and fulfillment orders, to read (a brand's shipments) and to write (the creator's,
 * with the brand's tracking). A brand shipping from a fulfillment service's location (a 3PL) has
 * its fulfillment orders there left out for an app without read_third_party_fulfillment_orders
 * (Admin GraphQL 2026-10, FulfillmentOrder); Tandem only reads those, a 3PL ships them.
 */
export const INSTALL_SCOPES =
  'read_products,write_products,read_inventory,write_inventory,read_locations,read_orders,read_all_orders,write_orders,write_fulfillments,write_merchant_managed_fulfillment_orders,read_third_party_fulfillment_orders'

/** How long an install may take between its start and Shopify's callback. */
const STATE_TTL_MS = 10 * 60_000

/** Only a shop with an app config can be connected: any other is not found. */
async function configuredShopType(deps: Pick<Deps, 'db'>, shop: string): Promise<ShopType> {
  const shopType = await findAppConfigShopType(deps.db, shop)
  if (!shopType) throw new Refusal('not_found', `No app config for ${shop}`)
  return shopType
}

/**
 * Whether Tandem holds a live token for the shop, how it was granted, with which scopes, and the
 * reason of the last failure.
 */
export async function shopConnection(
  deps: Pick<Deps, 'db' | 'now'>,
  shop: string,
): Promise<ShopConnection> {
  await configuredShopType(deps, shop)
  return statusOf(deps, shop)
}

/**
 * Asks the shop itself, getting a token first if need be, and registers its webhooks again; a
 * failure is recorded as the connection's error, a success clears it.
 */
export async function testShopConnection(deps: Deps, shop: string): Promise<ShopConnection> {
  const shopType = await configuredShopType(deps, shop)
  try {
    const scopes = await deps.shopify.installation.scopes(shop)
    await deps.shopify.registerWebhooks(shop, shopType)
    await recordConnectionScopes(deps.db, shop, scopes, deps.now())
  } catch (error) {
    await recordConnectionError(deps.db, shop, error, deps.now())
    return statusOf(deps, shop)
  }
  await connected(deps, shop, shopType)
  return statusOf(deps, shop)
}

/**
 * After Tandem connected to the shop (a connection test passed, an install finished), in one
 * transaction: the shop becomes a store of its app config's type unless it is one already (stores
 * come from installs: production never seeds), and a brand's orders that need attention go back
 * on the queue at once, since a brand store unknown or not connected is fixed by exactly this.
 * Those still refused come back to "needs attention".
 */
async function connected(deps: Pick<Deps, 'db' | 'jobs' | 'now'>, shop: string, type: ShopType) {
  await deps.db.transaction().execute(async (trx) => {
    await recordStore(trx, shop, type, deps.now().toISOString())
    if (type === 'BRAND') await requeueOrdersWaitingOn(deps, trx, shop)
  })
}

async function statusOf(deps: Pick<Deps, 'db' | 'now'>, shop: string): Promise<ShopConnection> {
  const connection = await findShopConnection(deps.db, shop)
  if (connection?.error) {
    return { shop, state: 'ERROR', method: null, scopes: [], message: connection.error }
  }
  const now = deps.now().getTime()
  const live =
    connection?.holdsAccessToken &&
    (Date.parse(connection.accessTokenExpiresAt ?? '') > now ||
      Date.parse(connection.refreshTokenExpiresAt ?? '') > now)
  if (!connection || !live) {
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
    method: connection.method,
    scopes: connection.scopes,
    message: null,
  }
}

/**
 * The shop's app config with its client secret, which Shopify signs its calls to Tandem with;
 * null when the shop has none. Throws SecretUnreadableError when the secret does not open.
 */
export const shopifyApp = (
  deps: Pick<Deps, 'db' | 'secrets'>,
  shop: string,
): Promise<ReadableAppConfig | null> => findAppConfig(deps.db, deps.secrets, shop)

/**
 * Starts the install: where to send the merchant to approve the app, with a `state` Shopify
 * brings back to `redirectUri` and that only this install can use.
 */
export async function startInstall(
  deps: Deps,
  app: AppConfig,
  redirectUri: string,
): Promise<string> {
  const state = randomBytes(16).toString('hex')
  await insertOAuthState(deps.db, { state, shop: app.shop, createdAt: deps.now().toISOString() })
  return deps.shopify.connections.authorizeUrl(app.shop, {
    client_id: app.clientId,
    scope: INSTALL_SCOPES,
    redirect_uri: redirectUri,
    state,
  })
}

/**
 * Whether Tandem started an install of the shop with this state, and lately. Single use: the
 * state goes as it is checked, so that a replayed callback finds nothing.
 */
export async function takeInstallState(
  deps: Pick<Deps, 'db' | 'now'>,
  shop: string,
  state: string,
): Promise<boolean> {
  const issuedAt = await takeOAuthState(deps.db, shop, state)
  return issuedAt !== null && deps.now().getTime() - Date.parse(issuedAt) <= STATE_TTL_MS
}

/** Finishes the install: the authorization code exchanged for the shop's tokens. */
export async function finishInstall(deps: Deps, app: AppConfig, code: string): Promise<void> {
  await deps.shopify.connections.exchangeCode(app.shop, code).catch((error: unknown) => {
    if (error instanceof CommerceError) throw new Refusal('upstream_failed', error.message)
    throw error
  })
  await connected(deps, app.shop, app.shopType)
}
