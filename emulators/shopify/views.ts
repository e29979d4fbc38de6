import { connection, type PageArgs } from './connection'
import type { RequestContext } from './context'
import { formatMinor } from './money'
import {
  gid,
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

export function productView(ctx: RequestContext, product: ProductRecord) {
  const { imageUrl } = product
  return {
    __typename: 'Product',
    id: product.id,
    title: product.title,
    handle: product.handle,
    status: product.status,
    updatedAt: product.updatedAt,
    featuredMedia: imageUrl && {
      __typename: 'MediaImage',
      id: product.id.replace('/Product/', '/MediaImage/'),
      preview: { image: { url: imageUrl, altText: null } },
      image: { url: imageUrl, altText: null },
    },
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
  product: () => productView(ctx, product),
  metafield: (args: { namespace?: string | null; key: string }) =>
    metafieldOf(variant.metafields, args),
})

export const webhookView = (subscription: WebhookRecord) => ({
  __typename: 'WebhookSubscription',
  ...subscription,
  format: 'JSON',
})
