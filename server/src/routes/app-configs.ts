import type { FastifyInstance } from 'fastify'
import type { RouteDeps } from '../deps'
import { recordAudit } from '../audit/audit-log'
import { defineRoute } from '../http/route'
import { HttpError } from '../http/errors'
import { deleteAppConfig, insertAppConfig, listAppConfigs } from '../repositories/app-configs'

// The Shopify app credentials of each store. Client secrets pass through here in plain text:
// nothing here logs them, and error answers name fields, never their values.

/**
 * Where Shopify sends a merchant back after OAuth. The Partner dashboard's "Allowed redirection
 * URL(s)" takes several, so each app lists both callback paths that Shopify's app libraries use:
 * `/auth/callback` (the current templates) and `/auth/shopify/callback` (shopify_app and older
 * templates). Whichever the app is built with is then already allowed.
 */
export const CALLBACK_PATHS = ['/auth/callback', '/auth/shopify/callback']

const authUrls = (appUrl: string) => CALLBACK_PATHS.map((path) => appUrl + path).join(',')

export function registerAppConfigRoutes(app: FastifyInstance, deps: RouteDeps): void {
  defineRoute(app, 'getAllAppConfig', async () => ({
    appConfigs: await listAppConfigs(deps.db, deps.secrets),
  }))

  defineRoute(app, 'createAppConfig', async ({ body, request }) => {
    const appConfig = await deps.db.transaction().execute(async (trx) => {
      const created = await insertAppConfig(trx, deps.secrets, body, deps.now().toISOString())
      if (!created) throw new HttpError(409, `An app config for ${body.shop} already exists`)
      await recordAudit(trx, deps.now(), {
        actorEmail: request.adminEmail,
        action: 'app-config.create',
        target: created.shop,
        // Never the client secret.
        details: { shopType: created.shopType, clientId: created.clientId },
      })
      return created
    })
    return { appConfig }
  })

  defineRoute(app, 'deleteAppConfig', async ({ params, request }) => {
    const appConfig = await deps.db.transaction().execute(async (trx) => {
      const deleted = await deleteAppConfig(trx, deps.secrets, params.shop)
      if (!deleted) throw new HttpError(404, `No app config for ${params.shop}`)
      await recordAudit(trx, deps.now(), {
        actorEmail: request.adminEmail,
        action: 'app-config.delete',
        target: deleted.shop,
        details: { shopType: deleted.shopType, clientId: deleted.clientId },
      })
      return deleted
    })
    // The app's tokens go with its config: nothing may call the shop with them any more.
    await deps.shopify.connections.forget(params.shop)
    return { appConfig }
  })

  defineRoute(app, 'getAppUrls', async () => {
    const brandAppUrl = `${deps.publicUrl}/shopify/brand`
    const creatorAppUrl = `${deps.publicUrl}/shopify/creator`
    return {
      brandAppUrl,
      creatorAppUrl,
      brandAppAuthUrl: authUrls(brandAppUrl),
      creatorAppAuthUrl: authUrls(creatorAppUrl),
    }
  })
}
