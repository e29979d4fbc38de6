import type { FastifyInstance } from 'fastify'
import type { RouteDeps } from '../deps'
import { HttpError } from '../http/errors'
import { defineRoute } from '../http/route'

// Each shop's connection as the configs screen shows it, and its "Test connection".

export function registerShopConnectionRoutes(app: FastifyInstance, deps: RouteDeps): void {
  /** Only a shop with an app config can be connected: 404 for any other. */
  const configured = async (shop: string) => {
    const config = await deps.db
      .selectFrom('app_configs')
      .select('shop')
      .where('shop', '=', shop)
      .executeTakeFirst()
    if (!config) throw new HttpError(404, `No app config for ${shop}`)
  }

  defineRoute(app, 'adminShopConnection', async ({ query }) => {
    await configured(query.shop)
    return deps.shopify.status.status(query.shop)
  })

  defineRoute(app, 'adminTestShopConnection', async ({ body }) => {
    await configured(body.shop)
    return deps.shopify.status.test(body.shop)
  })
}
