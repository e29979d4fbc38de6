import type { Kysely } from 'kysely'

/**
 * Each stored product's featured image, as the console's Products table shows it. Products synced
 * before have none until the next sync or products/update webhook reads them again.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  db.schema.alterTable('store_products').addColumn('image_url', 'text').execute()
