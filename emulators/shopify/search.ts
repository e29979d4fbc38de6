import type { OrderRecord, ProductRecord, VariantRecord } from './state'

// Shopify's search syntax (https://shopify.dev/docs/api/usage/search-syntax), as far as Tandem
// uses it: space-separated terms that must all match, each `field:value`, `field:'quoted value'`
// or a bare word; a field may compare with `:<`, `:>`, `:<=` or `:>=` instead of `:`. Fields Shopify
// knows but the emulator does not are ignored, as Shopify ignores an unknown filter (with a
// warning) rather than failing.

type Comparator = ':' | ':<' | ':>' | ':<=' | ':>='

interface Term {
  field: string | null
  comparator: Comparator
  value: string
  quoted: boolean
}

function parseSearch(query: string | null | undefined): Term[] {
  const terms: Term[] = []
  const pattern = /(?:(\w+)(:<=|:>=|:<|:>|:))?(?:'([^']*)'|"([^"]*)"|(\S+))/g
  for (const match of (query ?? '').matchAll(pattern)) {
    const quoted = match[3] ?? match[4]
    terms.push({
      field: match[1] ?? null,
      comparator: (match[2] ?? ':') as Comparator,
      value: quoted ?? match[5] ?? '',
      quoted: quoted !== undefined,
    })
  }
  return terms
}

/**
 * A date field compared with the term's moment. "Date values must be a string surrounded by
 * quotes" (the syntax's terminal symbols): an unquoted or unreadable one matches nothing, so that
 * a query Shopify would not read as a date finds nothing here either.
 */
function dateMatches(at: string, { comparator, value, quoted }: Term): boolean {
  const moment = Date.parse(value)
  if (!quoted || Number.isNaN(moment)) return false
  const time = Date.parse(at)
  switch (comparator) {
    case ':<':
      return time < moment
    case ':>':
      return time > moment
    case ':<=':
      return time <= moment
    case ':>=':
      return time >= moment
    default:
      return time === moment
  }
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

function orderMatches(order: OrderRecord, term: Term): boolean {
  const { field, value } = term
  switch (field) {
    case 'created_at':
      return dateMatches(order.createdAt, term)
    case 'updated_at':
      return dateMatches(order.updatedAt, term)
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
