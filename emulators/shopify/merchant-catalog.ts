import type { Runtime } from './context'
import { formatMinor } from './money'
import { announceDeleted, announceProduct, announceStock } from './product-announcements'
import {
  findVariant,
  productFacts,
  touch,
  type MetafieldRecord,
  type ProductRecord,
  type ShopRecord,
} from './state'

// What the merchant does to a product in the Shopify admin, for the emulator's test controls, and
// the products as those controls report them. Each change is announced as Shopify announces it;
// the promise settles once every subscription had its first attempt.

/** A product as the merchant sees it in the admin. */
export interface EmulatedProduct {
  id: string
  title: string
  handle: string
  descriptionHtml: string
  vendor: string
  status: ProductRecord['status']
  options: { name: string; values: string[] }[]
  images: { url: string; altText: string | null }[]
  variants: {
    id: string
    title: string
    selectedOptions: { name: string; value: string }[]
    /** As Shopify writes it ("68.00"). */
    price: string
    sku: string
    inventoryQuantity: number
    inventoryItemId: string
  }[]
}

export function productSummary(shop: ShopRecord, product: ProductRecord): EmulatedProduct {
  return {
    ...productFacts(product),
    options: product.options.map((option) => ({ ...option, values: [...option.values] })),
    images: product.images.map((image) => ({ ...image })),
    variants: product.variants.map((variant) => ({
      id: variant.id,
      title: variant.title,
      selectedOptions: variant.selectedOptions.map((selected) => ({ ...selected })),
      price: formatMinor(variant.priceMinor, shop.currency),
      sku: variant.sku,
      inventoryQuantity: variant.inventoryQuantity,
      inventoryItemId: variant.inventoryItemId,
    })),
  }
}

export interface VariantEdit {
  priceMinor?: number
  metafields?: MetafieldRecord[]
  /** Made a bundle's parent (true) or its components taken away (false). */
  bundle?: boolean
}

function variantOf(shop: ShopRecord, variantId: string) {
  const found = findVariant(shop, variantId)
  if (!found) throw new Error(`${shop.domain} has no variant ${variantId}`)
  return found
}

function productOf(shop: ShopRecord, productId: string): ProductRecord {
  const product = shop.products.find((candidate) => candidate.id === productId)
  if (!product) throw new Error(`${shop.domain} has no product ${productId}`)
  return product
}

/** The merchant edits a variant's price or metafields, or gives it components or takes them. */
export function editVariantInAdmin(
  runtime: Runtime,
  shop: ShopRecord,
  variantId: string,
  edit: VariantEdit,
): Promise<void> {
  const { product, variant } = variantOf(shop, variantId)
  if (edit.priceMinor !== undefined) variant.priceMinor = edit.priceMinor
  if (edit.metafields) variant.metafields = edit.metafields
  if (edit.bundle !== undefined) variant.bundle = edit.bundle
  touch(product)
  runtime.save()
  return announceProduct(runtime, shop, product, 'update')
}

/** The merchant edits a product in the admin: it is saved, touched and announced as updated. */
function editProduct(
  runtime: Runtime,
  shop: ShopRecord,
  productId: string,
  edit: (product: ProductRecord) => void,
): Promise<void> {
  const product = productOf(shop, productId)
  edit(product)
  touch(product)
  runtime.save()
  return announceProduct(runtime, shop, product, 'update')
}

/** The merchant sets a product's status (Unlisted, Draft …). */
export const setStatusInAdmin = (
  runtime: Runtime,
  shop: ShopRecord,
  productId: string,
  status: ProductRecord['status'],
) =>
  editProduct(runtime, shop, productId, (product) => {
    product.status = status
  })

/** The merchant changes a product's web address (its handle), which must be free. */
export const setHandleInAdmin = (
  runtime: Runtime,
  shop: ShopRecord,
  productId: string,
  handle: string,
) =>
  editProduct(runtime, shop, productId, (product) => {
    if (shop.products.some((other) => other !== product && other.handle === handle)) {
      throw new Error(`${shop.domain} has another product at ${handle}`)
    }
    product.handle = handle
  })

/** The merchant counts the stock: what is now available of the variant at the shop's location. */
export function setStockInAdmin(
  runtime: Runtime,
  shop: ShopRecord,
  variantId: string,
  available: number,
): Promise<void> {
  const { variant } = variantOf(shop, variantId)
  variant.inventoryQuantity = available
  runtime.save()
  return announceStock(runtime, shop, variant)
}

export function deleteInAdmin(
  runtime: Runtime,
  shop: ShopRecord,
  productId: string,
): Promise<void> {
  const product = productOf(shop, productId)
  shop.products = shop.products.filter((candidate) => candidate !== product)
  runtime.save()
  return announceDeleted(runtime, shop, product.id)
}
