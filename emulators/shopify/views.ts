import { connection, type PageArgs } from './connection'
import type { RequestContext } from './context'
import { formatMinor } from './money'
import { findInventoryItem } from './inventory'
import {
  gid,
  gidNumber,
  productFacts,
  shopLocations,
  type AdjustmentGroupRecord,
  type ImageRecord,
  type MetafieldRecord,
  type ProductRecord,
  type ShopRecord,
  type VariantRecord,
  type WebhookRecord,
} from './state'

// The GraphQL objects, built from records on demand. graphql-js's default resolver reads plain
// properties and calls functions with the field's arguments, so nested connections and lookups
// are functions here and run only when selected.

export const metafieldOf = (
  metafields: MetafieldRecord[],
  { namespace, key }: { namespace?: string | null; key: string },
) =>
  // Without a namespace Shopify looks in the app's reserved one.
  metafields.find((m) => m.namespace === (namespace ?? '$app') && m.key === key) ?? null

export const shopView = (shop: ShopRecord) => ({
  __typename: 'Shop',
  id: gid('Shop', shop.numericId),
  name: shop.name,
  myshopifyDomain: shop.domain,
  currencyCode: shop.currency,
})

/**
 * Ids of what the emulator keeps inside a product, by position, as line items' ids are made: a
 * product has at most 3 options, and at most 250 images and values of an option.
 */
const optionNumber = (product: ProductRecord, option: number) =>
  (gidNumber(product.id, 'Product') ?? 0) * 10 + option + 1
const mediaId = (product: ProductRecord, position: number) =>
  gid('MediaImage', (gidNumber(product.id, 'Product') ?? 0) * 1000 + position + 1)

/** A product image as a MediaImage. */
const mediaView = (product: ProductRecord, image: ImageRecord, position: number) => ({
  __typename: 'MediaImage',
  id: mediaId(product, position),
  alt: image.altText,
  mediaContentType: 'IMAGE',
  preview: { image: { url: image.url, altText: image.altText } },
  image: { url: image.url, altText: image.altText },
})

export function productView(ctx: RequestContext, product: ProductRecord) {
  const [featured] = product.images
  return {
    __typename: 'Product',
    ...productFacts(product),
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
    options: ({ first }: { first?: number | null }) =>
      product.options.slice(0, first ?? undefined).map((option, i) => ({
        id: gid('ProductOption', optionNumber(product, i)),
        name: option.name,
        position: i + 1,
        values: option.values,
        optionValues: option.values.map((name, v) => ({
          id: gid('ProductOptionValue', optionNumber(product, i) * 1000 + v + 1),
          name,
          hasVariants: product.variants.some((variant) =>
            variant.selectedOptions.some((s) => s.name === option.name && s.value === name),
          ),
        })),
      })),
    featuredMedia: featured && mediaView(product, featured, 0),
    media: (args: PageArgs) =>
      connection(
        product.images.map((image, i) => mediaView(product, image, i)),
        args,
        (media) => media,
        ctx.bulk,
      ),
    variants: (args: PageArgs) =>
      connection(product.variants, args, (v) => variantView(ctx, product, v), ctx.bulk),
    variantsCount: { count: product.variants.length, precision: 'EXACT' },
    priceRangeV2: () => {
      const prices = product.variants.map((variant) => variant.priceMinor)
      const money = (minor: number) => ({
        amount: formatMinor(minor, ctx.shop.currency),
        currencyCode: ctx.shop.currency,
      })
      return {
        minVariantPrice: money(Math.min(...prices)),
        maxVariantPrice: money(Math.max(...prices)),
      }
    },
  }
}

export const variantView = (
  ctx: RequestContext,
  product: ProductRecord,
  variant: VariantRecord,
) => ({
  __typename: 'ProductVariant',
  id: variant.id,
  title: variant.title,
  sku: variant.sku,
  price: formatMinor(variant.priceMinor, ctx.shop.currency),
  inventoryQuantity: variant.inventoryQuantity,
  inventoryPolicy: variant.inventoryPolicy,
  selectedOptions: variant.selectedOptions,
  inventoryItem: () => inventoryItemView(ctx, product, variant),
  product: () => productView(ctx, product),
  metafield: (args: { namespace?: string | null; key: string }) =>
    metafieldOf(variant.metafields, args),
})

export const webhookView = (subscription: WebhookRecord) => ({
  __typename: 'WebhookSubscription',
  ...subscription,
  format: 'JSON',
})

export const inventoryItemView = (
  ctx: RequestContext,
  product: ProductRecord,
  variant: VariantRecord,
) => ({
  __typename: 'InventoryItem',
  id: variant.inventoryItemId,
  sku: variant.sku,
  // The emulator counts every variant's stock.
  tracked: true,
  variant: () => variantView(ctx, product, variant),
})

/** A location: the shop's own unless one of its fulfillment services' is given. */
export function locationView(
  shop: ShopRecord,
  { id, name, serviceName } = shopLocations(shop)[0]!,
) {
  return {
    __typename: 'Location',
    id,
    name,
    isActive: true,
    isFulfillmentService: serviceName !== null,
    fulfillmentService: serviceName && { __typename: 'FulfillmentService', serviceName },
  }
}

export const adjustmentGroupView = (ctx: RequestContext, group: AdjustmentGroupRecord) => ({
  __typename: 'InventoryAdjustmentGroup',
  ...group,
  changes: (filter: {
    inventoryItemIds?: string[] | null
    locationIds?: string[] | null
    quantityNames?: string[] | null
  }) =>
    group.changes
      .filter(
        (change) =>
          (!filter.inventoryItemIds || filter.inventoryItemIds.includes(change.inventoryItemId)) &&
          (!filter.locationIds || filter.locationIds.includes(change.locationId)) &&
          (!filter.quantityNames || filter.quantityNames.includes(change.name)),
      )
      .map((change) => {
        const found = findInventoryItem(ctx.shop, change.inventoryItemId)
        return {
          name: change.name,
          delta: change.delta,
          quantityAfterChange: change.quantityAfterChange,
          item: found ? inventoryItemView(ctx, found.product, found.variant) : null,
          location: locationView(ctx.shop),
        }
      }),
})
