import { toMinorUnits } from '../../../domain/money'
import { orderGid, orderNumber } from './order-gid'
import { settleWithLimit } from '../../../lib/remote-call'
import {
  CommerceError,
  type CommerceAddress,
  type CommerceOrder,
  type CommercePort,
  type CreatorOrderHeader,
  type ReadOptions,
} from '../commerce-port'
import type { KeyAttempts } from './idempotency-keys'
import type { ShopifyApi } from './shopify-api'
import {
  BRAND_VARIANTS,
  CREATOR_ORDER,
  ORDER_CREATE,
  ORDER_FINANCIAL_STATUS,
  ORDER_HEADER,
  ORDER_MARK_AS_PAID,
  PAID_ORDERS,
  PRODUCTS_COUNT,
  RECENT_ORDERS,
} from './shopify-operations'
import { readProducts } from './shopify-products'
import { shopifyCatalog } from './shopify-catalog'
import { shopifyShipping } from './shopify-shipping'
import { shopifyRefunds } from './shopify-refunds'
import { shopifyRisk } from './shopify-risk'

// The commerce port on Shopify's Admin GraphQL API: each method one or a few of the documents in
// shopify-operations.ts, with Shopify's MoneyV2 decimal strings turned into minor units of the
// order's currency and its user errors into refusals.

/** Shopify's limit on the ids of one nodes(ids:) query. */
const NODES_PER_QUERY = 250

/** Creator shops asked at once for an order nobody has indexed yet. */
const CREATOR_SHOPS_ASKED_AT_ONCE = 8

/**
 * How far Shopify's clock may be behind ours: an order made just after Tandem recorded its intent
 * can carry a createdAt up to this much earlier. Generous, since it only costs a longer listing.
 */
const CLOCK_SKEW_MS = 5 * 60_000

/** How many times an order refunded while its pages are read is read again before giving up. */
const ORDER_READS_WHILE_REFUNDED = 3

interface Money {
  presentmentMoney: { amount: string; currencyCode: string }
}
interface OrderNode {
  id: string
  name: string
  email: string | null
  createdAt: string
  cancelledAt: string | null
  displayFinancialStatus: string | null
  presentmentCurrencyCode: string
  subtotalPriceSet: Money
  totalTaxSet: Money
  totalShippingPriceSet: Money
  totalPriceSet: Money
  totalRefundedSet: Money
  shippingAddress: {
    firstName: string | null
    lastName: string | null
    address1: string | null
    city: string | null
    zip: string | null
    countryCodeV2: string | null
  } | null
  paymentIntent: { value: string } | null
  lineItems: {
    nodes: {
      id: string
      title: string
      quantity: number
      currentQuantity: number
      image: { url: string } | null
      originalUnitPriceSet: Money
      discountAllocations: { allocatedAmountSet: Money }[]
      variant: { id: string } | null
    }[]
    pageInfo: { hasNextPage: boolean; endCursor: string | null }
  }
}
interface PageInfo {
  hasNextPage: boolean
  endCursor: string | null
}
interface OrderHeaderNode {
  id: string
  name: string
  createdAt: string
  presentmentCurrencyCode: string
  totalPriceSet: Money
}
interface UserError {
  message: string
}
interface RecentOrderNode {
  id: string
  name: string
  createdAt: string
  tags: string[]
}

/**
 * The creator orders Tandem knows of (kept in its database, by a repository): where
 * findCreatorOrder looks first, and what each order it finds updates.
 */
export interface CreatorOrderIndex {
  /** The creator shop the index says has the order; null when it knows of none. */
  shopOf(orderId: number): Promise<string | null>
  /** Every creator shop, by shop: where an order the index does not know is looked for. */
  creatorShops(): Promise<string[]>
  /** Records a sighting of the order. */
  remember(order: CreatorOrderHeader): Promise<void>
}

