import { GraphQLError } from 'graphql'
import { reachOf } from './access'
import { connection, type PageArgs } from './connection'
import type { RequestContext } from './context'
import { findFulfillment, findFulfillmentOrder } from './fulfillments'
import { findOrder } from './orders'
import { searchOrders, searchProducts, searchVariants } from './search'
import { findVariant, gid, shopLocations, type OrderRecord, type ProductRecord } from './state'
import { fulfillmentOrderView, fulfillmentView, orderView, refundView } from './order-views'
import { productView, locationView, shopView, variantView, webhookView } from './views'

// The Query root: every field reads the shop the request is addressed to. Arguments arrive coerced
// by graphql-js, schema defaults applied, so enum arguments hold one of the schema's values.

interface ListArgs extends PageArgs {
  query?: string | null
  reverse: boolean
}

/** Shopify's limit on the ids of one nodes(ids:) query. */
const MAX_NODES = 250

const numericId = (id: string) => Number(id.slice(id.lastIndexOf('/') + 1))

function sorted<T>(items: T[], key: (item: T) => string | number, reverse: boolean): T[] {
  const order = reverse ? -1 : 1
  return [...items].sort((a, b) => (key(a) < key(b) ? -order : key(a) > key(b) ? order : 0))
}

const productSortKeys = {
  ID: (product: ProductRecord) => numericId(product.id),
  TITLE: (product: ProductRecord) => product.title,
  UPDATED_AT: (product: ProductRecord) => product.updatedAt,
}

const orderSortKeys = {
  ID: (order: OrderRecord) => order.id,
  CREATED_AT: (order: OrderRecord) => order.createdAt,
  UPDATED_AT: (order: OrderRecord) => order.updatedAt,
}

/** Without read_all_orders an app sees only the orders of the last 60 days (Shopify's Order docs). */
const ORDER_WINDOW_MS = 60 * 24 * 60 * 60 * 1000

/** Shopify refuses a malformed id outright, while a well-formed unknown one is just null. */
function checkedGid(id: string): string {
  if (!/^gid:\/\/shopify\/[A-Za-z]+\/\d+/.test(id))
    throw new GraphQLError(`Invalid global id '${id}'`)
  return id
}

export function queryRoot(ctx: RequestContext) {
  const { shop, runtime } = ctx
  const allOrders = ctx.scopes.includes('read_all_orders')
  const visible = (o: OrderRecord) =>
    allOrders || Date.parse(o.createdAt) >= Date.now() - ORDER_WINDOW_MS

  const order = ({ id }: { id: string }) => {
    const found = findOrder(shop, checkedGid(id))
    return found && visible(found) ? orderView(ctx, found) : null
  }

  const product = ({ id }: { id: string }) => {
    const found = shop.products.find((candidate) => candidate.id === checkedGid(id))
    return found ? productView(ctx, found) : null
  }

  const variant = ({ id }: { id: string }) => {
    const found = findVariant(shop, checkedGid(id))
    return found ? variantView(ctx, found.product, found.variant) : null
  }

  // A refund is a Node (Refund object, Admin GraphQL 2026-10), seen as its order is.
  const refund = ({ id }: { id: string }) => {
    const found = shop.orders.find((o) => visible(o) && o.refunds.some((r) => r.id === id))
    const record = found?.refunds.find((r) => r.id === id)
    return found && record ? refundView(ctx, found, record) : null
  }

  const node = (id: string) => {
    const lookups: Record<string, (args: { id: string }) => unknown> = {
      BulkOperation: () => runtime.bulk.find(shop, id),
      Order: order,
      Product: product,
      ProductVariant: variant,
      Refund: refund,
    }
    const type = /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(checkedGid(id))?.[1] ?? ''
    return lookups[type]?.({ id }) ?? null
  }

  return {
    shop: () => shopView(shop),
    currentAppInstallation: () => ({
      id: gid('AppInstallation', shop.numericId),
      accessScopes: ctx.scopes.map((handle) => ({ handle, description: handle })),
    }),
    // Shopify caps counts at `limit` (10,000 unless told otherwise; null for an exact count).
    productsCount: ({ query, limit }: { query?: string | null; limit: number | null }) => {
      const count = searchProducts(shop.products, query).length
      const capped = limit !== null && count > limit
      return { count: capped ? limit : count, precision: capped ? 'AT_LEAST' : 'EXACT' }
    },
    products: (args: ListArgs & { sortKey: keyof typeof productSortKeys }) => {
      const found = searchProducts(shop.products, args.query)
      const ordered = sorted(found, productSortKeys[args.sortKey], args.reverse)
      return connection(ordered, args, (p) => productView(ctx, p), ctx.bulk)
    },
    product,
    productOperation: ({ id }: { id: string }) =>
      runtime.productSetOperations.view(ctx, checkedGid(id)),
    // The shop's own location first, then its fulfillment services' (a 3PL's warehouse).
    locations: (args: PageArgs) =>
      connection(shopLocations(shop), args, (location) => locationView(shop, location), ctx.bulk),
    productVariants: (args: PageArgs & { query?: string | null }) =>
      connection(
        searchVariants(shop.products, args.query),
        args,
        ({ product, variant }) => variantView(ctx, product, variant),
        ctx.bulk,
      ),
    order,
    orders: (args: ListArgs & { sortKey: keyof typeof orderSortKeys }) => {
      // Orders reach the search index a little after they are created; a listing without a
      // query reads the orders themselves and sees them at once.
      const now = Date.now()
      const inWindow = shop.orders.filter(visible)
      const indexed = args.query
        ? inWindow.filter((o) => (runtime.searchableAt.get(o.id) ?? 0) <= now)
        : inWindow
      const found = searchOrders(indexed, args.query)
      const ordered = sorted(found, orderSortKeys[args.sortKey], args.reverse)
      return connection(ordered, args, (o) => orderView(ctx, o), ctx.bulk)
    },
    fulfillment: ({ id }: { id: string }) => {
      const found = findFulfillment(shop, checkedGid(id), reachOf(ctx.scopes, 'read'))
      return found ? fulfillmentView(ctx, found.order, found.fulfillment) : null
    },
    fulfillmentOrder: ({ id }: { id: string }) => {
      const found = findFulfillmentOrder(shop, checkedGid(id), reachOf(ctx.scopes, 'read'))
      return found ? fulfillmentOrderView(ctx, found.order, found.fulfillmentOrder) : null
    },
    job: ({ id }: { id: string }) => runtime.cancelJobs.view(id),
    currentBulkOperation: ({ type }: { type: string }) => runtime.bulk.current(shop, type),
    node: ({ id }: { id: string }) => node(id),
    nodes: ({ ids }: { ids: string[] }) => {
      if (ids.length > MAX_NODES) {
        throw new GraphQLError(`The ids argument accepts at most ${MAX_NODES} ids.`)
      }
      return ids.map(node)
    },
    webhookSubscriptions: (args: PageArgs & { topics?: string[] | null }) =>
      connection(
        shop.webhooks.filter((w) => !args.topics || args.topics.includes(w.topic)),
        args,
        webhookView,
        ctx.bulk,
      ),
  }
}
