import {
  BRAND_PRODUCTS,
  brandVariantId,
  CREATOR_OWN_PRODUCT,
  creatorVariantId,
  ORDERS,
  paymentIntentOf,
  STORES,
  STRIPE_PAID_ORDERS,
  type SeedProduct,
} from '../../server/src/seed/sandbox-data'
import { orderTotals } from './order-figures'
import { CHECKOUT_GATEWAY, recordSale } from './payments'
import {
  addShopRecord,
  findVariant,
  gid,
  gidNumber,
  type EmulatorState,
  type OrderRecord,
  type ProductRecord,
  type ShopRecord,
} from './state'

// The sandbox marketplace (docs/product-rules.md) as Shopify would hold it. The ids are the ones
// the server's seed has always used, so that demos, tests and stored data keep pointing at the same
// products.

const SEEDED_AT = '2026-11-01T00:00:00.000Z'
const SEED_STOCK = 100

export interface CatalogueEntry extends SeedProduct {
  /** The shop that sells this copy. */
  store: string
  productId: string
  variantId: string
  image: string
}

/** Brand products are 101…, their variants 201…; creator c's copies (3+2c)01…/(4+2c)01…. */
export function sandboxCatalogue(imageBaseUrl: string): CatalogueEntry[] {
  const image = (key: string) => `${imageBaseUrl}/images/products/${key}.svg`
  const creators = STORES.filter((store) => store.shopType === 'CREATOR').map((store) => store.shop)
  const brand = BRAND_PRODUCTS.map((product, i) => ({
    ...product,
    store: product.brand,
    productId: gid('Product', 101 + i),
    variantId: brandVariantId(i),
    image: image(product.key),
  }))
  const copies = creators.flatMap((creator, c) => {
    const own: SeedProduct = { ...CREATOR_OWN_PRODUCT, brand: creator }
    return [...BRAND_PRODUCTS, own].map((product, i) => ({
      ...product,
      store: creator,
      productId: gid('Product', (3 + 2 * c) * 100 + 1 + i),
      variantId: creatorVariantId(creator, i),
      image: image(product.key),
    }))
  })
  return [...brand, ...copies]
}

/** An order names its PaymentIntent in a metafield of Tandem's namespace. */
const metafield = (key: string, value: string) => ({
  namespace: 'tandem',
  key,
  value,
  type: 'single_line_text_field',
})

function productRecord(entry: CatalogueEntry): ProductRecord {
  return {
    id: entry.productId,
    title: entry.title,
    handle: entry.key,
    status: 'ACTIVE',
    updatedAt: SEEDED_AT,
    imageUrl: entry.image,
    variants: [
      {
        id: entry.variantId,
        title: 'Default Title',
        sku: entry.key.toUpperCase(),
        priceMinor: entry.priceMinor,
        inventoryQuantity: SEED_STOCK,
        inventoryPolicy: 'DENY',
        metafields: [],
      },
    ],
  }
}

function seedOrder(shop: ShopRecord, order: (typeof ORDERS)[number]): OrderRecord {
  const { customer } = order
  const record: OrderRecord = {
    id: order.id,
    name: `#${order.id}`,
    email: customer.email,
    createdAt: order.createdAt,
    financialStatus: 'PAID',
    cancelledAt: null,
    cancelReason: null,
    cancelStaffNote: null,
    closedAt: null,
    currency: order.currency,
    tags: [],
    note: null,
    lines: order.lines.map((line, position) => {
      const product = shop.products.find((candidate) => candidate.handle === line.product)
      const variant = product?.variants[0]
      if (!product || !variant)
        throw new Error(`Seed order ${order.id} names unknown product ${line.product}`)
      return {
        id: gid('LineItem', `${order.id}${position + 1}`),
        variantId: variant.id,
        title: product.title,
        quantity: line.quantity,
        removedQuantity: 0,
        unitPriceMinor: line.unitPriceMinor ?? variant.priceMinor,
        imageUrl: product.imageUrl,
        discountAllocations: [],
      }
    }),
    taxMinor: order.taxMinor,
    shippingMinor: order.shippingMinor,
    shippingAddress: {
      firstName: customer.firstName,
      lastName: customer.lastName,
      address1: customer.address1,
      address2: null,
      city: customer.city,
      province: null,
      zip: customer.zip,
      countryCode: customer.country,
      phone: null,
    },
    metafields: STRIPE_PAID_ORDERS.includes(order.id)
      ? [metafield('payment_intent', paymentIntentOf(order.id))]
      : [],
    discountCodes: [],
    transactions: [],
    refunds: [],
  }
  // Paid at checkout, on the date the order was placed.
  recordSale(record, orderTotals(record).totalMinor, CHECKOUT_GATEWAY).createdAt = order.createdAt
  return record
}

