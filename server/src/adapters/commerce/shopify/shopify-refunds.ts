import {
  CommerceError,
  type BrandOrderState,
  type ChangedOrder,
  type CommercePort,
  type RefundedLine,
} from '../commerce-port'
import { orderGid, orderNumber } from './order-gid'
import type { ShopifyApi } from './shopify-api'
import {
  BRAND_ORDER_LINES,
  ORDER_CANCEL,
  ORDERS_CHANGED_SINCE,
  REFUND_CREATE,
  REFUNDED_LINES,
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
  | 'refundedLines'
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

    async refundedLines(shop, orderId): Promise<RefundedLine[]> {
      const answer: {
        order: {
          refunds: {
            refundLineItems: {
              nodes: { lineItem: { id: string }; quantity: number; restocked: boolean }[]
            }
          }[]
        } | null
      } = await api.request(shop, REFUNDED_LINES, { id: orderGid(orderId) })
      return (answer.order?.refunds ?? []).flatMap((refund) =>
        refund.refundLineItems.nodes.map((line) => ({
          lineItemId: line.lineItem.id,
          quantity: line.quantity,
          restocked: line.restocked,
        })),
      )
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

    async refundBrandOrder(shop, orderId, refund, options) {
      const answer: { refundCreate: Refusals } = await api.request(
        shop,
        REFUND_CREATE,
        {
          key: refund.idempotencyKey,
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
