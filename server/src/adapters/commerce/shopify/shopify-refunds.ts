import {
  CommerceError,
  type BrandOrderState,
  type ChangedOrder,
  type CommercePort,
  type CreatorRefund,
} from '../commerce-port'
import { toMinorUnits } from '../../../domain/money'
import { underLiveKey } from './idempotency-keys'
import { orderGid, orderNumber } from './order-gid'
import type { ShopifyApi } from './shopify-api'
import {
  BRAND_ORDER_LINES,
  ORDER_CANCEL,
  ORDER_REFUNDS,
  ORDERS_CHANGED_SINCE,
  REFUND_CREATE,
  REFUND_LINES,
} from './shopify-operations'

// What a refund of a creator order reads of it, and does to its brands' orders (refundCreate,
// orderCancel): the commerce port's after-the-sale part, on Shopify's Admin GraphQL API.

interface BrandOrderNode {
  cancelledAt: string | null
  lineItems: {
    nodes: { id: string; currentQuantity: number; variant: { id: string } | null }[]
    pageInfo: { hasNextPage: boolean; endCursor: string | null }
  }
}

interface ChangedOrderNode {
  id: string
  updatedAt: string
  cancelledAt: string | null
  refunds: { id: string }[]
}

interface PageInfo {
  hasNextPage: boolean
  endCursor: string | null
}

/** An order as the catch-up reads it; none for one whose id is not an order's. */
function changedOrder(node: ChangedOrderNode): ChangedOrder[] {
  const id = orderNumber(node.id)
  if (id === null) return []
  const refundedOrCancelled = node.cancelledAt !== null || node.refunds.length > 0
  return [{ id, updatedAt: node.updatedAt, refundedOrCancelled }]
}

/** As many refunds as ORDER_REFUNDS asks for: a list this long may have been cut short. */
const MOST_REFUNDS = 250

interface MoneyBag {
  presentmentMoney: { amount: string; currencyCode: string }
}

interface RefundLinesPage {
  node: {
    refundShippingLines?: { nodes: { subtotalAmountSet: MoneyBag; taxAmountSet: MoneyBag }[] }
    refundLineItems?: {
      nodes: {
        lineItem: { id: string }
        quantity: number
        restocked: boolean
        subtotalSet: MoneyBag
        totalTaxSet: MoneyBag
      }[]
      pageInfo: PageInfo
    }
  } | null
}

/** An amount of the order's presentment currency, in its minor units. */
const minorOf = (money: MoneyBag) =>
  toMinorUnits(money.presentmentMoney.amount, money.presentmentMoney.currencyCode)

interface Refusals {
  userErrors?: { message: string }[]
  orderCancelUserErrors?: { message: string }[]
}

function refused(what: string, answer: Refusals) {
  const errors = [...(answer.userErrors ?? []), ...(answer.orderCancelUserErrors ?? [])]
  if (errors.length === 0) return
  throw new CommerceError(`${what}: ${errors.map((error) => error.message).join('; ')}`)
}

export function shopifyRefunds(
  api: ShopifyApi,
): Pick<
  CommercePort,
  | 'orderRefunds'
  | 'readOrdersChangedSince'
  | 'readBrandOrder'
  | 'refundBrandOrder'
  | 'cancelBrandOrder'
