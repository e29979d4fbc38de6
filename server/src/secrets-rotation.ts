import type { Db } from './db/connect'
import { SecretUnreadableError, type SecretBox, type SecretPlace } from './secrets'

// `npm run secrets:rotate`: every client secret and Shopify token sealed anew under the current
// key (TANDEM_SECRET_KEY), opened with whichever key held sealed it (TANDEM_PREVIOUS_SECRET_KEYS),
// old-format values included. One transaction: either every value is under the new key, or, when
// one does not open, none was changed and each that failed is named. Each value is written only
// where it is still the one read: a server that renewed a token meanwhile (under the new key
// already) keeps its token, and the rotation is refused, to be run again.

export interface RotationResult {
  keyId: string
  clientSecrets: number
  tokens: number
}

export class RotationRefused extends Error {
  constructor(message: string) {
    super(`Nothing was changed: ${message}`)
    this.name = 'RotationRefused'
  }
}

export async function rotateSecrets(db: Db, secrets: SecretBox): Promise<RotationResult> {
  return db.transaction().execute(async (trx) => {
    const configs = await trx
      .selectFrom('app_configs')
      .select(['shop', 'client_secret_sealed'])
      .execute()
    const connections = await trx
      .selectFrom('shop_connections')
      .select(['shop', 'access_token_sealed', 'refresh_token_sealed'])
      .execute()

    const unreadable: string[] = []
    const reseal = (sealed: string, place: SecretPlace): string => {
      try {
        return secrets.seal(secrets.open(sealed, place), place)
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error
        unreadable.push(error.message)
        return sealed
      }
    }
    const changes = [
      ...configs.map((row) => ({
        table: 'app_configs' as const,
        column: 'client_secret_sealed' as const,
        shop: row.shop,
        read: row.client_secret_sealed,
        sealed: reseal(row.client_secret_sealed, { shop: row.shop, field: 'client secret' }),
      })),
      ...connections.flatMap((row) =>
        (
          [
            ['access_token_sealed', row.access_token_sealed, 'Shopify access token'],
            ['refresh_token_sealed', row.refresh_token_sealed, 'Shopify refresh token'],
          ] as const
        )
          .filter(([, read]) => read !== null)
          .map(([column, read, field]) => ({
            table: 'shop_connections' as const,
            column,
            shop: row.shop,
            read: read!,
            sealed: reseal(read!, { shop: row.shop, field }),
          })),
      ),
    ]
    if (unreadable.length > 0) {
      throw new RotationRefused(
        `${unreadable.length} stored value(s) do not open.\n- ${unreadable.join('\n- ')}`,
      )
    }

    for (const change of changes) {
      const written = await trx
        .updateTable(change.table)
        .set({ [change.column]: change.sealed })
        .where('shop', '=', change.shop)
        .where(change.column, '=', change.read)
        .executeTakeFirst()
      if (written.numUpdatedRows === 0n) {
        throw new RotationRefused(
          `the ${change.column.replace('_sealed', '').replaceAll('_', ' ')} of ${change.shop} ` +
            'changed while the rotation ran (a server renewed it): run it again',
        )
      }
    }
    return {
      keyId: secrets.keyId,
      clientSecrets: configs.length,
      tokens: changes.length - configs.length,
    }
  })
}
