import { sandboxApp, storeName } from '../../server/src/seed/sandbox-data'

// Everything the emulator remembers, as plain JSON so that it can be written to and read back from
// the state file unchanged. Prices are minor units of the shop's currency; ids are Shopify GIDs
// except order ids, which are numbers because Shopify's REST payloads (webhooks) use the number.

export interface MetafieldRecord {
  namespace: string
  key: string
  value: string
  type: string
}

export interface VariantRecord {
  id: string
  title: string
  sku: string
  priceMinor: number
  inventoryQuantity: number
  inventoryPolicy: 'DENY' | 'CONTINUE'
  metafields: MetafieldRecord[]
}

export interface ProductRecord {
  id: string
  title: string
  handle: string
  status: 'ACTIVE' | 'ARCHIVED' | 'DRAFT' | 'UNLISTED'
  updatedAt: string
  imageUrl: string | null
  variants: VariantRecord[]
}

export interface AddressRecord {
  firstName: string | null
  lastName: string | null
  address1: string | null
  address2: string | null
  city: string | null
  province: string | null
  zip: string | null
  countryCode: string | null
  phone: string | null
}

/** A discount's share of one line, as Shopify allocates it (for the line's ordered quantity). */
export interface DiscountAllocationRecord {
  /** The discount code, or the title of a discount without one. */
  code: string
  /** Whether it applies to the whole order (a code on the cart) rather than to this line alone. */
  orderLevel: boolean
  amountMinor: number
}

export interface OrderLineRecord {
  id: string
  variantId: string | null
  title: string
  /** As ordered; edits and refunds lower the current quantity, never this. */
  quantity: number
  /** What order edits and refunds took off the line. */
  removedQuantity: number
  unitPriceMinor: number
  imageUrl: string | null
  discountAllocations: DiscountAllocationRecord[]
}

/** Shopify's OrderDisplayFinancialStatus, all of it. */
export type FinancialStatus =
  | 'AUTHORIZED'
  | 'EXPIRED'
  | 'PAID'
  | 'PARTIALLY_PAID'
  | 'PARTIALLY_REFUNDED'
  | 'PENDING'
  | 'REFUNDED'
  | 'VOIDED'

/** Shopify's RefundLineItemRestockType; LEGACY_RESTOCK is only ever read, never accepted. */
export type RestockType = 'RETURN' | 'CANCEL' | 'NO_RESTOCK' | 'LEGACY_RESTOCK'

export interface RefundLineRecord {
  /** A RefundLineItem GID. */
  id: string
  lineItemId: string
  quantity: number
  restockType: RestockType
  /** What these units cost the customer after their discounts. */
  subtotalMinor: number
}

/**
 * Money moving on an order: the customer's payment (SALE) and what went back (REFUND, naming the
 * SALE it returns). Shopify moves money only through transactions: a refund without one returns
 * nothing, whatever lines it names.
 */
export interface TransactionRecord {
  /** An OrderTransaction GID. */
  id: string
  kind: 'SALE' | 'REFUND'
  gateway: string
  amountMinor: number
  parentId: string | null
  createdAt: string
}

export interface RefundRecord {
  id: string
  createdAt: string
  note: string | null
  /** The money it gave back: the sum of its transactions. */
  amountMinor: number
  lines: RefundLineRecord[]
  /** Shipping it refunds, as a record: the money for it is in the transactions. */
  shippingMinor: number
  transactionIds: string[]
}

/** Shopify's OrderCancelReason. */
export type CancelReason = 'CUSTOMER' | 'DECLINED' | 'FRAUD' | 'INVENTORY' | 'OTHER' | 'STAFF'

export interface OrderRecord {
  id: number
  name: string
  email: string | null
  createdAt: string
  financialStatus: FinancialStatus
  /** When the merchant cancelled it; null while it stands. */
  cancelledAt: string | null
  cancelReason: CancelReason | null
  /** The staff note of the cancellation, which customers never see. */
  cancelStaffNote: string | null
  /** Cancelling closes an order. */
  closedAt: string | null
  /** One currency per order: the emulator converts nothing, so shop and presentment money agree. */
  currency: string
  tags: string[]
  note: string | null
  lines: OrderLineRecord[]
  taxMinor: number
  shippingMinor: number
  shippingAddress: AddressRecord | null
  metafields: MetafieldRecord[]
  /** The order-level discount codes applied at checkout. */
  discountCodes: string[]
  transactions: TransactionRecord[]
  refunds: RefundRecord[]
}

export interface WebhookRecord {
  id: string
  topic: string
  uri: string
  createdAt: string
}

export interface TokenRecord {
  token: string
  scope: string
  /** Epoch ms; null for a non-expiring offline token. */
  expiresAt: number | null
}

export interface AppRecord {
  clientId: string
  clientSecret: string
}

export interface ShopRecord {
  domain: string
  name: string
  numericId: number
  currency: string
  app: AppRecord
  /** Whether the client-credentials grant works (the app belongs to the shop's organisation). */
  grant: 'allow' | 'refuse'
  /** What the app's configuration grants the client-credentials grant; ALL_SCOPES when absent. */
  scopes?: string
  /** Set once the merchant uninstalled the app; cleared when they approve it again. */
  uninstalled?: true
  products: ProductRecord[]
  orders: OrderRecord[]
  webhooks: WebhookRecord[]
  accessTokens: TokenRecord[]
  refreshTokens: TokenRecord[]
  /** Authorization codes not yet exchanged, with the scope the merchant approved. */
  authorizationCodes: { code: string; scope: string }[]
  /** The @idempotent keys of this shop's recent refundCreate calls (Shopify keeps them 24 h). */
  idempotencyKeys?: IdempotencyRecord[]
}

export interface IdempotencyRecord {
  key: string
  /** The call's arguments, so that a key reused for another refund is told apart. */
  fingerprint: string
  refundId: string
  /** Epoch ms. */
  at: number
}

export interface EmulatorState {
  shops: Record<string, ShopRecord>
  /** The last number used for each kind of id; ids are global across shops, as in Shopify. */
  lastIds: { shop: number; product: number; variant: number; order: number; webhook: number }
}

export const emptyState = (): EmulatorState => ({
  shops: {},
  lastIds: { shop: 0, product: 0, variant: 0, order: 0, webhook: 0 },
})

export const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`

/** The number in a GID of the given type, or null when the string is not one. */
export function gidNumber(id: string, type: string): number | null {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(\?.*)?$/.exec(id)
  return match && match[1] === type ? Number(match[2]) : null
}

export function addShopRecord(
  state: EmulatorState,
  domain: string,
  options: { app?: AppRecord; currency?: string } = {},
): ShopRecord {
  if (state.shops[domain]) throw new Error(`Shop ${domain} already exists`)
  // 'northwind-apparel' → 'Northwind Apparel', the name a merchant would have given the store.
  const name = storeName(domain)
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')
  const shop: ShopRecord = {
    domain,
    name,
    numericId: ++state.lastIds.shop,
    currency: options.currency ?? 'USD',
    app: options.app ?? sandboxApp(domain),
    grant: 'allow',
    products: [],
    orders: [],
    webhooks: [],
    accessTokens: [],
    refreshTokens: [],
    authorizationCodes: [],
  }
  state.shops[domain] = shop
  return shop
}

export function findVariant(
  shop: ShopRecord,
  variantId: string,
): { product: ProductRecord; variant: VariantRecord } | undefined {
  for (const product of shop.products) {
    const variant = product.variants.find((candidate) => candidate.id === variantId)
    if (variant) return { product, variant }
  }
  return undefined
}
