import type { Generated } from 'kysely'

// The server's tables. Money is integer minor units of the row's currency; rates are integer
// hundredths of a percent (12.5 % is 1250), so neither ever meets floating point.

export interface StoresTable {
  shop: string
  shop_type: 'BRAND' | 'CREATOR'
  product_count: number
  products_synced_at: string | null
  created_at: string
  /** A brand's units of each variant kept back from creator stores (catalog listings). */
  stock_buffer: Generated<number>
}

export interface AppConfigsTable {
  shop: string
  client_id: string
  /** AES-256-GCM, see secrets.ts; never the secret in plain text. */
  client_secret_sealed: string
  shop_type: 'BRAND' | 'CREATOR'
  created_at: string
}

export interface DefaultCommissionsTable {
  brand_store_shop: string
  tandem_rate_hundredths: number
  creator_rate_hundredths: number
  updated_at: string
}

export interface UniqueCommissionRatesTable {
  brand_store_shop: string
  creator_store_shop: string
  rate_hundredths: number
  updated_at: string
}

/**
 * How Tandem reaches a shop's Admin API: its access token, sealed like client secrets, and why
 * the shop could not be reached when it last could not (null since it last could).
 */
export interface ShopConnectionsTable {
  shop: string
  method: 'CLIENT_CREDENTIALS' | 'AUTHORIZATION_CODE'
  /** Null for a shop Tandem never got a token from. */
  access_token_sealed: string | null
  access_token_expires_at: string | null
  /** Only for the authorization-code install's expiring offline tokens. */
  refresh_token_sealed: string | null
  refresh_token_expires_at: string | null
  /** Comma-separated, as Shopify grants them. */
  scopes: string
  error: string | null
  updated_at: string
}

/** The products of a store as its last sync read them. */
export interface StoreProductsTable {
  store_shop: string
  product_id: string
  title: string
  /** Shopify's ProductStatus as it wrote it (ACTIVE, ARCHIVED, DRAFT, UNLISTED, or one it adds). */
  status: string
  variant_count: number
  /** Minor units of `currency`, the shop's. */
  min_price_minor: number
  currency: string
  /** Its featured image (Shopify's CDN, or the sandbox server's); null when it has none. */
  image_url: string | null
  /**
   * Shopify's updatedAt of the version stored: a products/update delivery of an older version,
   * arriving late, changes nothing. Null for rows stored before it was kept.
   */
  shopify_updated_at: string | null
  /** The start of the sync that last read it: older rows are products gone from the shop. */
  seen_at: string
}

/** The latest product sync of each store, readable while it runs. */
export interface ProductSyncsTable {
  store_shop: string
  state: 'RUNNING' | 'IDLE' | 'FAILED'
  fetched: number
  /** What productsCount said; null until it answered. */
  total: number | null
  started_at: string
  synced_at: string | null
  message: string | null
  /** Moves on with each batch and heartbeat: a RUNNING row that stopped belongs to a dead process. */
  updated_at: string
  /** The run that holds it: only that run's writes change it. */
  run_id: string | null
}

/**
 * Each webhook Shopify delivered, by its X-Shopify-Webhook-Id: a repeat is ignored. Written with
 * the job that acts on it, before the delivery is answered.
 */
export interface WebhookDeliveriesTable {
  webhook_id: string
  shop: string
  topic: string
  received_at: string
  /** The signed body, as Shopify sent it; null for deliveries taken before the inbox kept them. */
  body: string | null
  /** When its job acted on it successfully; null while it waits, is retried or is dead. */
  done_at: string | null
}

/** The install's `state` nonces, each good for one callback within 10 minutes. */
export interface OauthStatesTable {
  state: string
  shop: string
  created_at: string
}

/**
 * Creator orders Tandem knows of (from ORDERS_PAID webhooks, lookups and the catch-up at start):
 * which shop has each, and what the orders inbox lists. The listed fields are null for an order
 * known only by its shop (indexed before the inbox existed) until it is seen again.
 */
