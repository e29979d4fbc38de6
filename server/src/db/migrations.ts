import { sql, type Kysely } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'

// Migrations live in code (one bundle, no folder to find at run time) and run at every start.
// Column types are the ones SQLite and PostgreSQL share; money and rates are bigint.

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('stores')
      .addColumn('shop', 'text', (c) => c.primaryKey())
      .addColumn('shop_type', 'text', (c) => c.notNull())
      .addColumn('product_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('products_synced_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('app_configs')
      .addColumn('shop', 'text', (c) => c.primaryKey())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
      .addColumn('shop_type', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('default_commissions')
      .addColumn('brand_store_shop', 'text', (c) =>
        c.primaryKey().references('stores.shop').onDelete('cascade'),
      )
      .addColumn('tandem_rate_hundredths', 'bigint', (c) => c.notNull())
      .addColumn('creator_rate_hundredths', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('unique_commission_rates')
      .addColumn('brand_store_shop', 'text', (c) =>
        c.notNull().references('stores.shop').onDelete('cascade'),
      )
      .addColumn('creator_store_shop', 'text', (c) =>
        c.notNull().references('stores.shop').onDelete('cascade'),
      )
      .addColumn('rate_hundredths', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('unique_commission_rates_pk', [
        'brand_store_shop',
        'creator_store_shop',
      ])
      .execute()

    await db.schema
      .createTable('commerce_products')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('store_shop', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('image_url', 'text')
      .execute()
    await db.schema
      .createIndex('commerce_products_store')
      .on('commerce_products')
      .column('store_shop')
      .execute()
    await db.schema
      .createTable('commerce_variants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('product_id', 'text', (c) => c.notNull())
      .addColumn('store_shop', 'text', (c) => c.notNull())
      .addColumn('price_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('inventory_quantity', 'bigint', (c) => c.notNull())
      .addColumn('source_variant_id', 'text')
      .execute()
    await db.schema
      .createTable('commerce_orders')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('store_shop', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('subtotal_minor', 'bigint', (c) => c.notNull())
      .addColumn('tax_minor', 'bigint', (c) => c.notNull())
      .addColumn('shipping_minor', 'bigint', (c) => c.notNull())
      .addColumn('total_minor', 'bigint', (c) => c.notNull())
      .addColumn('shipping_address', 'text')
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('paid', 'integer', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('commerce_order_lines')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'bigint', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('variant_id', 'text')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('quantity', 'bigint', (c) => c.notNull())
      .addColumn('unit_price_minor', 'bigint', (c) => c.notNull())
      .addColumn('discount_minor', 'bigint', (c) => c.notNull())
      .addColumn('image_url', 'text')
      .execute()
    await db.schema
      .createIndex('commerce_order_lines_order')
      .on('commerce_order_lines')
      .column('order_id')
      .execute()

    await db.schema
      .createTable('payment_accounts')
      .addColumn('store_shop', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('payment_transfers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
      .addColumn('destination_account_id', 'text', (c) => c.notNull())
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()

    await db.schema
      .createTable('order_transfers')
      .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
      .addColumn('creator_store_shop', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_at', 'text')
      .addColumn('processed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('order_transfer_brands')
      .addColumn('creator_order_id', 'text', (c) =>
        c.notNull().references('order_transfers.creator_order_id').onDelete('cascade'),
      )
      .addColumn('brand_store_shop', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('base_minor', 'bigint', (c) => c.notNull())
      .addColumn('tandem_rate_hundredths', 'bigint', (c) => c.notNull())
      .addColumn('creator_rate_hundredths', 'bigint', (c) => c.notNull())
      .addColumn('creator_commission_minor', 'bigint', (c) => c.notNull())
      .addColumn('tandem_commission_minor', 'bigint', (c) => c.notNull())
      .addColumn('brand_amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('lines', 'text', (c) => c.notNull())
      .addColumn('brand_order_id', 'text')
      .addColumn('paid_at', 'text')
      .addColumn('payment_transfer_id', 'text')
      .addColumn('failed_step', 'text')
      .addColumn('failed_message', 'text')
      .addPrimaryKeyConstraint('order_transfer_brands_pk', ['creator_order_id', 'brand_store_shop'])
      .execute()
  },
}

/**
 * Runs a migration in one transaction on SQLite too (Kysely runs SQLite's migrations outside one):
 * a crash half-way through must leave the database as it was, not half migrated.
 */
const inOneTransaction = (db: Kysely<unknown>, run: (trx: Kysely<unknown>) => Promise<void>) =>
  db.isTransaction ? run(db) : db.transaction().execute(run)

/**
 * Exactly-once processing: a lease on each transfer, the step each brand has under way (its
 * intent, so a crash between a remote call and its record is reconciled, not repeated), and a
 * sandbox as strict as Shopify and Stripe: idempotency keys kept apart from the transfers they
 * name (so that they can be forgotten after 24 hours), transfer groups, and scripted faults.
 */
const exactlyOnce: Migration = {
  async up(db: Kysely<unknown>) {
    await inOneTransaction(db, async (trx) => {
      await trx.schema.alterTable('order_transfers').addColumn('lease_expires_at', 'text').execute()
      await trx.schema
        .alterTable('order_transfer_brands')
        .addColumn('pending_step', 'text')
        .execute()
      await trx.schema
        .alterTable('order_transfer_brands')
        .addColumn('pending_since', 'text')
        .execute()
      await trx.schema
        .alterTable('order_transfer_brands')
        .addColumn('transfer_destination', 'text')
        .execute()

      // SQLite cannot drop the unique constraint on idempotency_key: the table is rebuilt. Keys of
      // earlier sandbox transfers are not carried over (Stripe forgets them after a day anyway).
      await trx.schema
        .createTable('payment_transfers_next')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('destination_account_id', 'text', (c) => c.notNull())
        .addColumn('amount_minor', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('transfer_group', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await trx
        .insertInto('payment_transfers_next' as never)
        .columns([
          'id',
          'destination_account_id',
          'amount_minor',
          'currency',
          'created_at',
        ] as never)
        .expression(
          trx
            .selectFrom('payment_transfers' as never)
            .select([
              'id',
              'destination_account_id',
              'amount_minor',
              'currency',
              'created_at',
            ] as never),
        )
        .execute()
      await trx.schema.dropTable('payment_transfers').execute()
      await trx.schema.alterTable('payment_transfers_next').renameTo('payment_transfers').execute()
      await trx.schema
        .createIndex('payment_transfers_group')
        .on('payment_transfers')
        .columns(['transfer_group', 'destination_account_id'])
        .execute()
      await trx.schema
        .createTable('payment_idempotency_keys')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('transfer_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await trx.schema
        .createTable('sandbox_faults')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('delay_ms', 'bigint', (c) => c.notNull())
        .addColumn('remaining', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
    })
  },
}

/**
 * Shopify for real: each shop's connection (its access token, sealed, and how it was granted),
 * the products a sync stored per shop and the sync's progress, the webhooks received (to ignore
 * repeats), the install's single-use states, and the index of creator orders. The sandbox commerce tables go: the Shopify emulator holds
 * that state now, as Shopify does for real stores.
 */
const shopify: Migration = {
  up: (db: Kysely<unknown>) =>
    inOneTransaction(db, async (trx) => {
      await trx.schema
        .createTable('shop_connections')
        .addColumn('shop', 'text', (c) => c.primaryKey())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('access_token_sealed', 'text')
        .addColumn('access_token_expires_at', 'text')
        .addColumn('refresh_token_sealed', 'text')
        .addColumn('refresh_token_expires_at', 'text')
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await trx.schema
        .createTable('store_products')
        .addColumn('store_shop', 'text', (c) =>
          c.notNull().references('stores.shop').onDelete('cascade'),
        )
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('variant_count', 'bigint', (c) => c.notNull())
        .addColumn('min_price_minor', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('seen_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('store_products_pk', ['store_shop', 'product_id'])
        .execute()
      await trx.schema
        .createTable('product_syncs')
        .addColumn('store_shop', 'text', (c) =>
          c.primaryKey().references('stores.shop').onDelete('cascade'),
        )
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('fetched', 'bigint', (c) => c.notNull())
        .addColumn('total', 'bigint')
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('synced_at', 'text')
        .addColumn('message', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('run_id', 'text')
        .execute()
      await trx.schema
        .createTable('webhook_deliveries')
        .addColumn('webhook_id', 'text', (c) => c.primaryKey())
        .addColumn('shop', 'text', (c) => c.notNull())
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute()
      await trx.schema
        .createTable('oauth_states')
        .addColumn('state', 'text', (c) => c.primaryKey())
        .addColumn('shop', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await trx.schema
        .createTable('creator_order_index')
        .addColumn('order_id', 'bigint', (c) => c.primaryKey())
        .addColumn('store_shop', 'text', (c) => c.notNull())
        .execute()
      for (const table of [
        'commerce_order_lines',
        'commerce_orders',
        'commerce_variants',
        'commerce_products',
      ]) {
        await trx.schema.dropTable(table).execute()
      }
    }),
}

/**
 * Stripe for real: Stripe holds the accounts, transfers and idempotency keys, so the sandbox's
 * tables go. What stays is Tandem's own fact, which account each brand store is paid to; the
 * sandbox's accounts carry over as such.
 */
const stripe: Migration = {
  up: (db: Kysely<unknown>) =>
    inOneTransaction(db, async (trx) => {
      await trx.schema
        .createTable('store_payment_accounts')
        .addColumn('store_shop', 'text', (c) =>
          c.primaryKey().references('stores.shop').onDelete('cascade'),
        )
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await sql`
        INSERT INTO store_payment_accounts (store_shop, account_id, updated_at)
        SELECT store_shop, account_id, ${new Date().toISOString()} FROM payment_accounts
        WHERE store_shop IN (SELECT shop FROM stores)
      `.execute(trx)
      for (const table of [
        'payment_accounts',
        'payment_transfers',
        'payment_idempotency_keys',
        'sandbox_faults',
      ]) {
        await trx.schema.dropTable(table).execute()
      }
    }),
}

/**
 * The daily screens: the creator-order index carries what the orders inbox lists (newest first,
 * paged by created_at and id), products are listed by title, a transfer names who processed it,
 * and the audit log.
 */
const dailyScreens: Migration = {
  up: (db: Kysely<unknown>) =>
    inOneTransaction(db, async (trx) => {
      for (const [column, type] of [
        ['name', 'text'],
        ['created_at', 'text'],
        ['currency', 'text'],
        ['total_minor', 'bigint'],
      ] as const) {
        await trx.schema.alterTable('creator_order_index').addColumn(column, type).execute()
      }
      await trx.schema
        .createIndex('creator_order_index_newest')
        .on('creator_order_index')
        .columns(['created_at', 'order_id'])
        .execute()
      await trx.schema
        .createIndex('creator_order_index_shop_newest')
        .on('creator_order_index')
        .columns(['store_shop', 'created_at', 'order_id'])
        .execute()
      await trx.schema
        .createIndex('store_products_by_title')
        .on('store_products')
        .columns(['store_shop', 'title', 'product_id'])
        .execute()
      await trx.schema.alterTable('order_transfers').addColumn('processed_by', 'text').execute()
      await trx.schema
        .createIndex('order_transfers_newest')
        .on('order_transfers')
        .columns(['created_at', 'creator_order_id'])
        .execute()
      await trx.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_email', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .execute()
      await trx.schema
        .createIndex('audit_log_newest')
        .on('audit_log')
        .columns(['at', 'id'])
        .execute()
    }),
}

/** Work that one server process at a time does (the start-up catch-up): who holds it, until when. */
const leases: Migration = {
  up: (db: Kysely<unknown>) =>
    db.schema
      .createTable('leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute(),
}

/**
 * The currencies whose minor units changed when Stripe's currency table replaced ICU's: ICU counts
 * no decimals, Stripe two (HUF, IDR, COP, ISK, UGX …). Fixed as of 007; amounts stored in them
 * before are rescaled so that "4990" HUF stays 4,990 forints, except a brand already paid: Stripe
 * moved its amount as it reads it now, and the record keeps what was moved (an underpayment to put
 * right, not to hide). (LYD, three decimals in ICU and two by Stripe's default, is not a currency
 * Stripe charges in.)
 */
const ICU_WHOLE_STRIPE_TWO_DECIMALS =
  'AFN ALL COP HUF IDR IQD IRR ISK KPW LAK LBP MMK PKR SLL SOS SYP UGX YER'.split(' ')

/**
 * Money owed out of a charge: each PaymentIntent pays for at most one creator order (held when its
 * transfer is first frozen), and a brand's figures in the platform's settlement currency beside
 * the order's, with the charge's exchange rate (null on transfers frozen before this). Minor units
 * become Stripe's (above).
 */
const owedMoney: Migration = {
  up: (db: Kysely<unknown>) =>
    inOneTransaction(db, async (trx) => {
      const rescaled = sql.join(ICU_WHOLE_STRIPE_TWO_DECIMALS.map((code) => sql.lit(code)))
      await sql`
        UPDATE store_products SET min_price_minor = min_price_minor * 100
        WHERE currency IN (${rescaled})
      `.execute(trx)
      await sql`
        UPDATE creator_order_index SET total_minor = total_minor * 100
        WHERE currency IN (${rescaled})
      `.execute(trx)
      await sql`
        UPDATE order_transfer_brands SET base_minor = base_minor * 100,
          creator_commission_minor = creator_commission_minor * 100,
          tandem_commission_minor = tandem_commission_minor * 100,
          brand_amount_minor = brand_amount_minor * 100
        WHERE payment_transfer_id IS NULL AND creator_order_id IN
          (SELECT creator_order_id FROM order_transfers WHERE currency IN (${rescaled}))
      `.execute(trx)
      await trx.schema
        .createTable('payment_intent_orders')
        .addColumn('payment_intent_id', 'text', (c) => c.primaryKey())
        .addColumn('creator_order_id', 'text', (c) => c.notNull())
        .addColumn('creator_store_shop', 'text', (c) => c.notNull())
        .addColumn('held_at', 'text', (c) => c.notNull())
        .execute()
      const brands = () => trx.schema.alterTable('order_transfer_brands')
      await brands().addColumn('settlement_currency', 'text').execute()
      await brands().addColumn('exchange_rate', 'text').execute()
      for (const column of [
        'brand_amount_settlement_minor',
        'creator_commission_settlement_minor',
        'tandem_commission_settlement_minor',
      ]) {
        await brands().addColumn(column, 'bigint').execute()
      }
    }),
}

/**
 * Which brand variant each creator variant stands for (Tandem's record, never the creator's
 * store's), and the price exceptions administrators accepted for single orders.
 */
const catalogueLinks: Migration = {
  up: (db: Kysely<unknown>) =>
    inOneTransaction(db, async (trx) => {
      await trx.schema
        .createTable('variant_links')
        .addColumn('creator_variant_id', 'text', (c) => c.primaryKey())
        // No foreign keys: a link outlives its store, so that an order of a brand the marketplace
        // dropped is refused ("Store not found") rather than taken for the creator's own product.
        .addColumn('creator_store_shop', 'text', (c) => c.notNull())
        .addColumn('brand_store_shop', 'text', (c) => c.notNull())
        .addColumn('brand_variant_id', 'text', (c) => c.notNull())
        .addColumn('linked_at', 'text', (c) => c.notNull())
        .execute()
      await trx.schema
        .createTable('price_exceptions')
        .addColumn('creator_order_id', 'text', (c) => c.primaryKey())
        .addColumn('accepted_lines', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('accepted_by', 'text')
        .addColumn('accepted_at', 'text', (c) => c.notNull())
        .execute()
    }),
}

const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_exactly_once': exactlyOnce,
  '003_shopify': shopify,
  '004_stripe': stripe,
  '005_daily_screens': dailyScreens,
  '006_leases': leases,
  '007_owed_money': owedMoney,
  '008_catalogue_links': catalogueLinks,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

/**
 * `schema`: where the migration bookkeeping lives when the database has several (the tests').
 * `upTo`: the last migration to run (a test's database as an older server left it).
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  schema?: string,
  upTo?: string,
): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema })
  const { error, results } = await (upTo ? migrator.migrateTo(upTo) : migrator.migrateToLatest())
  const failed = results?.find((result) => result.status === 'Error')
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: error })
  }
}
