import type { OrderRecord, ProductRecord, VariantRecord } from './state'

// Shopify's search syntax, as far as Tandem uses it: space-separated terms that must all match,
// each `field:value`, `field:'quoted value'` or a bare word. Fields Shopify knows but the emulator
// does not are ignored, as Shopify ignores an unknown filter (with a warning) rather than failing.

interface Term {
  field: string | null
  value: string
}

function parseSearch(query: string | null | undefined): Term[] {
  const terms: Term[] = []
  for (const match of (query ?? '').matchAll(/(?:(\w+):)?(?:'([^']*)'|"([^"]*)"|(\S+))/g)) {
    terms.push({ field: match[1] ?? null, value: match[2] ?? match[3] ?? match[4] ?? '' })
  }
  return terms
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

function orderMatches(order: OrderRecord, { field, value }: Term): boolean {
  switch (field) {
    case 'tag':
      // A whole tag, case-insensitively: tag:tandem does not find 'tandem-transfer-1001'.
      return order.tags.some((tag) => same(tag, value))
    case 'name':
      return same(order.name, value.startsWith('#') ? value : `#${value}`)
    case 'id':
      return String(order.id) === value
    case 'email':
      return same(order.email ?? '', value)
    case 'financial_status':
      return same(order.financialStatus, value)
    case null:
      return same(order.name, value) || same(order.email ?? '', value)
    default:
      return true
  }
}

function productMatches(product: ProductRecord, { field, value }: Term): boolean {
  switch (field) {
    case 'title':
      return product.title.toLowerCase().includes(value.toLowerCase())
    case 'status':
      return same(product.status, value)
    case 'handle':
      return product.handle === value
    case null:
      return product.title.toLowerCase().includes(value.toLowerCase())
    default:
      return true
  }
}

function variantMatches(variant: VariantRecord, product: ProductRecord, term: Term): boolean {
  switch (term.field) {
    case 'sku':
      return variant.sku === term.value
    case 'product_id':
      return product.id.endsWith(`/${term.value}`)
    default:
      return productMatches(product, term)
  }
}

export const searchOrders = (orders: OrderRecord[], query: string | null | undefined) => {
  const terms = parseSearch(query)
  return orders.filter((order) => terms.every((term) => orderMatches(order, term)))
}

export const searchProducts = (products: ProductRecord[], query: string | null | undefined) => {
  const terms = parseSearch(query)
  return products.filter((product) => terms.every((term) => productMatches(product, term)))
}

export function searchVariants(products: ProductRecord[], query: string | null | undefined) {
  const terms = parseSearch(query)
  return products.flatMap((product) =>
    product.variants
      .filter((variant) => terms.every((term) => variantMatches(variant, product, term)))
      .map((variant) => ({ id: variant.id, product, variant })),
  )
}