export interface CreatorOrderIndexTable {
  order_id: number
  store_shop: string
  name: string | null
  created_at: string | null
  currency: string | null
  total_minor: number | null
}

/** Every change an administrator made: who, when, what, to what, and how (never a secret). */
export interface AuditLogTable {
  id: string
  at: string
  actor_email: string | null
  action: string
  target: string
  /** JSON: what changed, e.g. { before, after }. */
  details: string
}

/** Work one server process at a time does; a lease past expires_at is free to take. */
export interface LeasesTable {
  name: string
  holder: string
  expires_at: string
}

/** A job of the embedded queue (jobs/sqlite-job-queue.ts); payload is JSON. */
export interface JobsTable {
  id: string
  name: string
  payload: string
  state: 'waiting' | 'active' | 'done' | 'dead'
  singleton_key: string | null
  attempts: number
  run_after: string
  lease_until: string | null
  error_message: string | null
  error_stack: string | null
  created_at: string
  finished_at: string | null
}

/** The Stripe connected account a brand store is paid to (Stripe holds the account itself). */
export interface StorePaymentAccountsTable {
  store_shop: string
  account_id: string
  updated_at: string
}

/**
 * The brand variant a creator variant stands for: written by Tandem when a creator lists a brand's
 * product (seeded for the sandbox), never read from the creator's store, whose owner edits it.
 */
export interface VariantLinksTable {
  creator_variant_id: string
  creator_store_shop: string
  brand_store_shop: string
  brand_variant_id: string
  linked_at: string
}

/** A brand product listed on a creator store (migration 019, catalog/listings.ts). */
export interface CatalogListingsTable {
  id: string
  creator_store_shop: string
  brand_store_shop: string
  brand_product_id: string
  /** The brand product's title when last read, for the console. */
  title: string
  /** A price the administrator set above the brand's; null sells at the brand's. */
  price_minor: number | null
  status: 'ACTIVE' | 'PAUSED' | 'REMOVED'
  creator_handle: string
  creator_product_id: string | null
  /** When the first write under the handle began: a product made before it is not Tandem's. */
  first_write_at: string | null
  creator_location_id: string | null
  sync_state: 'PENDING' | 'IN_SYNC' | 'FAILED'
  sync_message: string | null
  /** The brand product's status when last read (ACTIVE, ARCHIVED…); GONE once deleted. */
  brand_status: string | null
  /** JSON of what Tandem last wrote to the creator product (catalog/listing-sync.ts). */
  written: string | null
  synced_at: string | null
  created_at: string
  updated_at: string
}

/** A listed brand product as Tandem last read it from the brand's Shopify (catalog/brand-readings.ts). */
export interface BrandProductReadingsTable {
  brand_store_shop: string
  product_id: string
  read_at: string
  /** Shopify's updatedAt of the product read; null once it is gone. */
  updated_at: string | null
  /** JSON of the CatalogProduct; null once Shopify no longer has it. */
  product: string | null
}

/** A creator variant a listing made, and the brand variant and inventory items behind it. */
export interface ListingVariantsTable {
  creator_variant_id: string
  listing_id: string
  brand_variant_id: string
  brand_inventory_item_id: string | null
  creator_inventory_item_id: string | null
}

/** An administrator's acceptance of one order's lines priced below their brands' prices. */
export interface PriceExceptionsTable {
  creator_order_id: string
  /** JSON: the price failures accepted, exactly as the checks found them. */
  accepted_lines: string
  reason: string
  accepted_by: string | null
  accepted_at: string
}

/** An order released for transfer despite what Shopify found of fraud (022-fraud-releases.ts). */
export interface FraudReleasesTable {
  creator_order_id: string
  findings: string
  reason: string
  released_by: string | null
  released_at: string
}

// Order transfers: what processing did, step by step, so that it is idempotent and resumable.

