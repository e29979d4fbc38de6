import type { MutationOptions } from './commerce-port'

// The commerce platform's catalogue as listings need it (catalog/), shaped after Shopify's Admin
// GraphQL API: a brand product read whole (product), a creator product written whole (productSet)
// and a creator's stock set (inventorySetQuantities). Prices are minor units of `currency`.

export interface CatalogOption {
  name: string
  values: string[]
}

export interface SelectedOption {
  name: string
  value: string
}

/** A brand's product as a listing copies it, with each variant's stock. */
export interface CatalogProduct {
  /** gid://shopify/Product/… */
  id: string
  title: string
  descriptionHtml: string
  vendor: string | null
  /** Shopify's ProductStatus (ACTIVE, ARCHIVED, DRAFT, UNLISTED…). */
  status: string
  /** When Shopify last changed it: which of two readings is newer. */
  updatedAt: string
  /** The shop's currency, every price's. */
  currency: string
  options: CatalogOption[]
  images: { url: string; altText: string | null }[]
  variants: {
    id: string
    sku: string | null
    priceMinor: number
    selectedOptions: SelectedOption[]
    /** Units available to sell, across the shop's locations. */
    available: number
    inventoryItemId: string
  }[]
}

/** What a listing writes to the creator's store: the whole product, variants by their options. */
export interface CreatorProductInput {
  /** The product once Tandem recorded its id; before that, its handle names it. */
  identifier: { id: string } | { handle: string }
  handle: string
  title: string
  descriptionHtml: string
  vendor: string | null
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED'
  currency: string
  options: CatalogOption[]
  /** null leaves the product's images as they are (each one given is uploaded again). */
  images: { url: string; altText: string | null }[] | null
  variants: {
    /** The creator variant once Tandem recorded it: updated, not made again. */
    id: string | null
    selectedOptions: SelectedOption[]
    sku: string | null
    priceMinor: number
    /** Given only when the variant is made: later changes go through setStock. */
    initialStock: number | null
  }[]
  /** Where the creator's stock is kept. */
  locationId: string
}

export interface CreatorProductWritten {
  id: string
  /** When Shopify made the product: under a handle, whether it is the one Tandem made. */
  createdAt: string
  variants: { id: string; selectedOptions: SelectedOption[]; inventoryItemId: string }[]
}

/** What of a creator product decides what sells, and at what price: read back to compare. */
export interface CreatorProductShown {
  /** Shopify's ProductStatus. */
  status: string
  variants: { id: string; priceMinor: number }[]
}

export interface StockLevel {
  inventoryItemId: string
  locationId: string
  quantity: number
}

/**
 * Shopify refused the product for what it is (its userErrors): the same write would be refused
 * again, so a person must change something. Each refusal with Shopify's code.
 */
export class ProductRefused extends Error {
  override name = 'ProductRefused'
  constructor(
    readonly refusals: { code: string | null; field: string[] | null; message: string }[],
  ) {
    super(refusals.map((refusal) => refusal.message).join('; '))
  }
}

export interface CatalogPort {
  /** The brand product whole, or null when its shop no longer has it. */
  readCatalogProduct(shop: string, productId: string): Promise<CatalogProduct | null>
  /**
   * A creator product's status and its first `variants` variants' prices, as its shop has them
   * now; null when the shop no longer has it.
   */
  readCreatorProduct(
    shop: string,
    productId: string,
    variants: number,
  ): Promise<CreatorProductShown | null>
  /** The shop's currency, and its first location: where a listing keeps the creator's stock. */
  stockPlace(shop: string): Promise<{ currency: string; locationId: string }>
  /** productSet: creates or updates the product whole; throws ProductRefused for its userErrors. */
  setCreatorProduct(
    shop: string,
    input: CreatorProductInput,
    options?: MutationOptions,
  ): Promise<CreatorProductWritten>
  /**
   * inventorySetQuantities of "available", whatever the shop has now, once per key; throws
   * ProductRefused for its userErrors, after which the key is refused for good (a new write takes
   * a new key).
   */
  setStock(
    shop: string,
    levels: StockLevel[],
    idempotencyKey: string,
    options?: MutationOptions,
  ): Promise<void>
}
