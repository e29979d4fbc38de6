import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../server/src/db/connect'
import { attention } from '../../server/src/domain/attention'
import {
  ANONYMISED_WITH_SHOP,
  ERASED_WITH_SHOP,
  TEXT_NAMING_SHOP,
  eraseShop,
} from '../../server/src/repositories/privacy'
import { holdsText, schemaTables, type SchemaTable } from './support/schema-tables'
import { freshDatabase } from './support/server-under-test'

// A shop's erasure (shop/redact, docs/privacy.md) against the live schema, not a list kept by
// hand: every column of every table that can hold a shop's domain is erased, renamed or said to
// name no shop, so that a table added later cannot keep a shop Shopify asked Tandem to forget;
// and a row naming the shop in every one of them is erased or renamed, in one go.

/**
 * The text columns that never name a shop other than their own row's, which goes with it: ids
 * (Shopify's, Stripe's, Tandem's), times, states, currencies, codes, sealed secrets, the data a
 * shop's own row holds of itself. A column added to the schema that can name a shop belongs in
 * ERASED_WITH_SHOP, ANONYMISED_WITH_SHOP or TEXT_NAMING_SHOP (server/src/repositories/privacy.ts),
 * and one that cannot here, with why.
 */
const NAMES_NO_SHOP: Record<string, string[]> = {
  // The shop's own rows, erased with it: its settings, tokens, products, order headers.
  stores: ['shop_type', 'products_synced_at', 'created_at'],
  app_configs: ['client_id', 'client_secret_sealed', 'shop_type', 'created_at'],
  default_commissions: ['updated_at'],
  unique_commission_rates: ['updated_at'],
  shop_connections: [
    'method',
    'access_token_sealed',
    'access_token_expires_at',
    'refresh_token_sealed',
    'refresh_token_expires_at',
    'scopes',
    'error',
    'updated_at',
  ],
  creator_order_index: ['name', 'created_at', 'currency'],
  store_products: [
    'product_id',
    'title',
    'status',
    'currency',
    'image_url',
    'shopify_updated_at',
    'seen_at',
  ],
  webhook_deliveries: ['webhook_id', 'topic', 'received_at', 'body', 'done_at'],
  oauth_states: ['state', 'created_at'],
  product_syncs: ['state', 'started_at', 'synced_at', 'message', 'updated_at', 'run_id'],
  store_payment_accounts: ['account_id', 'updated_at'],
  data_requests: ['id', 'request_id', 'customer_id', 'received_at', 'report'],
  variant_links: ['creator_variant_id', 'brand_variant_id', 'linked_at'],
  // An order released despite Shopify's fraud findings, by its id (its texts are renamed).
  fraud_releases: ['creator_order_id', 'released_by', 'released_at'],
  // Where the refund catch-up last looked: the shop's row goes with it; an order's, by its id.
  refund_catch_up_shops: ['looked_from', 'looked_at'],
  // The attempts Shopify refused of a key the shop was sent: the shop's rows go with it.
  shopify_key_attempts: ['idempotency_key'],
  refund_catch_up_orders: [
    'creator_order_id',
    'shopify_updated_at',
    'charge_read_at',
    'charge_refunded_in_full_at',
  ],
  catalog_listings: [
    'id',
    'brand_product_id',
    'title',
    'status',
    'creator_handle',
    'creator_product_id',
    'first_write_at',
    'creator_location_id',
    'sync_state',
    'sync_message',
    'brand_status',
    'written',
    'synced_at',
    'created_at',
    'updated_at',
  ],
  // Erased with their listing (ids only).
  listing_variants: [
    'creator_variant_id',
    'listing_id',
    'brand_variant_id',
    'brand_inventory_item_id',
    'creator_inventory_item_id',
  ],
  brand_product_readings: ['product_id', 'read_at', 'updated_at', 'product'],
  // Money records and what settles them: ids, times, states, amounts as text, Shopify's and
  // Stripe's ids, an administrator's email.
  order_transfers: [
    'creator_order_id',
    'currency',
    'status',
    'claimed_by',
    'claimed_at',
    'lease_expires_at',
    'processed_at',
    'processed_by',
    'created_at',
  ],
  order_transfer_brands: [
    'creator_order_id',
    'lines',
    'brand_order_id',
    'paid_at',
    'payment_transfer_id',
    'failed_step',
    'pending_step',
    'pending_since',
    'transfer_destination',
    'transfer_declined_at',
    'settlement_currency',
    'exchange_rate',
  ],
  payment_intent_orders: ['payment_intent_id', 'creator_order_id', 'held_at'],
  creator_payouts: [
    'creator_order_id',
    'currency',
    'due_at',
    'settlement_currency',
    'transfer_destination',
    'pending_since',
    'transfer_declined_at',
    'payment_transfer_id',
    'paid_at',
    'claimed_by',
    'lease_expires_at',
  ],
  order_reversals: [
    'creator_order_id',
    'party',
    'transfer_id',
    'currency',
    'pending_since',
    'reversal_id',
    'reversed_at',
    'owed_since',
    'declined_at',
  ],
  order_refund_notices: ['creator_order_id', 'noticed_at', 'news_at'],
  order_automation: ['creator_order_id', 'created_at', 'paid_at', 'state', 'due_at', 'updated_at'],
  order_holds: ['creator_order_id', 'held_by', 'held_at'],
  brand_pauses: ['paused_by', 'paused_at'],
  order_attention: ['creator_order_id', 'kind'],
  price_exceptions: ['creator_order_id', 'accepted_by', 'accepted_at'],
  shipments: [
    'brand_order_id',
    'creator_order_id',
    'read_at',
    'fulfillment_order_status',
    'shipped_at',
  ],
  // Carriers' tracking and Shopify's ids.
  fulfillment_mirrors: [
    'brand_fulfillment_id',
    'brand_order_id',
    'creator_order_id',
    'state',
    'pending_since',
    'lines',
    'sent_tracking',
    'creator_fulfillment_id',
    'mirrored_tracking',
    'updated_at',
  ],
  // Administrators' emails, the actions' names, the process holding a lease, the job's id,
  // name, state and times.
  audit_log: ['id', 'at', 'actor_email', 'action'],
  leases: ['holder', 'expires_at'],
  jobs: ['id', 'name', 'state', 'run_after', 'lease_until', 'created_at', 'finished_at'],
  // The marketplace's one row of each policy.
  transfer_policy: ['id', 'mode', 'automatic_since'],
  shipping_policy: ['id'],
}