export interface OrderTransfersTable {
  creator_order_id: string
  creator_store_shop: string
  currency: string
  status: 'PARTIAL' | 'COMPLETED'
  /**
   * The lease of the request processing it now: its token, when it took it, and until when it
   * holds it (renewed at each step). Every write under the lease names the token.
   */
  claimed_by: string | null
  claimed_at: string | null
  lease_expires_at: string | null
  processed_at: string | null
  /** The administrator whose request processed it last (completed it, or left it partial). */
  processed_by: string | null
  created_at: string
  /**
   * What the order's refunds had given back (Shopify's Order.totalRefundedSet, minor units of the
   * order's currency) in the read the frozen figures came from: Stripe's refunds beyond it are the
   * customer's refunds since. Null when frozen before it was kept (migration 021).
   */
  refunded_at_freeze_minor: number | null
}

export interface OrderTransferBrandsTable {
  creator_order_id: string
  brand_store_shop: string
  position: number
  base_minor: number
  tandem_rate_hundredths: number
  creator_rate_hundredths: number
  creator_commission_minor: number
  tandem_commission_minor: number
  brand_amount_minor: number
  /** The frozen lines of the brand order: JSON [{ brandVariantId, quantity }]. */
  lines: string
  brand_order_id: string | null
  paid_at: string | null
  payment_transfer_id: string | null
  failed_step: string | null
  failed_message: string | null
  /**
   * The remote step under way and since when: set before the call, cleared with its result. Still
   * set on the next attempt, the step's outcome is unknown and is reconciled before acting.
   */
  pending_step: string | null
  pending_since: string | null
  /**
   * The payment account the brand's transfer was last attempted to: where a transfer whose
   * outcome is unknown is looked for before anything else.
   */
  transfer_destination: string | null
  /**
   * Which attempt's idempotency key the brand's transfer goes under (the first's has no suffix):
   * advanced only after Stripe declined the transfer under it, once reconciling found none.
   */
  transfer_key_attempt: Generated<number>
  /**
   * When Stripe declined the transfer under the current key (answered a 4xx saying it made none):
   * the next attempt may then move to the next key. Null while the key's outcome is a transfer, a
   * 5xx or unknown; cleared when the key moves on or the transfer is recorded.
   */
  transfer_declined_at: string | null
  /**
   * The brand's figures in the platform's settlement currency (the charge's balance transaction's),
   * converted at the charge's exchange rate (Stripe's, a decimal string): the transfer moves
   * brand_amount_settlement_minor. Null on transfers frozen before settlement was recorded.
   */
  settlement_currency: string | null
  exchange_rate: string | null
  brand_amount_settlement_minor: number | null
  creator_commission_settlement_minor: number | null
  tandem_commission_settlement_minor: number | null
}

/** Which creator order each PaymentIntent pays for: at most one, the first to freeze a transfer. */
export interface PaymentIntentOrdersTable {
  payment_intent_id: string
  creator_order_id: string
  creator_store_shop: string
  held_at: string
}

/**
 * A creator's commission on a completed creator order (migration 017): owed until
 * payment_transfer_id is set. The intent of its transfer (destination, settlement amount,
 * pending_since) is recorded before the call; a run holds it under claimed_by until
 * lease_expires_at.
 */
export interface CreatorPayoutsTable {
  creator_order_id: string
  creator_store_shop: string
  /** The order's currency, and the commission in it: the brands' frozen creator commissions. */
  currency: string
  amount_minor: number
  due_at: string
  settlement_currency: string | null
  amount_settlement_minor: number | null
  transfer_destination: string | null
  pending_since: string | null
  transfer_key_attempt: Generated<number>
  transfer_declined_at: string | null
  payment_transfer_id: string | null
  paid_at: string | null
  /** Why its last run could not pay it (no account, an account Stripe cannot pay…). */
  waiting_reason: string | null
  claimed_by: string | null
  lease_expires_at: string | null
}

