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
import { newFulfillmentOrder } from './fulfillments'
import { orderTotals } from './order-figures'
import { CHECKOUT_GATEWAY, recordSale } from './payments'
import {
  addShopRecord,
  DEFAULT_OPTION,
  featuredImageUrl,
  findVariant,
  gid,
  gidNumber,
  shopName,
  type EmulatorState,
  type OrderRecord,
  type ProductRecord,
  type ShopRecord,
  type VariantRecord,
} from './state'

// The sandbox marketplace (docs/product-rules.md) as Shopify would hold it. The ids are the ones
// the server's seed has always used, so that demos, tests and stored data keep pointing at the same
// products.

const SEEDED_AT = '2026-11-01T00:00:00.000Z'
const SEED_STOCK = 100

/**
 * A brand that ships from a third-party warehouse as well as its own: the fulfillment service's
 * location, "named after the fulfillment service" (fulfillmentServiceCreate, Admin GraphQL
 * 2026-10), stocking none of its variants until a test has one stocked there
 * (stockAtFulfillmentService). Numbered apart from the shops' own locations.
 */
const SERVICE_LOCATIONS: Record<string, { name: string; serviceName: string }> = {
  'northwind-apparel.myshopify.com': { name: 'Harbor 3PL', serviceName: 'Harbor 3PL' },
}
const SERVICE_LOCATION_IDS_FROM = 1_000_000

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

/** A product with one variant, as a merchant makes one without options: Title, Default Title. */
function singleVariantProduct(
  state: EmulatorState,
  product: Omit<ProductRecord, 'options' | 'variants'>,
  variant: Pick<VariantRecord, 'id' | 'sku' | 'priceMinor'>,
): ProductRecord {
  return {
    ...product,
    options: [{ name: DEFAULT_OPTION.name, values: [DEFAULT_OPTION.value] }],
    variants: [
      {
        ...variant,
        title: DEFAULT_OPTION.value,
        inventoryQuantity: SEED_STOCK,
        inventoryPolicy: 'DENY',
        metafields: [],
        selectedOptions: [{ ...DEFAULT_OPTION }],
        inventoryItemId: gid('InventoryItem', ++state.lastIds.inventoryItem),
      },
    ],
  }
}

function productRecord(state: EmulatorState, entry: CatalogueEntry): ProductRecord {
  const vendor = shopName(entry.brand)
  return singleVariantProduct(
    state,
    {
      id: entry.productId,
      title: entry.title,
      handle: entry.key,
      descriptionHtml: `<p>${entry.title}, made by ${vendor}.</p>`,
      vendor,
      status: 'ACTIVE',
      createdAt: SEEDED_AT,
      updatedAt: SEEDED_AT,
      images: [{ url: entry.image, altText: null }],
    },
    { id: entry.variantId, sku: entry.key.toUpperCase(), priceMinor: entry.priceMinor },
  )
}

function seedOrder(
  state: EmulatorState,
  shop: ShopRecord,
  order: (typeof ORDERS)[number],
): OrderRecord {
  const { customer } = order
  const record: OrderRecord = {
    id: order.id,
    name: `#${order.id}`,
    email: customer.email,
    createdAt: order.createdAt,
    updatedAt: order.createdAt,
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
        imageUrl: featuredImageUrl(product),
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
    fulfillmentOrders: [],
    fulfillments: [],
  }
  // Not shipped yet.
  record.fulfillmentOrders.push(newFulfillmentOrder(state, record.lines))
  // Paid at checkout, on the date the order was placed.
  recordSale(record, orderTotals(record).totalMinor, CHECKOUT_GATEWAY).createdAt = order.createdAt
  record.updatedAt = order.createdAt
  return record
}

/** Adds the sandbox stores, their products and their paid orders to an empty state. */
export function seedSandbox(state: EmulatorState, imageBaseUrl: string): void {
  const catalogue = sandboxCatalogue(imageBaseUrl)
  for (const store of STORES) {
    const shop = addShopRecord(state, store.shop)
    shop.products = catalogue
      .filter((entry) => entry.store === store.shop)
      .map((entry) => productRecord(state, entry))
    const service = SERVICE_LOCATIONS[store.shop]
    if (service) {
      const id = gid('Location', SERVICE_LOCATION_IDS_FROM + shop.numericId)
      shop.serviceLocations = [{ id, ...service, variantIds: [] }]
    }
  }
  for (const order of ORDERS) {
    const shop = state.shops[order.store]
    if (!shop) throw new Error(`Seed order ${order.id} names unknown store ${order.store}`)
    shop.orders.push(seedOrder(state, shop, order))
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
    const product = {
      id: gid('Product', productNumber),
      title: `Generated Product ${productNumber}`,
      handle: `generated-product-${productNumber}`,
      descriptionHtml: '',
      vendor: shop.name,
      status: 'ACTIVE' as const,
      createdAt: updatedAt,
      updatedAt,
      images: [],
    }
    const variant = {
      id: variantId,
      sku: `GEN-${productNumber}`,
      priceMinor: 1000 + (productNumber % 90) * 100,
    }
    shop.products.push(singleVariantProduct(state, product, variant))
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
      createdAt: updatedAt,
      updatedAt,
      options: [{ name: DEFAULT_OPTION.name, values: [DEFAULT_OPTION.value] }],
      images: original.product.images.map((image) => ({ ...image })),
      variants: [
        {
          ...original.variant,
          id: variantId,
          title: DEFAULT_OPTION.value,
          selectedOptions: [{ ...DEFAULT_OPTION }],
          inventoryQuantity: SEED_STOCK,
          metafields: [],
          inventoryItemId: gid('InventoryItem', ++state.lastIds.inventoryItem),
        },
      ],
    })
    return variantId
  })
}