/**
 * The shop erased, and one whose rows must come through untouched: its domain ends with the
 * erased one's, which is no mention of it.
 */
const ERASED = 'erased-shop.myshopify.com'
const KEPT = `kept-${ERASED}`
const PSEUDONYM = 'redacted-shop-0123456789ab'

const named = (columns: readonly (readonly [string, string, ...unknown[]])[]) =>
  new Set(columns.map(([table, column]) => `${table}.${column}`))
/** Columns holding a shop's domain and nothing else. */
const SHOP_COLUMNS = named([...ERASED_WITH_SHOP, ...ANONYMISED_WITH_SHOP])
/** Columns whose text may name a shop among other words. */
const TEXT_COLUMNS = named(TEXT_NAMING_SHOP)
/** Tables whose rows naming the shop are its own, erased with it. */
const ERASED_TABLES = new Set([
  ...ERASED_WITH_SHOP.map(([table]) => table),
  // A listing's variants name no shop: they go with the listing.
  'listing_variants',
])

let db: Db
let dropDatabase: () => Promise<unknown>
let tables: SchemaTable[]
beforeAll(async () => {
  ;({ db, dropDatabase } = await freshDatabase())
  tables = await schemaTables(db)
})
afterAll(async () => {
  await db.destroy()
  await dropDatabase()
})

/** What the `n`th shop's rows hold where they name no shop. */
const ownValue = (n: number) => `value-${n}`

/** Whether the text names the erased shop (and not merely the kept one, which ends like it). */
const namesErased = (text: string) => text.replaceAll(KEPT, '').includes(ERASED)

/**
 * A row of the table naming `shop` wherever a shop may be named; every other column holds a value
 * of the shop's own (`n` where a number), so that the two shops' rows share no key, and a child
 * row finds its parent (a brand's transfer its order's, a listing's variant its listing).
 */
const rowNaming = (table: SchemaTable, shop: string, n: number) =>
  Object.fromEntries(
    table.columns.map(({ name, dataType }) => {
      const column = `${table.name}.${name}`
      if (!holdsText(dataType)) return [name, n]
      if (SHOP_COLUMNS.has(column)) return [name, shop]
      if (TEXT_COLUMNS.has(column)) return [name, `what ${shop} said`]
      return [name, ownValue(n)]
    }),
  )

const rowsOf = (table: string) =>
  db
    .selectFrom(table as 'stores')
    .selectAll()
    .execute() as Promise<Record<string, unknown>[]>