/** Adds the sandbox stores, their products and their paid orders to an empty state. */
export function seedSandbox(state: EmulatorState, imageBaseUrl: string): void {
  const catalogue = sandboxCatalogue(imageBaseUrl)
  for (const store of STORES) {
    const shop = addShopRecord(state, store.shop)
    shop.products = catalogue.filter((entry) => entry.store === store.shop).map(productRecord)
  }
  for (const order of ORDERS) {
    const shop = state.shops[order.store]
    if (!shop) throw new Error(`Seed order ${order.id} names unknown store ${order.store}`)
    shop.orders.push(seedOrder(shop, order))
  }
  const productIds = catalogue.map((entry) => gidNumber(entry.productId, 'Product') ?? 0)
  const variantIds = catalogue.map((entry) => gidNumber(entry.variantId, 'ProductVariant') ?? 0)
  state.lastIds.product = Math.max(...productIds)
  state.lastIds.variant = Math.max(...variantIds)
  state.lastIds.order = Math.max(...ORDERS.map((order) => order.id))
}

/** `count` more single-variant products, e.g. for 10,000-product syncs; answers their variants. */
export function addGeneratedProducts(
  state: EmulatorState,
  shop: ShopRecord,
  count: number,
): string[] {
  const updatedAt = new Date().toISOString()
  return Array.from({ length: count }, () => {
    const productNumber = ++state.lastIds.product
    const variantId = gid('ProductVariant', ++state.lastIds.variant)
    shop.products.push({
      id: gid('Product', productNumber),
      title: `Generated Product ${productNumber}`,
      handle: `generated-product-${productNumber}`,
      status: 'ACTIVE',
      updatedAt,
      imageUrl: null,
      variants: [
        {
          id: variantId,
          title: 'Default Title',
          sku: `GEN-${productNumber}`,
          priceMinor: 1000 + (productNumber % 90) * 100,
          inventoryQuantity: SEED_STOCK,
          inventoryPolicy: 'DENY',
          metafields: [],
        },
      ],
    })
    return variantId
  })
}

/**
 * Copies of brand variants in a creator shop, as a creator lists a brand's products: same title
 * and price. Answers the copies' variant ids, in order: Tandem's database links them.
 */
export function addCopies(
  state: EmulatorState,
  creator: ShopRecord,
  brand: ShopRecord,
  brandVariantIds: string[],
): string[] {
  const updatedAt = new Date().toISOString()
  return brandVariantIds.map((brandVariantId) => {
    const original = findVariant(brand, brandVariantId)
    if (!original) throw new Error(`${brand.domain} has no variant ${brandVariantId}`)
    const productNumber = ++state.lastIds.product
    const variantId = gid('ProductVariant', ++state.lastIds.variant)
    creator.products.push({
      ...original.product,
      id: gid('Product', productNumber),
      handle: `${original.product.handle}-copy-${productNumber}`,
      updatedAt,
      variants: [
        {
          ...original.variant,
          id: variantId,
          inventoryQuantity: SEED_STOCK,
          metafields: [],
        },
      ],
    })
    return variantId
  })
}