export function createShopifyCommerce(deps: {
  index: CreatorOrderIndex
  api: ShopifyApi
  /** The idempotency-key attempts Shopify refused, for the calls sent under a key. */
  keyAttempts: KeyAttempts
}): CommercePort {
  const { api, index, keyAttempts } = deps

  /**
   * The order as `shop` has it, every page of its lines, all as of one refund total: a refund made
   * between two pages changed lines already read, so the order is read again from its first page.
   * Null when the shop has no such order.
   */
  async function orderOf(
    shop: string,
    id: number,
    options: ReadOptions,
  ): Promise<CommerceOrder | null> {
    for (let attempt = 1; ; attempt++) {
      const read = await readOrderPages(shop, id, options)
      if (read !== 'refunded meanwhile') return read && orderFrom(shop, id, read.order, read.lines)
      if (attempt === ORDER_READS_WHILE_REFUNDED) {
        throw new Error(
          `Creator order ${id} of ${shop} was refunded again while its lines were read, ${attempt} times: try again once its refunds are done`,
        )
      }
    }
  }

  async function readOrderPages(shop: string, id: number, options: ReadOptions) {
    let order: OrderNode | null = null
    const lines: OrderNode['lineItems']['nodes'] = []
    for (let after: string | null = null; ;) {
      const page: { order: OrderNode | null } = await api.request(
        shop,
        CREATOR_ORDER,
        { id: orderGid(id), after },
        options,
      )
      if (!page.order) return null
      const refunded = page.order.totalRefundedSet.presentmentMoney.amount
      if (order && order.totalRefundedSet.presentmentMoney.amount !== refunded) {
        return 'refunded meanwhile'
      }
      order ??= page.order
      lines.push(...page.order.lineItems.nodes)
      if (!page.order.lineItems.pageInfo.hasNextPage) return { order, lines }
      after = page.order.lineItems.pageInfo.endCursor
    }
  }

  function orderFrom(
    shop: string,
    id: number,
    order: OrderNode,
    lines: OrderNode['lineItems']['nodes'],
  ): CommerceOrder {
    const currency = order.presentmentCurrencyCode
    const minor = (money: Money) => toMinorUnits(money.presentmentMoney.amount, currency)
    const address = order.shippingAddress
    return {
      id,
      name: order.name,
      email: order.email,
      createdAt: order.createdAt,
      storeShop: shop,
      financialStatus: order.displayFinancialStatus,
      cancelledAt: order.cancelledAt,
      currency,
      subtotalMinor: minor(order.subtotalPriceSet),
      taxMinor: minor(order.totalTaxSet),
      shippingMinor: minor(order.totalShippingPriceSet),
      totalMinor: minor(order.totalPriceSet),
      refundedMinor: minor(order.totalRefundedSet),
      shippingAddress: address && {
        firstName: address.firstName,
        lastName: address.lastName,
        address1: address.address1,
        city: address.city,
        zip: address.zip,
        country: address.countryCodeV2,
      },
      paymentIntentId: order.paymentIntent?.value.trim() || null,
      lines: lines.map((line) => {
        const unitPriceMinor = minor(line.originalUnitPriceSet)
        return {
          id: line.id,
          title: line.title,
          quantity: line.quantity,
          currentQuantity: line.currentQuantity,
          unitPriceMinor,
          originalTotalMinor: unitPriceMinor * line.quantity,
          discountMinor: line.discountAllocations.reduce(
            (sum, allocation) => sum + minor(allocation.allocatedAmountSet),
            0,
          ),
          imageUrl: line.image?.url ?? null,
          variantId: line.variant?.id ?? null,
        }
      }),
    }
  }

  /** Every sighting of a creator order keeps the index (and the orders inbox) up to date. */
  const remember = (order: CommerceOrder) =>
    index.remember({
      id: order.id,
      storeShop: order.storeShop,
      name: order.name,
      createdAt: order.createdAt,
      currency: order.currency,
      totalMinor: order.totalMinor,
    })

  return {
    async countProducts(shop) {
      const answer: { productsCount: { count: number } | null } = await api.request(
        shop,
        PRODUCTS_COUNT,
      )
      return answer.productsCount?.count ?? 0
    },

    readProducts: (shop, reading) => readProducts(api, shop, reading),

    ...shopifyRefunds(api, keyAttempts),
    ...shopifyRisk(api),

    ...shopifyCatalog(api, keyAttempts),
    ...shopifyShipping(api),

    async readPaidOrders(shop, take) {
      for (let after: string | null = null; ;) {
        const page: { orders: { nodes: OrderHeaderNode[]; pageInfo: PageInfo } } =
          await api.request(shop, PAID_ORDERS, { after })
        const more = await take(page.orders.nodes.flatMap((order) => headerOf(shop, order)))
        if (!more || !page.orders.pageInfo.hasNextPage) return
        after = page.orders.pageInfo.endCursor
      }
    },

    async findCreatorOrder(orderId, options = {}) {
      const indexedShop = await index.shopOf(orderId)
      if (indexedShop) {
        const order = await orderOf(indexedShop, orderId, options)
        if (order) {
          await remember(order)
          return order
        }
      }
      // Order ids are unique across Shopify: the one creator shop that has it answers it.
      const creators = await index.creatorShops()
      let found: CommerceOrder | null = null
      const asked = await settleWithLimit(creators, CREATOR_SHOPS_ASKED_AT_ONCE, async (shop) => {
        if (found) return
        const order = await orderOf(shop, orderId, options)
        if (order) found ??= order
      })
      if (found) {
        const hit: CommerceOrder = found
        await remember(hit)
        return hit
      }
      const failure = asked.find((result) => result.status === 'rejected')
      // Not found is only an answer when every creator shop answered.
      if (failure) throw failure.reason
      return null
    },

    async findOrderInShop(shop, orderId) {
      const answer: { order: OrderHeaderNode | null } = await api.request(shop, ORDER_HEADER, {
        id: orderGid(orderId),
      })
      return answer.order && headerFrom(shop, orderId, answer.order)
    },

    async readBrandVariants(shop, variantIds, options) {
      const pages: {
        shop: { currencyCode: string }
        nodes: ({ id?: string; price?: string; product?: { status: string } } | null)[]
      }[] = []
      // At least one query, which also says the shop's currency.
      let at = 0
      do {
        const ids = variantIds.slice(at, at + NODES_PER_QUERY)
        pages.push(await api.request(shop, BRAND_VARIANTS, { ids }, options))
        at += NODES_PER_QUERY
      } while (at < variantIds.length)
      const currency = pages[0]!.shop.currencyCode
      const variants = new Map<string, { priceMinor: number; productStatus: string }>()
      for (const node of pages.flatMap((page) => page.nodes)) {
        // A missing variant answers null, another type's id an empty object: neither is sold.
        if (!node?.id || node.price === undefined || !node.product) continue
        variants.set(node.id, {
          priceMinor: toMinorUnits(node.price, currency),
          productStatus: node.product.status,
        })
      }
      return { currency, variants }
    },

    async createOrder(shop, input, options) {
      const address: CommerceAddress | null = input.shippingAddress
      const answer: {
        orderCreate: { order: { id: string; name: string } | null; userErrors: UserError[] }
      } = await api.request(
        shop,
        ORDER_CREATE,
        {
          order: {
            currency: input.currency,
            ...(input.email ? { email: input.email } : {}),
            lineItems: input.lines.map((line) => ({
              variantId: line.variantId,
              quantity: line.quantity,
            })),
            ...(address
              ? {
                  shippingAddress: {
                    firstName: address.firstName,
                    lastName: address.lastName,
                    address1: address.address1,
                    city: address.city,
                    zip: address.zip,
                    countryCode: address.country,
                  },
                }
              : {}),
            tags: input.tags,
            note: input.note,
          },
          options: {
            inventoryBehaviour: input.inventoryBehaviour,
            sendReceipt: false,
            sendFulfillmentReceipt: false,
          },
        },
        options,
      )
      const { order, userErrors } = answer.orderCreate
      if (!order) throw refusal(`Shopify refused the order in ${shop}`, userErrors)
      return order
    },

    async markOrderAsPaid(shop, orderId, options) {
      const answer: { orderMarkAsPaid: { userErrors: UserError[] } } = await api.request(
        shop,
        ORDER_MARK_AS_PAID,
        { input: { id: orderId } },
        options,
      )
      const { userErrors } = answer.orderMarkAsPaid
      if (userErrors.length > 0)
        throw refusal(`Shopify refused to mark ${orderId} as paid`, userErrors)
    },

    async findOrderByTag(shop, tag, since) {
      // Newest first, until the orders are older than the intent could have made.
      const oldest = Date.parse(since) - CLOCK_SKEW_MS
      for (let after: string | null = null; ;) {
        const page: { orders: { nodes: RecentOrderNode[]; pageInfo: PageInfo } } =
          await api.request(shop, RECENT_ORDERS, { after })
        const match = page.orders.nodes.find((node) => node.tags.includes(tag))
        if (match) return { id: match.id, name: match.name }
        const last = page.orders.nodes.at(-1)
        if (!last || Date.parse(last.createdAt) < oldest || !page.orders.pageInfo.hasNextPage)
          return null
        after = page.orders.pageInfo.endCursor
      }
    },

    async orderFinancialStatus(shop, orderId) {
      const answer: { order: { displayFinancialStatus: string | null } | null } = await api.request(
        shop,
        ORDER_FINANCIAL_STATUS,
        { id: orderId },
      )
      if (!answer.order) throw new CommerceError(`Order ${orderId} does not exist in ${shop}`)
      return answer.order.displayFinancialStatus ?? 'PENDING'
    },
  }
}

function refusal(what: string, userErrors: UserError[]): CommerceError {
  const reasons = userErrors.map((error) => error.message).join('; ')
  return new CommerceError(reasons ? `${what}: ${reasons}` : what)
}

/** The order `id` of `shop` as the index keeps it; throws when its total cannot be read. */
function headerFrom(shop: string, id: number, order: OrderHeaderNode): CreatorOrderHeader {
  const currency = order.presentmentCurrencyCode
  const totalMinor = toMinorUnits(order.totalPriceSet.presentmentMoney.amount, currency)
  return { id, storeShop: shop, name: order.name, createdAt: order.createdAt, currency, totalMinor }
}

/** A listed order as the index keeps it; none for one whose id or money cannot be read. */
function headerOf(shop: string, order: OrderHeaderNode): CreatorOrderHeader[] {
  const id = orderNumber(order.id)
  if (id === null) return []
  try {
    return [headerFrom(shop, id, order)]
  } catch {
    return []
  }
}
