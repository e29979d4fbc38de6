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

export interface RefundRecord {
  id: string
  createdAt: string
  amountMinor: number
  lines: { lineItemId: string; quantity: number }[]
}

export interface OrderRecord {
  id: number
  name: string
  email: string | null
  createdAt: string
  financialStatus: FinancialStatus
  /** When the merchant cancelled it; null while it stands. */
  cancelledAt: string | null
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

/**
 * A state file written before orders kept their edits, refunds, cancellation and discounts, read
 * as orders that had none of them (no `npm run stack:reset` needed).
 */
export function withOrderHistory(state: EmulatorState): EmulatorState {
  for (const shop of Object.values(state.shops)) {
    for (const order of shop.orders as Partial<OrderRecord>[]) {
      order.cancelledAt ??= null
      order.discountCodes ??= []
      order.refunds ??= []
      for (const line of (order.lines ?? []) as Partial<OrderLineRecord>[]) {
        line.removedQuantity ??= 0
        line.discountAllocations ??= []
      }
    }
  }
  return state
}

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