/** Rows as text, in one order: a table's rows compared whatever order the database gives them. */
const asText = (rows: Record<string, unknown>[]) => rows.map((row) => JSON.stringify(row)).sort()

describe('a shop\u2019s erasure, over every table of the live schema', () => {
  it('knows of every column that can hold a shop\u2019s domain whether it is erased, renamed, or names no shop', () => {
    const listed = new Set([
      ...SHOP_COLUMNS,
      ...TEXT_COLUMNS,
      ...Object.entries(NAMES_NO_SHOP).flatMap(([table, columns]) =>
        columns.map((column) => `${table}.${column}`),
      ),
    ])
    const inSchema = tables.flatMap((table) =>
      table.columns
        .filter((column) => holdsText(column.dataType))
        .map((column) => `${table.name}.${column.name}`),
    )
    // A column missing here is one no list accounts for: say what erasure does with it.
    expect(inSchema.filter((column) => !listed.has(column))).toEqual([])
    // And the lists name no column the schema no longer has.
    expect([...listed].filter((column) => !inSchema.includes(column))).toEqual([])
  })

  it('erases the shop\u2019s own rows and renames it in every other, leaving another shop\u2019s rows as they were', async () => {
    // Parents first: a store before what references it, an order's transfer before its brands.
    const parentsFirst = ['stores', 'order_transfers']
    const ordered = [
      ...parentsFirst.map((name) => tables.find((table) => table.name === name)!),
      ...tables.filter((table) => !parentsFirst.includes(table.name)),
    ]
    for (const table of ordered) {
      for (const [shop, n] of [
        [ERASED, 1],
        [KEPT, 2],
      ] as const) {
        await db
          .insertInto(table.name as 'stores')
          .values(rowNaming(table, shop, n) as never)
          .execute()
      }
    }
    const before = new Map<string, Record<string, unknown>[]>()
    for (const table of tables) before.set(table.name, await rowsOf(table.name))

    await db.transaction().execute((trx) => eraseShop(trx, ERASED, PSEUDONYM))

    const rename = (row: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(row).map(([column, value]) => [
          column,
          typeof value === 'string'
            ? value
                .split(KEPT)
                .map((part) => part.replaceAll(ERASED, PSEUDONYM))
                .join(KEPT)
            : value,
        ]),
      )
    const erasedShops = (row: Record<string, unknown>) =>
      JSON.stringify(row).includes(ownValue(1)) || namesErased(JSON.stringify(row))
    const after = new Map<string, Record<string, unknown>[]>()
    for (const table of tables) after.set(table.name, await rowsOf(table.name))
    expect(tables.filter((table) => namesErased(JSON.stringify(after.get(table.name))))).toEqual([])
    for (const table of tables) {
      const expected = before
        .get(table.name)!
        .filter((row) => !(ERASED_TABLES.has(table.name) && erasedShops(row)))
        .map(rename)
      expect({ table: table.name, rows: asText(after.get(table.name)!) }).toEqual({
        table: table.name,
        rows: asText(expected),
      })
    }
  })
})

describe('a shop\u2019s erasure, of the name sentences give it', () => {
  it('renames the shop where a sentence names it by its name or its host\u2019s label, not only its domain', async () => {
    const other = 'northwind-apparel.myshopify.com'
    // What Tandem writes of a store: its name ("erased shop"), and before issue 47 its label.
    const sentences = [
      attention.noPayoutAccount(ERASED).sentence,
      'Commission not found: erased-shop has no default commission: set it on its store page',
      attention.noPayoutAccount(other).sentence,
    ]
    await db
      .insertInto('order_attention')
      .values(
        sentences.map((sentence, position) => ({
          creator_order_id: 'named-9',
          position,
          brand_store_shop: position === 2 ? other : ERASED,
          kind: 'noPayoutAccount',
          sentence,
        })),
      )
      .execute()

    await db.transaction().execute((trx) => eraseShop(trx, ERASED, PSEUDONYM))

    const after = await db
      .selectFrom('order_attention')
      .select('sentence')
      .where('creator_order_id', '=', 'named-9')
      .orderBy('position')
      .execute()
    expect(after.map((row) => row.sentence)).toEqual([
      `Payment provider connected account ID not found: ${PSEUDONYM} has no payout account: set it on its store page`,
      `Commission not found: ${PSEUDONYM} has no default commission: set it on its store page`,
      // Another store's sentence is its own.
      sentences[2],
    ])
  })
})
