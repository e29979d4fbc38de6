import type { Runtime } from './context'
import { formatMinor } from './money'
import {
  featuredImageUrl,
  gidNumber,
  shopLocation,
  type ProductRecord,
  type ShopRecord,
  type VariantRecord,
} from './state'

// The webhooks a product's life sends (products/create, products/update, products/delete,
// inventory_levels/update) and their bodies, shaped as Shopify's REST resources: numeric ids beside
// the GraphQL ones, prices as decimal strings, statuses in lower case. Each delivery settles once
// every subscription of its topic in the shop had its first attempt.

export function announceProduct(
  runtime: Runtime,
  shop: ShopRecord,
  product: ProductRecord,
  event: 'create' | 'update',
) {
  const topic = event === 'create' ? 'PRODUCTS_CREATE' : 'PRODUCTS_UPDATE'
  return runtime.webhooks.deliver(shop, topic, productBody(shop, product))
}

/** products/delete carries the deleted product's id and nothing else. */
export function announceDeleted(runtime: Runtime, shop: ShopRecord, productId: string) {
  return runtime.webhooks.deliver(shop, 'PRODUCTS_DELETE', { id: gidNumber(productId, 'Product') })
}

/** inventory_levels/update: what is now available of the variant's item at the shop's location. */
export function announceStock(runtime: Runtime, shop: ShopRecord, variant: VariantRecord) {
  const itemId = gidNumber(variant.inventoryItemId, 'InventoryItem')
  const locationId = gidNumber(shopLocation(shop).id, 'Location')
  return runtime.webhooks.deliver(shop, 'INVENTORY_LEVELS_UPDATE', {
    inventory_item_id: itemId,
    location_id: locationId,
    available: variant.inventoryQuantity,
    updated_at: new Date().toISOString(),
    // A level is its location's, qualified by the item stocked there.
    admin_graphql_api_id: `gid://shopify/InventoryLevel/${locationId}?inventory_item_id=${itemId}`,
  })
}

/** The REST Product, as products/create and products/update post it. */
function productBody(shop: ShopRecord, product: ProductRecord) {
  const productId = gidNumber(product.id, 'Product')
  const imageUrl = featuredImageUrl(product)
  const images = product.images.map((image, i) => ({
    position: i + 1,
    product_id: productId,
    alt: image.altText,
    src: image.url,
  }))
  return {
    id: productId,
    admin_graphql_api_id: product.id,
    title: product.title,
    body_html: product.descriptionHtml,
    vendor: product.vendor,
    product_type: '',
    handle: product.handle,
    updated_at: product.updatedAt,
    status: product.status.toLowerCase(),
    tags: '',
    options: product.options.map((option, i) => ({
      product_id: productId,
      name: option.name,
      position: i + 1,
      values: option.values,
    })),
    variants: product.variants.map((variant, i) => {
      const [option1 = null, option2 = null, option3 = null] = variant.selectedOptions.map(
        (selected) => selected.value,
      )
      return {
        id: gidNumber(variant.id, 'ProductVariant'),
        admin_graphql_api_id: variant.id,
        product_id: productId,
        title: variant.title,
        price: formatMinor(variant.priceMinor, shop.currency),
        sku: variant.sku,
        position: i + 1,
        inventory_policy: variant.inventoryPolicy.toLowerCase(),
        option1,
        option2,
        option3,
        inventory_item_id: gidNumber(variant.inventoryItemId, 'InventoryItem'),
        inventory_quantity: variant.inventoryQuantity,
      }
    }),
    images,
    image: imageUrl === null ? null : images[0],
  }
}
