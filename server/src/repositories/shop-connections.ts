import type {
  ConnectionMethod,
  ConnectionStore,
  GrantedTokens,
} from '../adapters/commerce/shopify/shop-connections'
import type { Db } from '../db/connect'
import { underLeaseInTurn } from '../db/lease'
import { SecretUnreadableError, type SecretBox, type SecretPlace } from '../secrets'
import { findAppConfig } from './app-configs'

// Each shop's connection to Shopify (shop_connections): how it was granted, its tokens, sealed
// like client secrets (this module seals and opens them, nothing else sees either form), and
// why it last failed.

/**
 * The lease a shop's token renewal is done under. It outlives the token request (which gives up
 * after 30 s), so that it runs out only when its holder died; a waiting process asks again every
 * 100 ms, a small part of the request's own round trip.
 */
const RENEWAL_LEASE = { ttlMs: 60_000, pollMs: 100, now: () => new Date() }

/** A shop's connection as the configs screen tells it: nothing secret. */
export interface ShopConnectionRecord {
  method: ConnectionMethod
  /** Whether an access token is stored, whether or not it still opens. */
  holdsAccessToken: boolean
  accessTokenExpiresAt: string | null
  refreshTokenExpiresAt: string | null
  scopes: string[]
  /** Why the shop could not be reached last; null since a call to it succeeded. */
  error: string | null
}

const rowOf = (db: Db, shop: string) =>
  db.selectFrom('shop_connections').selectAll().where('shop', '=', shop).executeTakeFirst()

/** The shop's connection, or null for a shop Tandem never connected nor failed to. */
export async function findShopConnection(
  db: Db,
  shop: string,
): Promise<ShopConnectionRecord | null> {
  const row = await rowOf(db, shop)
  if (!row) return null
  return {
    method: row.method,
    holdsAccessToken: Boolean(row.access_token_sealed),
    accessTokenExpiresAt: row.access_token_expires_at,
    refreshTokenExpiresAt: row.refresh_token_expires_at,
    scopes: row.scopes ? row.scopes.split(',').filter(Boolean) : [],
    error: row.error,
  }
}

/** A call to the shop succeeded: the scopes it granted, and no error any more. */
export async function recordConnectionScopes(
  db: Db,
  shop: string,
  scopes: string[],
  at: Date,
): Promise<void> {
  await db
    .updateTable('shop_connections')
    .set({ scopes: scopes.join(','), error: null, updated_at: at.toISOString() })
    .where('shop', '=', shop)
    .execute()
}

/** Keeps why the shop could not be reached, until a call to it succeeds again. */
export async function recordConnectionError(
  db: Db,
  shop: string,
  error: unknown,
  at: Date,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error)
  const row = { error: message, updated_at: at.toISOString() }
  await db
    .insertInto('shop_connections')
    .values({ shop, method: 'CLIENT_CREDENTIALS', scopes: '', ...row })
    .onConflict((conflict) => conflict.column('shop').doUpdateSet(row))
    .execute()
}

/** The Shopify adapter's ConnectionStore over the database. */
export function shopConnectionStore(db: Db, secrets: SecretBox): ConnectionStore {
  /** A token that does not open (sealed under a key no longer held) is as good as none. */
  const openedOrNull = (sealed: string | null, place: SecretPlace): string | null => {
    if (!sealed) return null
    try {
      return secrets.open(sealed, place)
    } catch (error) {
      if (error instanceof SecretUnreadableError) return null
      throw error
    }
  }

  return {
    app: (shop) => findAppConfig(db, secrets, shop),

    async tokens(shop) {
      const row = await rowOf(db, shop)
      if (!row) return null
      return {
        method: row.method,
        holdsAccessToken: Boolean(row.access_token_sealed),
        accessToken: openedOrNull(row.access_token_sealed, { shop, field: 'Shopify access token' }),
        accessTokenExpiresAt: row.access_token_expires_at,
        refreshToken: openedOrNull(row.refresh_token_sealed, {
          shop,
          field: 'Shopify refresh token',
        }),
        refreshTokenExpiresAt: row.refresh_token_expires_at,
      }
    },

    async save(shop, tokens: GrantedTokens, at) {
      const row = {
        method: tokens.method,
        access_token_sealed: secrets.seal(tokens.accessToken, {
          shop,
          field: 'Shopify access token',
        }),
        access_token_expires_at: tokens.accessTokenExpiresAt,
        refresh_token_sealed: tokens.refreshToken
          ? secrets.seal(tokens.refreshToken, { shop, field: 'Shopify refresh token' })
          : null,
        refresh_token_expires_at: tokens.refreshTokenExpiresAt,
        scopes: tokens.scopes,
        error: null,
        updated_at: at.toISOString(),
      }
      await db
        .insertInto('shop_connections')
        .values({ shop, ...row })
        .onConflict((conflict) => conflict.column('shop').doUpdateSet(row))
        .execute()
    },

    recordError: (shop, error, at) => recordConnectionError(db, shop, error, at),

    async forget(shop) {
      await db.deleteFrom('shop_connections').where('shop', '=', shop).execute()
    },

    oneAtATime: (shop, work) => underLeaseInTurn(db, `shopify-token:${shop}`, RENEWAL_LEASE, work),
  }
}