/**
 * One Stripe reversal of a party's transfer after its creator order was refunded or cancelled
 * (migration 018): intended (amount and key) before the call; then reversed (`reversal_id`), or
 * owed by the party (`owed_since`: Stripe refused it for the balance of its account). A
 * DEBT row takes a store's debt back from this later transfer of it; Stripe refusing it leaves it
 * declined (`declined_at`), and the debt still owed.
 */
export interface OrderReversalsTable {
  creator_order_id: string
  /** The party's store: a brand's, or the creator's. */
  store_shop: string
  seq: number
  party: 'BRAND' | 'CREATOR' | 'DEBT'
  /** The transfer reversed, and its (settlement) currency. */
  transfer_id: string
  currency: string
  amount_minor: number
  idempotency_key: string
  pending_since: string
  reversal_id: string | null
  reversed_at: string | null
  owed_since: string | null
  declined_at: string | null
  /** Why the last call did not reverse it (Stripe's words); the next run reconciles first. */
  failed_message: string | null
}

/**
 * A creator order whose refunds Tandem was told to look at (migration 018): first by a
 * refunds/create or orders/cancelled, or the refund catch-up. Each piece of news since is counted,
 * and what a run of its refund job settled (migration 025, repositories/refund-notices.ts).
 */
export interface OrderRefundNoticesTable {
  creator_order_id: string
  store_shop: string
  /** When the first news came: a refund noticed before the freeze is one its figures left out. */
  noticed_at: string
  news: Generated<number>
  /** When the last news came; every row has it (set from noticed_at for rows from before 025). */
  news_at: string
  /** The news a run of the refund job had taken in when it last ended settled; null until one did. */
  settled_news: number | null
}

/** Where the refund catch-up's next look at a creator shop's changed orders starts. */
export interface RefundCatchUpShopsTable {
  creator_store_shop: string
  looked_from: string
  looked_at: string
}

/** What the refund catch-up last read of a transferred order, in Shopify and in Stripe. */
/** The last attempt of each idempotency key Shopify refused as failed before (migration 026). */
export interface ShopifyKeyAttemptsTable {
  shop: string
  idempotency_key: string
  failed_through: number
}

export interface RefundCatchUpOrdersTable {
  creator_order_id: string
  shopify_updated_at: string | null
  charge_refunded_minor: number | null
  charge_read_at: string | null
  charge_refunded_in_full_at: string | null
}

/**
 * A customers/data_request Shopify sent: the customer it is about (Shopify's id) and, as JSON,
 * what Tandem held on them for the shop when it came (services/privacy.ts). Erased with the
 * customer's or the shop's data.
 */
export interface DataRequestsTable {
  /** `{shop}:{request_id}`: one shop's request never answers or replaces another's. */
  id: string
  shop: string
  /** Shopify's data_request.id. */
  request_id: string
  customer_id: string
  received_at: string
  report: string
}

/** The marketplace's transfer policy: one row, id 'marketplace', written by its migration. */
export interface TransferPolicyTable {
  id: string
  mode: 'MANUAL' | 'AUTOMATIC'
  hold_minutes: number
  /** When it last turned AUTOMATIC; null while MANUAL. */
  automatic_since: string | null
}

/** Where an automatic order's processing stands (transfers/automatic-transfers.ts). */
export type AutomationState =
  /** Its job runs at `due_at`: the end of its hold. */
  | 'WAITING'
  /** Shopify or Stripe failed; its job runs again at `due_at`. */
  | 'RETRYING'
  /** A person must act: `order_attention` says on what, or `message` when no brand is at fault. */
  | 'NEEDS_ATTENTION'
  | 'NOTHING_TO_TRANSFER'
  /** The policy turned MANUAL before its hold ended: an administrator processes it. */
  | 'MANUAL'
  /** One of its brands is paused (`paused_brand`): resuming it puts the order back on the queue. */
  | 'HELD'
  | 'PROCESSED'

