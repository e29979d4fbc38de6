import type { Kysely } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import * as initial from './001-initial'
import * as exactlyOnce from './002-exactly-once'
import * as shopify from './003-shopify'
import * as stripe from './004-stripe'
import * as dailyScreens from './005-daily-screens'
import * as leases from './006-leases'
import * as owedMoney from './007-owed-money'
import * as catalogueLinks from './008-catalogue-links'
import * as productImages from './009-product-images'
import * as jobs from './010-jobs'
import * as webhookInbox from './011-webhook-inbox'
import * as dataRequests from './012-data-requests'
import * as transferPolicy from './013-transfer-policy'
import * as automaticTransfers from './014-automatic-transfers'
import * as transferKeyAttempts from './015-transfer-key-attempts'
import * as holds from './016-holds'
import * as creatorPayouts from './017-creator-payouts'
import * as orderReversals from './018-order-reversals'
import * as catalogListings from './019-catalog-listings'
import * as shipments from './020-shipments'
import * as refundedAtFreeze from './021-refunded-at-freeze'
import * as fraudReleases from './022-fraud-releases'
import * as refundCatchUp from './023-refund-catch-up'
import * as reversalsByTransfer from './024-reversals-by-transfer'
import * as refundNews from './025-refund-news'
import * as shopifyKeyAttempts from './026-shopify-key-attempts'

// Migrations live in code (one module each, imported here and bundled with the server: no folder
// to find at run time) and run at every start. Column types are the ones SQLite and PostgreSQL
// share; money and rates are bigint.

/**
 * Every migration under the name each database records once it has run: a name is never changed,
 * and Kysely runs them in the names' order, so a new one's name sorts after the last.
 */
const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_exactly_once': exactlyOnce,
  '003_shopify': shopify,
  '004_stripe': stripe,
  '005_daily_screens': dailyScreens,
  '006_leases': leases,
  '007_owed_money': owedMoney,
  '008_catalogue_links': catalogueLinks,
  '009_product_images': productImages,
  '010_jobs': jobs,
  '011_webhook_inbox': webhookInbox,
  '012_data_requests': dataRequests,
  '013_transfer_policy': transferPolicy,
  '014_automatic_transfers': automaticTransfers,
  '015_transfer_key_attempts': transferKeyAttempts,
  '016_holds': holds,
  '017_creator_payouts': creatorPayouts,
  '018_order_reversals': orderReversals,
  '019_catalog_listings': catalogListings,
  '020_shipments': shipments,
  '021_refunded_at_freeze': refundedAtFreeze,
  '022_fraud_releases': fraudReleases,
  '023_refund_catch_up': refundCatchUp,
  '024_reversals_by_transfer': reversalsByTransfer,
  '025_refund_news': refundNews,
  '026_shopify_key_attempts': shopifyKeyAttempts,
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
