import { connection, type PageArgs } from './connection'
import type { RequestContext } from './context'
import { formatMinor, moneyBag } from './money'
import { currentQuantity, lineDiscountMinor, orderTotals } from './orders'
import {
  findVariant,
  gid,
  type AddressRecord,
  type MetafieldRecord,
  type OrderRecord,
  type ProductRecord,
  type ShopRecord,
  type VariantRecord,
  type WebhookRecord,
} from './state'

// The GraphQL objects, built from records on demand. graphql-js's default resolver reads plain
// properties and calls functions with the field's arguments, so nested connections and lookups
// are functions here and run only when selected.

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' })

const metafieldOf = (
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

const addressView = (address: AddressRecord) => ({
  ...address,
  country: address.countryCode ? (countryNames.of(address.countryCode) ?? null) : null,
  countryCodeV2: address.countryCode,
})

export function orderView(ctx: RequestContext, order: OrderRecord) {
  const totals = orderTotals(order)
  const money = (minor: number) => moneyBag(minor, order.currency)
  return {
    __typename: 'Order',
    id: gid('Order', order.id),
    name: order.name,
    email: order.email,
    createdAt: order.createdAt,
    cancelledAt: order.cancelledAt,
    displayFinancialStatus: order.financialStatus,
    // The shop's currency, that of its prices; the customer paid in the presentment currency.
    currencyCode: ctx.shop.currency,
    presentmentCurrencyCode: order.currency,
    tags: order.tags,
    note: order.note,
    discountCodes: order.discountCodes,
    subtotalPriceSet: money(totals.subtotalMinor),
    totalDiscountsSet: money(totals.discountsMinor),
    totalTaxSet: money(order.taxMinor),
    totalShippingPriceSet: money(order.shippingMinor),
    totalPriceSet: money(totals.totalMinor),
    totalRefundedSet: money(totals.refundedMinor),
    shippingAddress: order.shippingAddress && addressView(order.shippingAddress),
    refunds: () =>
      order.refunds.map((refund) => ({
        __typename: 'Refund',
        id: refund.id,
        createdAt: refund.createdAt,
        totalRefundedSet: money(refund.amountMinor),
      })),
    lineItems: (args: PageArgs) =>
      connection(
        order.lines,
        args,
        (line) => {
          const found = line.variantId ? findVariant(ctx.shop, line.variantId) : undefined
          const originalTotalMinor = line.quantity * line.unitPriceMinor
          // Shopify's discountedTotalSet leaves order-level discounts out; their shares are
          // only in discountAllocations.
          const lineLevelMinor = line.discountAllocations
            .filter((allocation) => !allocation.orderLevel)
            .reduce((sum, allocation) => sum + allocation.amountMinor, 0)
          return {
            __typename: 'LineItem',
            id: line.id,
            title: line.title,
            quantity: line.quantity,
            currentQuantity: currentQuantity(line),
            variant: found ? variantView(ctx, found.product, found.variant) : null,
            image: line.imageUrl ? { url: line.imageUrl, altText: null } : null,
            originalUnitPriceSet: money(line.unitPriceMinor),
            originalTotalSet: money(originalTotalMinor),
            discountedTotalSet: money(originalTotalMinor - lineLevelMinor),
            totalDiscountSet: money(lineDiscountMinor(line)),
            discountAllocations: line.discountAllocations.map((allocation) => ({
              __typename: 'DiscountAllocation',
              allocatedAmountSet: money(allocation.amountMinor),
            })),
          }
        },
        ctx.bulk,
      ),
    metafield: (args: { namespace?: string | null; key: string }) =>
      metafieldOf(order.metafields, args),
  }
}

export const webhookView = (subscription: WebhookRecord) => ({
  __typename: 'WebhookSubscription',
  ...subscription,
  format: 'JSON',
})
