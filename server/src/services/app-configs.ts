import type { AppConfig, CallBody, AppUrls } from '@shared/contract'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { deleteAppConfig, insertAppConfig, listAppConfigs } from '../repositories/app-configs'
import { auditedChange, type Actor } from './audited-change'

// The Shopify app credentials of each store. Client secrets pass through here in plain text:
// nothing here logs them, and refusals name fields, never their values.

/**
 * Where Shopify sends a merchant back after OAuth. The Partner dashboard's "Allowed redirection
 * URL(s)" takes several, so each app lists both callback paths that Shopify's app libraries use:
 * `/auth/callback` (the current templates) and `/auth/shopify/callback` (shopify_app and older
 * templates). Whichever the app is built with is then already allowed.
 */
export const CALLBACK_PATHS = ['/auth/callback', '/auth/shopify/callback']

const authUrls = (appUrl: string) => CALLBACK_PATHS.map((path) => appUrl + path).join(',')

type Deps = Pick<RouteDeps, 'db' | 'now' | 'secrets' | 'shopify' | 'publicUrl'>

export const appConfigs = (deps: Deps): Promise<AppConfig[]> =>
  listAppConfigs(deps.db, deps.secrets)

export async function createAppConfig(
  deps: Deps,
  actor: Actor,
  input: CallBody<'createAppConfig'>,
): Promise<AppConfig> {
  return auditedChange(deps, actor, async (trx) => {
    const created = await insertAppConfig(trx, deps.secrets, input, deps.now().toISOString())
    if (!created) throw new Refusal('conflict', `An app config for ${input.shop} already exists`)
    // Never the client secret.
    const details = { shopType: created.shopType, clientId: created.clientId }
    return {
      result: created,
      audit: { action: 'app-config.create', target: created.shop, details },
    }
  })
}

export async function removeAppConfig(deps: Deps, actor: Actor, shop: string): Promise<AppConfig> {
  const deleted = await auditedChange(deps, actor, async (trx) => {
    const config = await deleteAppConfig(trx, deps.secrets, shop)
    if (!config) throw new Refusal('not_found', `No app config for ${shop}`)
    const details = { shopType: config.shopType, clientId: config.clientId }
    return { result: config, audit: { action: 'app-config.delete', target: config.shop, details } }
  })
  // The app's tokens go with its config: nothing may call the shop with them any more.
  await deps.shopify.connections.forget(shop)
  return deleted
}

/** What an administrator enters in each Shopify app's settings in the Partner dashboard. */
export function appUrls(deps: Pick<Deps, 'publicUrl'>): AppUrls {
  const brandAppUrl = `${deps.publicUrl}/shopify/brand`
  const creatorAppUrl = `${deps.publicUrl}/shopify/creator`
  return {
    brandAppUrl,
    creatorAppUrl,
    brandAppAuthUrl: authUrls(brandAppUrl),
    creatorAppAuthUrl: authUrls(creatorAppUrl),
  }
}
