import { formatMinorUnits, toMinorUnits } from '../../../domain/money'
import {
  ProductRefused,
  type CatalogPort,
  type CatalogProduct,
  type SelectedOption,
} from '../catalog-port'
import { CommerceError } from '../commerce-port'
import { underLiveKey, type KeyAttempts } from './idempotency-keys'
import type { ShopifyApi } from './shopify-api'

// The catalogue part of the commerce port on Shopify's Admin GraphQL API: a brand product read
// whole, a creator product written whole by productSet (and its status and prices read back), and
// a creator's stock set by inventorySetQuantities.

/** The variants a listing copies: more is refused rather than copied in part. */
export const LISTED_VARIANTS_MAX = 250
const LISTED_IMAGES_MAX = 20

const CATALOG_PRODUCT = /* GraphQL */ `
  query CatalogProduct($id: ID!) {
    shop {
      currencyCode
    }
    product(id: $id) {
      id
      title
      descriptionHtml
      vendor
      status
      updatedAt
      options {
        name
        optionValues {
          name
        }
      }
      media(first: ${LISTED_IMAGES_MAX}) {
        nodes {
          mediaContentType
          alt
          ... on MediaImage {
            image {
              url
            }
          }
        }
      }
      variants(first: ${LISTED_VARIANTS_MAX}) {
        nodes {
          id
          sku
          price
          inventoryQuantity
          selectedOptions {
            name
            value
          }
          inventoryItem {
            id
          }
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  }
`

/**
 * Only what the listing sync compares, for no more variants than it wrote: a few points of the
 * creator's own cost budget per sync (a connection costs 2 + first × its node).
 */
const CREATOR_PRODUCT = /* GraphQL */ `
  query CreatorProduct($id: ID!, $variants: Int!) {
    shop {
      currencyCode
    }
    product(id: $id) {
      status
      variants(first: $variants) {
        nodes {
          id
          price
        }
      }
    }
  }
`

const STOCK_PLACE = /* GraphQL */ `
  query StockPlace {
    shop {
      currencyCode
    }
    locations(first: 1) {
      nodes {
        id
      }
    }
  }
`

const PRODUCT_SET = /* GraphQL */ `
  mutation ListProduct($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(synchronous: true, identifier: $identifier, input: $input) {
      product {
        id
        createdAt
        variants(first: ${LISTED_VARIANTS_MAX}) {
          nodes {
            id
            selectedOptions {
              name
              value
            }
            inventoryItem {
              id
            }
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`

const SET_STOCK = /* GraphQL */ `
  mutation SetStock($input: InventorySetQuantitiesInput!, $key: String!) {
    inventorySetQuantities(input: $input) @idempotent(key: $key) {
      inventoryAdjustmentGroup {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`

interface UserError {
  field: string[] | null
  message: string
  code: string | null
}

interface VariantNode {
  id: string
  sku: string | null
  price: string
  inventoryQuantity: number | null
  selectedOptions: SelectedOption[]
  inventoryItem: { id: string }
}

interface ProductNode {
  id: string
  title: string
  descriptionHtml: string
  vendor: string | null
  status: string
  updatedAt: string
  options: { name: string; optionValues: { name: string }[] }[]
  media: { nodes: { mediaContentType: string; alt: string | null; image?: { url: string } }[] }
  variants: { nodes: VariantNode[]; pageInfo: { hasNextPage: boolean } }
}

const refused = (errors: UserError[]) =>
  new ProductRefused(
    errors.map((error) => ({ code: error.code, field: error.field, message: error.message })),
  )