export interface OrderAutomationTable {
  creator_order_id: string
  store_shop: string
  created_at: string
  paid_at: string
  state: AutomationState
  due_at: string | null
  message: string | null
  generation: number
  updated_at: string
  paused_brand: string | null
}

export interface OrderHoldsTable {
  creator_order_id: string
  reason: string
  held_by: string | null
  held_at: string
}

export interface BrandPausesTable {
  brand_store_shop: string
  reason: string
  paused_by: string | null
  paused_at: string
}

export interface OrderAttentionTable {
  creator_order_id: string
  position: number
  brand_store_shop: string
  kind: string
  sentence: string
}

/** A brand order as last read from its shop (migration 020, shipping/). */
export interface ShipmentsTable {
  brand_order_id: string
  brand_store_shop: string
  creator_order_id: string
  /** JSON of the brand order's shipping as read (shipping-port.ts OrderShipping). */
  reading: string
  read_at: string
  /** The brand's fulfillment orders' status, the busiest of them; null when it has none. */
  fulfillment_order_status: string | null
  /** When every unit had shipped (or the order was cancelled): it cannot be late from then. */
  shipped_at: string | null
}

/** A brand fulfillment, and the creator fulfillment made for it (migration 020). */
export interface FulfillmentMirrorsTable {
  brand_fulfillment_id: string
  brand_order_id: string
  creator_order_id: string
  creator_store_shop: string
  state: 'PENDING' | 'MIRRORED' | 'FAILED'
  message: string | null
  pending_since: string | null
  /**
   * JSON [{ fulfillmentOrderId, fulfillmentOrderLineItemId, lineItemId, quantity }]: the creator
   * lines and units it fulfils, from its intent on.
   */
  lines: string | null
  /** JSON of the Tracking (or null) the intent sends: how the made fulfillment is recognised. */
  sent_tracking: string | null
  creator_fulfillment_id: string | null
  /** JSON of the Tracking last written to the creator's fulfillment. */
  mirrored_tracking: string | null
  updated_at: string
}

/** The marketplace's shipping policy: one row, id 'marketplace', written by its migration. */
export interface ShippingPolicyTable {
  id: string
  late_after_days: number
}

export interface Database {
  stores: StoresTable
  app_configs: AppConfigsTable
  default_commissions: DefaultCommissionsTable
  unique_commission_rates: UniqueCommissionRatesTable
  shop_connections: ShopConnectionsTable
  creator_order_index: CreatorOrderIndexTable
  store_products: StoreProductsTable
  webhook_deliveries: WebhookDeliveriesTable
  oauth_states: OauthStatesTable
  product_syncs: ProductSyncsTable
  store_payment_accounts: StorePaymentAccountsTable
  order_transfers: OrderTransfersTable
  order_transfer_brands: OrderTransferBrandsTable
  payment_intent_orders: PaymentIntentOrdersTable
  creator_payouts: CreatorPayoutsTable
  order_reversals: OrderReversalsTable
  order_refund_notices: OrderRefundNoticesTable
  refund_catch_up_shops: RefundCatchUpShopsTable
  refund_catch_up_orders: RefundCatchUpOrdersTable
  audit_log: AuditLogTable
  leases: LeasesTable
  jobs: JobsTable
  variant_links: VariantLinksTable
  catalog_listings: CatalogListingsTable
  listing_variants: ListingVariantsTable
  brand_product_readings: BrandProductReadingsTable
  price_exceptions: PriceExceptionsTable
  fraud_releases: FraudReleasesTable
  data_requests: DataRequestsTable
  transfer_policy: TransferPolicyTable
  shipments: ShipmentsTable
  fulfillment_mirrors: FulfillmentMirrorsTable
  shipping_policy: ShippingPolicyTable
  order_automation: OrderAutomationTable
  order_attention: OrderAttentionTable
  order_holds: OrderHoldsTable
  brand_pauses: BrandPausesTable
  shopify_key_attempts: ShopifyKeyAttemptsTable
}
