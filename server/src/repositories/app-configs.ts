import type { AppConfig, ShopType } from '@shared/contract'
import type { Db } from '../db/connect'
import type { AppConfigsTable } from '../db/schema'
import { SecretUnreadableError, type SecretBox } from '../secrets'

// Client secrets are sealed on the way in and opened on the way out: plain text never reaches the
// database, and this module is the only place that handles both forms.

/** An app config whose client secret opened: what Shopify's calls and signatures need. */
export type ReadableAppConfig = AppConfig & { clientSecret: string }

const columns = ['shop', 'client_id', 'client_secret_sealed', 'shop_type'] as const

type Row = Pick<AppConfigsTable, (typeof columns)[number]>

/** Throws SecretUnreadableError, naming the shop, when the secret does not open. */
const opened = (secrets: SecretBox, row: Row): ReadableAppConfig => ({
  shop: row.shop,
  clientId: row.client_id,
  clientSecret: secrets.open(row.client_secret_sealed, { shop: row.shop, field: 'client secret' }),
  secretError: null,
  shopType: row.shop_type,
})

/** As the console sees it: a secret that does not open is that row's error, not the list's. */
function shown(secrets: SecretBox, row: Row): AppConfig {
  try {
    return opened(secrets, row)
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error
    return {
      shop: row.shop,
      clientId: row.client_id,
      clientSecret: null,
      secretError: error.message,
      shopType: row.shop_type,
    }
  }
}

/** Every app config, by shop. */
export async function listAppConfigs(db: Db, secrets: SecretBox): Promise<AppConfig[]> {
  const rows = await db.selectFrom('app_configs').select(columns).orderBy('shop').execute()
  return rows.map((row) => shown(secrets, row))
}

/**
 * The shop's app config, or null when it has none; throws SecretUnreadableError when its secret
 * does not open, since nothing that needs it can go on.
 */
export async function findAppConfig(
  db: Db,
  secrets: SecretBox,
  shop: string,
): Promise<ReadableAppConfig | null> {
  const row = await db
    .selectFrom('app_configs')
    .select(columns)
    .where('shop', '=', shop)
    .executeTakeFirst()
  return row ? opened(secrets, row) : null
}

/** The type of the shop's app, or null when it has none; opens no secret. */
export async function findAppConfigShopType(db: Db, shop: string): Promise<ShopType | null> {
  const row = await db
    .selectFrom('app_configs')
    .select('shop_type')
    .where('shop', '=', shop)
    .executeTakeFirst()
  return row?.shop_type ?? null
}

/** Stores a new app config; null when the shop already has one (the existing one is kept). */
export async function insertAppConfig(
  db: Db,
  secrets: SecretBox,
  config: Pick<ReadableAppConfig, 'shop' | 'clientId' | 'clientSecret' | 'shopType'>,
  createdAt: string,
): Promise<AppConfig | null> {
  // ON CONFLICT DO NOTHING rather than look-then-insert: two concurrent creates for one shop
  // get one 201 and one 409, never a constraint error.
  const row = await db
    .insertInto('app_configs')
    .values({
      shop: config.shop,
      client_id: config.clientId,
      client_secret_sealed: secrets.seal(config.clientSecret, {
        shop: config.shop,
        field: 'client secret',
      }),
      shop_type: config.shopType,
      created_at: createdAt,
    })
    .onConflict((conflict) => conflict.column('shop').doNothing())
    .returning(columns)
    .executeTakeFirst()
  return row ? shown(secrets, row) : null
}

/**
 * Deletes the shop's app config and answers it, or null when the shop has none. A config whose
 * secret does not open is deleted too: adding it again is how its owner mends it.
 */
export async function deleteAppConfig(
  db: Db,
  secrets: SecretBox,
  shop: string,
): Promise<AppConfig | null> {
  const row = await db
    .deleteFrom('app_configs')
    .where('shop', '=', shop)
    .returning(columns)
    .executeTakeFirst()
  return row ? shown(secrets, row) : null
}