export function shopifyCatalog(api: ShopifyApi, attempts: KeyAttempts): CatalogPort {
  return {
    async readCatalogProduct(shop, productId): Promise<CatalogProduct | null> {
      const answer: { shop: { currencyCode: string }; product: ProductNode | null } =
        await api.request(shop, CATALOG_PRODUCT, { id: productId })
      const product = answer.product
      if (!product) return null
      if (product.variants.pageInfo.hasNextPage) {
        throw new ProductRefused([
          {
            code: 'TOO_MANY_VARIANTS',
            field: null,
            message: `${product.title} has more than ${LISTED_VARIANTS_MAX} variants`,
          },
        ])
      }
      const currency = answer.shop.currencyCode
      return {
        id: product.id,
        title: product.title,
        descriptionHtml: product.descriptionHtml,
        vendor: product.vendor,
        status: product.status,
        updatedAt: product.updatedAt,
        currency,
        options: product.options.map((option) => ({
          name: option.name,
          values: option.optionValues.map((value) => value.name),
        })),
        // Only images are copied: videos and 3D models would need their files uploaded again.
        images: product.media.nodes.flatMap((media) =>
          media.mediaContentType === 'IMAGE' && media.image
            ? [{ url: media.image.url, altText: media.alt }]
            : [],
        ),
        variants: product.variants.nodes.map((variant) => ({
          id: variant.id,
          sku: variant.sku,
          priceMinor: toMinorUnits(variant.price, currency),
          selectedOptions: variant.selectedOptions,
          // Shopify answers null for a variant whose stock it does not track: none to promise.
          available: Math.max(0, variant.inventoryQuantity ?? 0),
          inventoryItemId: variant.inventoryItem.id,
        })),
      }
    },

    async readCreatorProduct(shop, productId, variants) {
      const answer: {
        shop: { currencyCode: string }
        product: { status: string; variants: { nodes: { id: string; price: string }[] } } | null
      } = await api.request(shop, CREATOR_PRODUCT, {
        id: productId,
        variants: Math.min(Math.max(variants, 1), LISTED_VARIANTS_MAX),
      })
      if (!answer.product) return null
      const currency = answer.shop.currencyCode
      return {
        status: answer.product.status,
        variants: answer.product.variants.nodes.map((variant) => ({
          id: variant.id,
          priceMinor: toMinorUnits(variant.price, currency),
        })),
      }
    },

    async stockPlace(shop) {
      const answer: { shop: { currencyCode: string }; locations: { nodes: { id: string }[] } } =
        await api.request(shop, STOCK_PLACE)
      const location = answer.locations.nodes[0]
      if (!location) throw new CommerceError(`${shop} has no location to keep stock at`)
      return { currency: answer.shop.currencyCode, locationId: location.id }
    },

    async setCreatorProduct(shop, input, options) {
      const answer: {
        productSet: {
          product: {
            id: string
            createdAt: string
            variants: {
              nodes: {
                id: string
                selectedOptions: SelectedOption[]
                inventoryItem: { id: string }
              }[]
            }
          } | null
          userErrors: UserError[]
        }
      } = await api.request(
        shop,
        PRODUCT_SET,
        {
          identifier: input.identifier,
          input: {
            handle: input.handle,
            title: input.title,
            descriptionHtml: input.descriptionHtml,
            ...(input.vendor ? { vendor: input.vendor } : {}),
            status: input.status,
            productOptions: input.options.map((option) => ({
              name: option.name,
              values: option.values.map((name) => ({ name })),
            })),
            ...(input.images
              ? {
                  files: input.images.map((image) => ({
                    originalSource: image.url,
                    contentType: 'IMAGE',
                    ...(image.altText ? { alt: image.altText } : {}),
                  })),
                }
              : {}),
            variants: input.variants.map((variant) => ({
              ...(variant.id ? { id: variant.id } : {}),
              optionValues: variant.selectedOptions.map((option) => ({
                optionName: option.name,
                name: option.value,
              })),
              price: formatMinorUnits(variant.priceMinor, input.currency),
              ...(variant.sku ? { sku: variant.sku } : {}),
              inventoryPolicy: 'DENY',
              inventoryItem: { tracked: true },
              ...(variant.initialStock === null
                ? {}
                : {
                    inventoryQuantities: [
                      {
                        locationId: input.locationId,
                        name: 'available',
                        quantity: variant.initialStock,
                      },
                    ],
                  }),
            })),
          },
        },
        options,
      )
      const { product, userErrors } = answer.productSet
      if (userErrors.length > 0 || !product) throw refused(userErrors)
      return {
        id: product.id,
        createdAt: product.createdAt,
        variants: product.variants.nodes.map((variant) => ({
          id: variant.id,
          selectedOptions: variant.selectedOptions,
          inventoryItemId: variant.inventoryItem.id,
        })),
      }
    },

    // A refused key is refused for good: the write goes on under the key with an attempt number
    // (idempotency-keys.ts). A refusal is the stock's (ProductRefused), for the listing to fail
    // with, its next write going on past the refused key; a call still under way under the key
    // (IDEMPOTENCY_CONCURRENT_REQUEST) has no outcome yet, and is retried under the same key.
    async setStock(shop, levels, idempotencyKey, options) {
      if (levels.length === 0) return
      const send = (key: string) =>
        api.request<{ inventorySetQuantities: { userErrors: UserError[] } }>(
          shop,
          SET_STOCK,
          {
            input: {
              name: 'available',
              reason: 'correction',
              referenceDocumentUri: `tandem://stock/${idempotencyKey}`,
              // Tandem is the source of these quantities: it sets them whatever the shop had.
              quantities: levels.map((level) => ({ ...level, changeFromQuantity: null })),
            },
            key,
          },
          options,
        )
      const answer = await underLiveKey(
        { attempts, shop, key: idempotencyKey },
        send,
        (sent) => sent.inventorySetQuantities.userErrors,
      )
      const { userErrors } = answer.inventorySetQuantities
      if (userErrors.some((error) => error.code === 'IDEMPOTENCY_CONCURRENT_REQUEST')) {
        throw new CommerceError(`Shopify is still setting the stock in ${shop} under this key`)
      }
      if (userErrors.length > 0) throw refused(userErrors)
    },
  }
}
