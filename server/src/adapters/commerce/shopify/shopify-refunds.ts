import {
  CommerceError,
  type BrandOrderState,
  type CommercePort,
  type RefundedLine,
} from '../commerce-port'
import { orderGid } from './order-gid'
import type { ShopifyApi } from './shopify-api'
import {
  BRAND_ORDER_LINES,
  ORDER_CANCEL,
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
  'refundedLines' | 'readBrandOrder' | 'refundBrandOrder' | 'cancelBrandOrder'
> {
  return {
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
