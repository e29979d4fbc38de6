import { createInterface } from 'node:readline'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { toMinorUnits } from '../../../domain/money'
import { CommerceError, type CommerceProduct, type ProductReading } from '../commerce-port'
import type { ShopifyApi } from './shopify-api'

// Reading a shop's products: pages of PAGE_SIZE for a small shop; for a large one a bulk
// operation, which Shopify runs on its side (free of the rate limit) and hands over as a JSONL
// file, read here a line at a time so that memory stays flat whatever the shop's size.

/** Above this many products a shop is read in bulk (docs/integrations.md "Shopify"). */
export const BULK_THRESHOLD = 2_000
/**
 * A product costs 7 points (itself, variantsCount, priceRangeV2 and its MoneyV2, featuredMedia,
 * its preview and image), a page 2 more: 142 is the most that stays within Shopify's 1,000-point
 * limit for a single query.
 */
export const PAGE_SIZE = 142
/** Products handed to the store at once while a bulk file is read. */
const BULK_BATCH = 500
/**
 * A running operation is asked about after a tenth of the time it has run so far, within these
 * bounds: a short one is seen done soon after, a long one is not asked about needlessly often.
 */
const BULK_POLL_MS = { least: 50, most: 5_000 }

const PRODUCT_FIELDS = `id title status variantsCount { count } priceRangeV2 { minVariantPrice { amount currencyCode } } featuredMedia { preview { image { url } } } updatedAt`

const PRODUCTS_PAGE = /* GraphQL */ `
  query ProductsPage($after: String) {
    products(first: ${PAGE_SIZE}, after: $after) {
      nodes { ${PRODUCT_FIELDS} }
      pageInfo { hasNextPage endCursor }
    }
  }
`

const BULK_PRODUCTS_QUERY = `{ products { edges { node { ${PRODUCT_FIELDS} } } } }`

const BULK_RUN = /* GraphQL */ `
  mutation BulkProducts($query: String!) {
    bulkOperationRunQuery(query: $query) {
      bulkOperation {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }
`

const BULK_STATUS = /* GraphQL */ `
  query BulkStatus($id: ID!) {
    node(id: $id) {
      ... on BulkOperation {
        id
        status
        errorCode
        objectCount
        url
      }
    }
  }
`

interface ProductNode {
  id: string
  title: string
  status: CommerceProduct['status']
  variantsCount: { count: number } | null
  priceRangeV2: { minVariantPrice: { amount: string; currencyCode: string } }
  featuredMedia: { preview: { image: { url: string } | null } | null } | null
  updatedAt: string
}

interface BulkOperation {
  id: string
  status: string
  errorCode: string | null
  objectCount: string
  url: string | null
}

const toProduct = (node: ProductNode): CommerceProduct => {
  const { amount, currencyCode } = node.priceRangeV2.minVariantPrice
  return {
    id: node.id,
    title: node.title,
    status: node.status,
    variantCount: node.variantsCount?.count ?? 0,
    minPriceMinor: toMinorUnits(amount, currencyCode),
    currency: currencyCode,
    imageUrl: node.featuredMedia?.preview?.image?.url ?? null,
    updatedAt: node.updatedAt,
  }
}

export async function readProducts(api: ShopifyApi, shop: string, reading: ProductReading) {
  if (reading.total > BULK_THRESHOLD) return readInBulk(api, shop, reading)
  let fetched = 0
  for (let after: string | null = null; ;) {
    const page: {
      products: { nodes: ProductNode[]; pageInfo: { hasNextPage: boolean; endCursor: string } }
    } = await api.request(shop, PRODUCTS_PAGE, { after })
    await reading.take(page.products.nodes.map(toProduct))
    fetched += page.products.nodes.length
    await reading.onProgress(fetched)
    if (!page.products.pageInfo.hasNextPage) return
    after = page.products.pageInfo.endCursor
  }
}

async function readInBulk(api: ShopifyApi, shop: string, reading: ProductReading) {
  const started = performance.now()
  let operation = await startBulk(api, shop)
  while (operation.status === 'CREATED' || operation.status === 'RUNNING') {
    await reading.onProgress(Number(operation.objectCount))
    const running = performance.now() - started
    await sleep(Math.min(BULK_POLL_MS.most, Math.max(BULK_POLL_MS.least, running / 10)))
    const answer: { node: BulkOperation | null } = await api.request(shop, BULK_STATUS, {
      id: operation.id,
    })
    if (!answer.node) throw new CommerceError(`Shopify lost the bulk operation ${operation.id}`)
    operation = answer.node
  }
  if (operation.status !== 'COMPLETED') {
    const reason = operation.errorCode ?? operation.status
    throw new CommerceError(`Shopify's bulk reading of ${shop}'s products failed: ${reason}`)
  }
  // A shop without products has no file.
  if (!operation.url) return
  const file = await fetch(operation.url, { signal: AbortSignal.timeout(10 * 60_000) })
  if (!file.ok || !file.body) {
    throw new CommerceError(`The bulk file of ${shop}'s products could not be read: ${file.status}`)
  }
  // Shopify counted what it read while it ran; reading its file adds nothing to show.
  let batch: CommerceProduct[] = []
  let taken = 0
  const lines = createInterface({ input: Readable.fromWeb(file.body), crlfDelay: Infinity })
  for await (const line of lines) {
    if (!line.trim()) continue
    batch.push(toProduct(JSON.parse(line) as ProductNode))
    if (batch.length === BULK_BATCH) {
      await reading.take(batch)
      taken += batch.length
      batch = []
    }
  }
  await reading.take(batch)
  await reading.onProgress(taken + batch.length)
}

/**
 * Starts the bulk reading. Shopify runs several of an app's bulk queries at once (five since API
 * 2026-01), and one sync runs per store (products/product-sync.ts), so nothing is joined here.
 */
async function startBulk(api: ShopifyApi, shop: string): Promise<BulkOperation> {
  const started: {
    bulkOperationRunQuery: {
      bulkOperation: { id: string; status: string } | null
      userErrors: { message: string }[]
    }
  } = await api.request(shop, BULK_RUN, { query: BULK_PRODUCTS_QUERY })
  const { bulkOperation, userErrors } = started.bulkOperationRunQuery
  if (bulkOperation) return { ...bulkOperation, errorCode: null, objectCount: '0', url: null }
  const reasons = userErrors.map((error) => error.message).join('; ')
  throw new CommerceError(`Shopify refused to read ${shop}'s products in bulk: ${reasons}`)
}
