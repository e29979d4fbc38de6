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
  /** What is available at the shop's one location (shopLocation), as Shopify counts it. */
  inventoryQuantity: number
  inventoryPolicy: 'DENY' | 'CONTINUE'
  metafields: MetafieldRecord[]
  /** One value of each of the product's options, in the options' order. */
  selectedOptions: { name: string; value: string }[]
  /** An InventoryItem GID: what stock levels and inventory webhooks name, not the variant. */
  inventoryItemId: string
  /**
   * The merchant gave the variant components (a bundle's parent): Shopify counts its stock from
   * theirs, and no app may set it.
   */
  bundle?: boolean
}

export interface ImageRecord {
  url: string
  altText: string | null
}

export interface ProductRecord {
  id: string
  title: string
  handle: string
  descriptionHtml: string
  vendor: string
  status: 'ACTIVE' | 'ARCHIVED' | 'DRAFT' | 'UNLISTED'
  createdAt: string
  updatedAt: string
  /** Up to three; a product without options of its own has Title: [Default Title]. */
  options: { name: string; values: string[] }[]
  /** The first is the featured image. */
  images: ImageRecord[]
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
  /**
   * Where the units went back to stock: the refund's locationId, for the emulator's one stock per
   * variant only recorded; null when not given, absent in a state file written before it.
   */
  locationId?: string | null
  /** What these units cost the customer after their discounts. */
  subtotalMinor: number
  /**
   * The tax given back with them (RefundLineItem.totalTaxSet). The emulator keeps tax for the whole
   * order, so the refund of the order's last units gives all of it back, on its first line; absent
   * (none) in a state file written before it.
   */
  taxMinor?: number
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

/** Shopify's FulfillmentHoldReason. */
export type FulfillmentHoldReason =
  | 'AWAITING_PAYMENT'
  | 'AWAITING_RETURN_ITEMS'
  | 'HIGH_RISK_OF_FRAUD'
  | 'INCORRECT_ADDRESS'
  | 'INVENTORY_OUT_OF_STOCK'
  | 'ONLINE_STORE_POST_PURCHASE_CROSS_SELL'
  | 'OTHER'
  | 'UNKNOWN_DELIVERY_DATE'

export interface FulfillmentHoldRecord {
  /** A FulfillmentHold GID. */
  id: string
  reason: FulfillmentHoldReason
  reasonNotes: string | null
}

/**
 * The work of shipping some of an order's lines from one location. What is left to ship and the
 * status are worked out from the order (fulfillments.ts), never kept, so that edits, refunds and
 * cancellation need not update them.
 */
export interface FulfillmentOrderRecord {
  /** A FulfillmentOrder GID. */
  id: string
  /** A fulfillment service's location (ShopRecord.serviceLocations); absent: the shop's own. */
  locationId?: string
  /** One per order line; totalQuantity as ordered. */
  lineItems: { id: string; lineItemId: string; totalQuantity: number }[]
  holds: FulfillmentHoldRecord[]
}

/** A shipment of some of an order's units, with its tracking. */
export interface FulfillmentRecord {
  /** A Fulfillment GID. */
  id: string
  /** The order's name and its number among the order's fulfillments: #1001-F1. */
  name: string
  status: 'SUCCESS' | 'CANCELLED'
  createdAt: string
  updatedAt: string
  trackingInfo: { company: string | null; number: string | null; url: string | null }[]
  /** Each with a FulfillmentLineItem GID. */
  lines: { id: string; lineItemId: string; quantity: number }[]
  /** Its fulfillment orders' location, as theirs (absent: the shop's own). */
  locationId?: string
  notifyCustomer: boolean
  /** The shipping emails the customer got: the creation's and each tracking update's. */
  customerNotifications: number
}

/** Shopify's OrderCancelReason. */
export type CancelReason = 'CUSTOMER' | 'DECLINED' | 'FRAUD' | 'INVENTORY' | 'OTHER' | 'STAFF'

/** Shopify's RiskAssessmentResult: an assessment's risk level. */
export type RiskLevel = 'HIGH' | 'MEDIUM' | 'LOW' | 'NONE' | 'PENDING'

/**
 * An order risk assessment (Shopify's OrderRiskAssessment, made by Shopify's fraud analysis or by
 * an app's orderRiskAssessmentCreate): its level and the facts it gives.
 */
export interface RiskAssessmentRecord {
  riskLevel: RiskLevel
  /** The app's title; null when Shopify itself assessed the order. */
  provider: string | null
  facts: { description: string; sentiment: 'NEGATIVE' | 'NEUTRAL' | 'POSITIVE' }[]
}

export interface OrderRecord {
  id: number
  name: string
  email: string | null
  createdAt: string
  /**
   * Its last change: an edit, payment, refund, cancellation, fulfillment or hold. What
   * `updated_at:>…` searches and the UPDATED_AT sort read.
   */
  updatedAt: string
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
  /** Made with the order. */
  fulfillmentOrders: FulfillmentOrderRecord[]
  fulfillments: FulfillmentRecord[]
  /** Its risk assessments, oldest first; absent (none) in a state file written before them. */
  riskAssessments?: RiskAssessmentRecord[]
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
  /** Locations fulfillment services manage for the shop (a 3PL's warehouse); none when absent. */
  serviceLocations?: ServiceLocationRecord[]
  products: ProductRecord[]
  orders: OrderRecord[]
  webhooks: WebhookRecord[]
  accessTokens: TokenRecord[]
  refreshTokens: TokenRecord[]
  /** Authorization codes not yet exchanged, with the scope the merchant approved. */
  authorizationCodes: { code: string; scope: string }[]
  /**
   * The @idempotent keys of this shop's recent refundCreate and inventorySetQuantities calls
   * (Shopify keeps them 24 h).
   */
  idempotencyKeys?: IdempotencyRecord[]
}

/**
 * A location a third-party fulfillment service manages (Shopify's FulfillmentService.location):
 * the units of the variants it stocks are assigned to it, in fulfillment orders of their own.
 */
export interface ServiceLocationRecord {
  /** A Location GID. */
  id: string
  name: string
  /** The fulfillment service's name (FulfillmentService.serviceName). */
  serviceName: string
  /** The variants it stocks: an order's units of them are assigned to this location. */
  variantIds: string[]
}

/** One change an inventorySetQuantities call made, as its InventoryAdjustmentGroup lists it. */
export interface InventoryChangeRecord {
  name: 'available' | 'on_hand'
  delta: number
  quantityAfterChange: number
  inventoryItemId: string
  locationId: string
}

export interface AdjustmentGroupRecord {
  id: string
  createdAt: string
  reason: string
  referenceDocumentUri: string | null
  changes: InventoryChangeRecord[]
}

export interface IdempotencyRecord {
  key: string
  /** The call's arguments, so that a key reused for another call is told apart. */
  fingerprint: string
  /** What the first call made: a refund, or a group of inventory changes. */
  refundId?: string
  adjustmentGroup?: AdjustmentGroupRecord
  /** The call was refused: the key is refused for good. */
  failed?: boolean
  /** Epoch ms. */
  at: number
}

export interface EmulatorState {
  shops: Record<string, ShopRecord>
  /** The last number used for each kind of id; ids are global across shops, as in Shopify. */
  lastIds: {
    shop: number
    product: number
    variant: number
    inventoryItem: number
    adjustmentGroup: number
    order: number
    webhook: number
    fulfillmentOrder: number
    fulfillmentOrderLineItem: number
    fulfillment: number
    fulfillmentLineItem: number
    fulfillmentHold: number
    /** customers/data_request's ids; absent in a state file written before them. */
    dataRequest?: number
  }
}

export const emptyState = (): EmulatorState => ({
  shops: {},
  lastIds: {
    shop: 0,
    product: 0,
    variant: 0,
    inventoryItem: 0,
    adjustmentGroup: 0,
    order: 0,
    webhook: 0,
    fulfillmentOrder: 0,
    fulfillmentOrderLineItem: 0,
    fulfillment: 0,
    fulfillmentLineItem: 0,
    fulfillmentHold: 0,
  },
})

export const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`

/** The number in a GID of the given type, or null when the string is not one. */
export function gidNumber(id: string, type: string): number | null {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(\?.*)?$/.exec(id)
  return match && match[1] === type ? Number(match[2]) : null
}

/** 'northwind-apparel…' → 'Northwind Apparel', the name a merchant would have given the store. */
export const shopName = (domain: string) =>
  storeName(domain)
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')

export function addShopRecord(
  state: EmulatorState,
  domain: string,
  options: { app?: AppRecord; currency?: string } = {},
): ShopRecord {
  if (state.shops[domain]) throw new Error(`Shop ${domain} already exists`)
  const shop: ShopRecord = {
    domain,
    name: shopName(domain),
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

/**
 * Each shop has one location, numbered after the shop so that it is the same across restarts and
 * unique across shops (Shopify's ids are global).
 */
export const shopLocation = (shop: ShopRecord) => ({
  id: gid('Location', shop.numericId),
  name: 'Shop location',
})

/** A shop's locations: its own first, then those of its fulfillment services. */
export const shopLocations = (shop: ShopRecord) => [
  { ...shopLocation(shop), serviceName: null as string | null },
  ...(shop.serviceLocations ?? []).map(({ id, name, serviceName }) => ({ id, name, serviceName })),
]

/** The location a fulfillment order (or a fulfillment made from it) is assigned to. */
export const assignedLocation = (shop: ShopRecord, record: { locationId?: string }) =>
  shopLocations(shop).find((location) => location.id === record.locationId) ??
  shopLocations(shop)[0]!

/**
 * Marks a product or an order changed now, and always later than its last change: webhooks, syncs
 * and searches order their versions by updatedAt, so two changes within a millisecond must differ.
 */
export function touch(record: ProductRecord | OrderRecord): void {
  const at = Math.max(Date.now(), Date.parse(record.updatedAt) + 1)
  record.updatedAt = new Date(at).toISOString()
}

export const featuredImageUrl = (product: ProductRecord) => product.images[0]?.url ?? null

/** The option a product without options of its own has, and its variant's one value. */
export const DEFAULT_OPTION = { name: 'Title', value: 'Default Title' }

/** The first variant of the shop that matches, with its product. */
export function findVariantWhere(
  shop: ShopRecord,
  matches: (variant: VariantRecord) => boolean,
): { product: ProductRecord; variant: VariantRecord } | undefined {
  for (const product of shop.products) {
    const variant = product.variants.find(matches)
    if (variant) return { product, variant }
  }
  return undefined
}

export const findVariant = (shop: ShopRecord, variantId: string) =>
  findVariantWhere(shop, (variant) => variant.id === variantId)

/** What both a product's GraphQL object and the merchant's view of it say as they are kept. */
export function productFacts(product: ProductRecord) {
  const { id, title, handle, descriptionHtml, vendor, status } = product
  return { id, title, handle, descriptionHtml, vendor, status }
}
