import type { FastifyInstance, FastifyRequest } from 'fastify'
import { SHOP_DOMAIN_PATTERN, type AppConfig } from '@shared/contract'
import { queryHmacValid } from '../adapters/commerce/shopify/shopify-hmac'
import type { RouteDeps } from '../deps'
import { HttpError } from '../http/errors'
import { CALLBACK_PATHS } from '../services/app-configs'
import {
  finishInstall,
  shopifyApp,
  startInstall,
  takeInstallState,
} from '../services/shop-connections'

// The authorization-code install, for a shop whose organisation Shopify does not let Tandem's app
// use the client-credentials grant with: Shopify opens the App URL `/shopify/{brand|creator}` with
// a signed query; Tandem sends the merchant to approve the app with a single-use `state`, and
// Shopify comes back to the callback with a code for an expiring token. Both are public paths,
// authenticated by Shopify's signature with the shop's client secret instead of an admin token.

/** How old a signed query may be: Shopify's requests are answered at once. */
const TIMESTAMP_WINDOW_S = 90

const TYPES = { brand: 'BRAND', creator: 'CREATOR' } as const

export function registerShopifyInstallRoutes(app: FastifyInstance, deps: RouteDeps): void {
  /** The query exactly as sent: the signature covers its decoded pairs. */
  const queryOf = (request: FastifyRequest) => new URLSearchParams(request.url.split('?')[1] ?? '')

  /** The shop of a query Shopify signed for an app of this type, just now; 401 otherwise. */
  async function signedBy(query: URLSearchParams, type: keyof typeof TYPES): Promise<AppConfig> {
    const shop = query.get('shop') ?? ''
    const config = SHOP_DOMAIN_PATTERN.test(shop) ? await shopifyApp(deps, shop) : null
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
      const redirectUri = `${deps.publicUrl}${appPath}${CALLBACK_PATHS[0]}`
      return reply.redirect(await startInstall(deps, config, redirectUri))
    })

    for (const callbackPath of CALLBACK_PATHS) {
      app.get(appPath + callbackPath, async (request, reply) => {
        const query = queryOf(request)
        const config = await signedBy(query, type)
        if (!(await takeInstallState(deps, config.shop, query.get('state') ?? ''))) {
          throw new HttpError(401, 'This install was not started here, or was finished already')
        }
        const code = query.get('code')
        if (!code) throw new HttpError(400, 'Shopify sent no authorization code')
        await finishInstall(deps, config, code)
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
