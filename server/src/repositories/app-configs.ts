import type { AppConfig } from '@shared/contract'
import type { Db } from '../db/connect'
import type { AppConfigsTable } from '../db/schema'
import type { SecretBox } from '../secrets'

// Client secrets are sealed on the way in and opened on the way out: plain text never reaches the
// database, and this module is the only place that handles both forms.

const columns = ['shop', 'client_id', 'client_secret_sealed', 'shop_type'] as const

type Row = Pick<AppConfigsTable, (typeof columns)[number]>

const opened = (secrets: SecretBox, row: Row): AppConfig => ({
  shop: row.shop,
  clientId: row.client_id,
  clientSecret: secrets.open(row.client_secret_sealed),
  shopType: row.shop_type,
})

/** Every app config, by shop. */
export async function listAppConfigs(db: Db, secrets: SecretBox): Promise<AppConfig[]> {
  const rows = await db.selectFrom('app_configs').select(columns).orderBy('shop').execute()
  return rows.map((row) => opened(secrets, row))
}

/** The shop's app config, or null when it has none. */
export async function findAppConfig(
  db: Db,
  secrets: SecretBox,
  shop: string,
): Promise<AppConfig | null> {
  const row = await db
    .selectFrom('app_configs')
    .select(columns)
    .where('shop', '=', shop)
    .executeTakeFirst()
  return row ? opened(secrets, row) : null
}

/** Stores a new app config; null when the shop already has one (the existing one is kept). */
export async function insertAppConfig(
  db: Db,
  secrets: SecretBox,
  config: AppConfig,
  createdAt: string,
): Promise<AppConfig | null> {
  // ON CONFLICT DO NOTHING rather than look-then-insert: two concurrent creates for one shop
  // get one 201 and one 409, never a constraint error.
  const row = await db
    .insertInto('app_configs')
    .values({
      shop: config.shop,
      client_id: config.clientId,
      client_secret_sealed: secrets.seal(config.clientSecret),
      shop_type: config.shopType,
      created_at: createdAt,
    })
    .onConflict((conflict) => conflict.column('shop').doNothing())
    .returning(columns)
    .executeTakeFirst()
  return row ? opened(secrets, row) : null
}

/** Deletes the shop's app config and answers it, or null when the shop has none. */
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
  return row ? opened(secrets, row) : null
}
