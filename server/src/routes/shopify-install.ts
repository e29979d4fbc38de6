import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { SHOP_DOMAIN_PATTERN, type AppConfig } from '@shared/contract'
import { CommerceError } from '../adapters/commerce/commerce-port'
import { queryHmacValid } from '../adapters/commerce/shopify/shopify-hmac'
import type { RouteDeps } from '../deps'
import { HttpError } from '../http/errors'
import { findAppConfig } from '../repositories/app-configs'
import { CALLBACK_PATHS } from './app-configs'

// The authorization-code install, for a shop whose organisation Shopify does not let Tandem's app
// use the client-credentials grant with: Shopify opens the App URL `/shopify/{brand|creator}` with
// a signed query; Tandem sends the merchant to approve the app with a single-use `state`, and
// Shopify comes back to the callback with a code for an expiring token. Both are public paths,
// authenticated by Shopify's signature with the shop's client secret instead of an admin token.

/**
 * What the app asks of a shop: its products, and orders to read and to create; all its orders,
 * since without read_all_orders Shopify hides those older than 60 days.
 */
export const INSTALL_SCOPES = 'read_products,read_orders,read_all_orders,write_orders'
/** How old a signed query may be: Shopify's requests are answered at once. */
const TIMESTAMP_WINDOW_S = 90
const STATE_TTL_MS = 10 * 60_000

const TYPES = { brand: 'BRAND', creator: 'CREATOR' } as const

export function registerShopifyInstallRoutes(app: FastifyInstance, deps: RouteDeps): void {
  /** The query exactly as sent: the signature covers its decoded pairs. */
  const queryOf = (request: FastifyRequest) => new URLSearchParams(request.url.split('?')[1] ?? '')

  /** The shop of a query Shopify signed for an app of this type, just now; 401 otherwise. */
  async function signedBy(query: URLSearchParams, type: keyof typeof TYPES): Promise<AppConfig> {
    const shop = query.get('shop') ?? ''
    const config = SHOP_DOMAIN_PATTERN.test(shop)
      ? await findAppConfig(deps.db, deps.secrets, shop)
      : null
    if (!config || config.shopType !== TYPES[type] || !queryHmacValid(query, config.clientSecret)) {
      throw new HttpError(
        401,
        `This request is not signed by Shopify for the ${type} app of a shop`,
      )
    }
    const sentAt = Number(query.get('timestamp'))
    if (!(Math.abs(deps.now().getTime() / 1000 - sentAt) <= TIMESTAMP_WINDOW_S)) {
      throw new HttpError(401, 'This request from Shopify is too old: open the app again')
    }
    return config
  }

  for (const type of Object.keys(TYPES) as (keyof typeof TYPES)[]) {
    const appPath = `/shopify/${type}`

    app.get(appPath, async (request, reply) => {
      const config = await signedBy(queryOf(request), type)
      const state = randomBytes(16).toString('hex')
      await deps.db
        .insertInto('oauth_states')
        .values({ state, shop: config.shop, created_at: deps.now().toISOString() })
        .execute()
      return reply.redirect(
        deps.shopify.connections.authorizeUrl(config.shop, {
          client_id: config.clientId,
          scope: INSTALL_SCOPES,
          redirect_uri: `${deps.publicUrl}${appPath}${CALLBACK_PATHS[0]}`,
          state,
        }),
      )
    })

    for (const callbackPath of CALLBACK_PATHS) {
      app.get(appPath + callbackPath, async (request, reply) => {
        const query = queryOf(request)
        const config = await signedBy(query, type)
        // Single use: the row goes as it is checked, so a replayed callback finds nothing.
        const issued = await deps.db
          .deleteFrom('oauth_states')
          .where('state', '=', query.get('state') ?? '')
          .where('shop', '=', config.shop)
          .returning('created_at')
          .executeTakeFirst()
        if (!issued || deps.now().getTime() - Date.parse(issued.created_at) > STATE_TTL_MS) {
          throw new HttpError(401, 'This install was not started here, or was finished already')
        }
        const code = query.get('code')
        if (!code) throw new HttpError(400, 'Shopify sent no authorization code')
        await deps.shopify.connections.exchangeCode(config.shop, code).catch((error: unknown) => {
          if (error instanceof CommerceError) throw new HttpError(502, error.message)
          throw error
        })
        return reply
          .type('text/html; charset=utf-8')
          .send(
            `<!doctype html><meta charset="utf-8"><title>Tandem</title>` +
              `<p>Tandem is connected to ${config.shop}. You can close this page.</p>`,
          )
      })
    }
  }
}
