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

/** Tries of a brand refund under successive keys, each refused for an earlier try's failure. */
const MOST_KEY_ATTEMPTS = 10

interface Refusals {
  userErrors?: { message: string }[]
  orderCancelUserErrors?: { message: string }[]
}

/**
 * Shopify refuses for good a key whose call failed: "A previous request with this idempotency key
 * failed. Retry with a new idempotency key." (IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED, Admin GraphQL's
 * idempotency error codes). refundCreate's userErrors carry no code, so its message is read.
 */
const keyFailedBefore = (answer: Refusals) =>
  (answer.userErrors ?? []).some((error) =>
    error.message.startsWith('A previous request with this idempotency key failed'),
  )

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

    // A refusal leaves its key refused for good: the refund is tried again under the key with an
    // attempt number, the same sequence for every run, so that a retry after a lost answer still
    // meets the key that made its refund.
    async refundBrandOrder(shop, orderId, refund, options) {
      for (let attempt = 1; ; attempt++) {
        const answer: { refundCreate: Refusals } = await api.request(
          shop,
          REFUND_CREATE,
          {
            key: attempt === 1 ? refund.idempotencyKey : `${refund.idempotencyKey}#${attempt}`,
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
        if (keyFailedBefore(answer.refundCreate) && attempt < MOST_KEY_ATTEMPTS) continue
        refused(`Shopify refused the refund of ${orderId} in ${shop}`, answer.refundCreate)
        return
      }
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
