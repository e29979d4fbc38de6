// The server's tables. Money is integer minor units of the row's currency; rates are integer
// hundredths of a percent (12.5 % is 1250), so neither ever meets floating point.

export interface StoresTable {
  shop: string
  shop_type: 'BRAND' | 'CREATOR'
  product_count: number
  products_synced_at: string | null
  created_at: string
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

// The sandbox commerce platform's state (what Shopify holds for real stores).

export interface CommerceProductsTable {
  id: string
  store_shop: string
  title: string
  status: 'ACTIVE' | 'ARCHIVED' | 'DRAFT'
  image_url: string | null
}

export interface CommerceVariantsTable {
  id: string
  product_id: string
  store_shop: string
  price_minor: number
  currency: string
  inventory_quantity: number
  /** A creator store's copy points back to the brand's variant; null for a store's own. */
  source_variant_id: string | null
}

export interface CommerceOrdersTable {
  /** The numeric id; the GID is gid://shopify/Order/{id}. */
  id: number
  store_shop: string
  name: string
  email: string | null
  currency: string
  created_at: string
  subtotal_minor: number
  tax_minor: number
  shipping_minor: number
  total_minor: number
  /** JSON of the shipping address, or null. */
  shipping_address: string | null
  tags: string
  note: string | null
  paid: number
}

export interface CommerceOrderLinesTable {
  id: string
  order_id: number
  position: number
  variant_id: string | null
  title: string
  quantity: number
  unit_price_minor: number
  /** Discounts allocated to the whole line. */
  discount_minor: number
  image_url: string | null
}

// The sandbox payment provider's state (what Stripe holds for real).

export interface PaymentAccountsTable {
  store_shop: string
  account_id: string
  email: string
}

export interface PaymentTransfersTable {
  id: string
  idempotency_key: string
  destination_account_id: string
  amount_minor: number
  currency: string
  created_at: string
}

// Order transfers: what processing did, step by step, so that it is idempotent and resumable.

export interface OrderTransfersTable {
  creator_order_id: string
  creator_store_shop: string
  currency: string
  status: 'PARTIAL' | 'COMPLETED'
  /** Who is processing right now, and since when: two requests never work on one transfer. */
  claimed_by: string | null
  claimed_at: string | null
  processed_at: string | null
  created_at: string
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
}

export interface Database {
  stores: StoresTable
  app_configs: AppConfigsTable
  default_commissions: DefaultCommissionsTable
  unique_commission_rates: UniqueCommissionRatesTable
  commerce_products: CommerceProductsTable
  commerce_variants: CommerceVariantsTable
  commerce_orders: CommerceOrdersTable
  commerce_order_lines: CommerceOrderLinesTable
  payment_accounts: PaymentAccountsTable
  payment_transfers: PaymentTransfersTable
  order_transfers: OrderTransfersTable
  order_transfer_brands: OrderTransferBrandsTable
}