> {
  return {
    async readOrdersChangedSince(shop, since, take) {
      const query = `updated_at:>='${since}'`
      for (let after: string | null = null; ;) {
        const page: { orders: { nodes: ChangedOrderNode[]; pageInfo: PageInfo } } =
          await api.request(shop, ORDERS_CHANGED_SINCE, { query, after })
        const more = await take(page.orders.nodes.flatMap(changedOrder))
        if (!more || !page.orders.pageInfo.hasNextPage) return
        after = page.orders.pageInfo.endCursor
      }
    },

    // Every refund, every line of each: a refund left unread is money Tandem never takes back.
    async orderRefunds(shop, orderId): Promise<CreatorRefund[]> {
      const listed: {
        order: { refunds: { id: string; totalRefundedSet: MoneyBag }[] } | null
      } = await api.request(shop, ORDER_REFUNDS, { id: orderGid(orderId) })
      const refunds = listed.order?.refunds ?? []
      if (refunds.length >= MOST_REFUNDS) {
        throw new CommerceError(
          `Order ${orderId} of ${shop} has ${MOST_REFUNDS} refunds or more, as many as Shopify lists at once, so Tandem cannot tell that it read them all: it gives nothing back for this order. Settle its refunds by hand`,
        )
      }
      const read: CreatorRefund[] = []
      for (const refund of refunds) {
        const lines: CreatorRefund['lines'] = []
        let shippingMinor = 0
        for (let after: string | null = null; ;) {
          const page: RefundLinesPage = await api.request(shop, REFUND_LINES, {
            id: refund.id,
            after,
          })
          const connection = page.node?.refundLineItems
          if (!connection) throw new CommerceError(`${shop} no longer has refund ${refund.id}`)
          // Every page answers the refund's shipping lines: counted once.
          if (after === null) {
            for (const shipping of page.node?.refundShippingLines?.nodes ?? []) {
              shippingMinor += minorOf(shipping.subtotalAmountSet) + minorOf(shipping.taxAmountSet)
            }
          }
          for (const line of connection.nodes) {
            lines.push({
              lineItemId: line.lineItem.id,
              quantity: line.quantity,
              restocked: line.restocked,
              subtotalMinor: minorOf(line.subtotalSet),
              taxMinor: minorOf(line.totalTaxSet),
            })
          }
          if (!connection.pageInfo.hasNextPage) break
          after = connection.pageInfo.endCursor
        }
        read.push({ refundedMinor: minorOf(refund.totalRefundedSet), shippingMinor, lines })
      }
      return read
    },

    async readBrandOrder(shop, orderId): Promise<BrandOrderState | null> {
      const lines: BrandOrderState['lines'] = []
      for (let after: string | null = null; ;) {
        const page: { order: BrandOrderNode | null } = await api.request(shop, BRAND_ORDER_LINES, {
          id: orderId,
          after,
        })
        if (!page.order) return null
        for (const line of page.order.lineItems.nodes) {
          lines.push({
            id: line.id,
            variantId: line.variant?.id ?? null,
            currentQuantity: line.currentQuantity,
          })
        }
        if (!page.order.lineItems.pageInfo.hasNextPage) {
          return { cancelledAt: page.order.cancelledAt, lines }
        }
        after = page.order.lineItems.pageInfo.endCursor
      }
    },

    // A refusal leaves its key refused for good: the refund is tried again under the key with an
    // attempt number (idempotency-keys.ts), so that a retry after a lost answer still meets the
    // key that made its refund.
    async refundBrandOrder(shop, orderId, refund, options) {
      const send = (key: string) =>
        api.request<{ refundCreate: Refusals }>(
          shop,
          REFUND_CREATE,
          {
            key,
            input: {
              orderId,
              note: refund.note,
              notify: false,
              refundLineItems: refund.lines.map((line) => ({
                lineItemId: line.lineItemId,
                quantity: line.quantity,
                restockType: line.restock ? 'CANCEL' : 'NO_RESTOCK',
              })),
            },
          },
          options,
        )
      const answer = await underLiveKey(
        refund.idempotencyKey,
        send,
        (sent) => sent.refundCreate.userErrors ?? [],
      )
      refused(`Shopify refused the refund of ${orderId} in ${shop}`, answer.refundCreate)
    },

    async cancelBrandOrder(shop, orderId, staffNote, options) {
      const answer: { orderCancel: Refusals } = await api.request(
        shop,
        ORDER_CANCEL,
        { orderId, staffNote },
        options,
      )
      refused(`Shopify refused to cancel ${orderId} in ${shop}`, answer.orderCancel)
    },
  }
}
