import { setTimeout as sleep } from 'node:timers/promises'
import {
  CommerceError,
  type BrandOrderState,
  type ChangedOrder,
  type CommercePort,
  type CreatorRefund,
} from '../commerce-port'
import { toMinorUnits } from '../../../domain/money'
import { underLiveKey, type KeyAttempts } from './idempotency-keys'
import { orderGid, orderNumber } from './order-gid'
import type { ShopifyApi } from './shopify-api'
import {
  BRAND_ORDER_LINES,
  JOB,
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
  fulfillments: {
    status: string
    location: { id: string } | null
    fulfillmentLineItems: {
      nodes: { quantity: number; lineItem: { id: string } }[]
      pageInfo: { hasNextPage: boolean }
    }
  }[]
  lineItems: {
    nodes: {
      id: string
      currentQuantity: number
      unfulfilledQuantity: number
      variant: { id: string } | null
    }[]
    pageInfo: { hasNextPage: boolean; endCursor: string | null }
  }
}

/** What a brand order's successful fulfillments shipped: each line's units, and from where. */
function shippedOf(
  shop: string,
  orderId: string,
  order: BrandOrderNode,
): BrandOrderState['shipped'] {
  const fulfillments = order.fulfillments.filter((fulfillment) => fulfillment.status === 'SUCCESS')
  if (fulfillments.some((fulfillment) => fulfillment.fulfillmentLineItems.pageInfo.hasNextPage)) {
    throw new CommerceError(
      `Order ${orderId} of ${shop} has a shipment of more lines than Tandem reads at once, so it cannot tell what shipped: refund that order by hand`,
    )
  }
  return fulfillments.flatMap((fulfillment) =>
    fulfillment.fulfillmentLineItems.nodes.map((line) => ({
      lineItemId: line.lineItem.id,
      locationId: fulfillment.location?.id ?? null,
      quantity: line.quantity,
    })),
  )
}

/**
 * RefundLineItemRestockType (Admin GraphQL 2026-10): CANCEL "when restocking unfulfilled line
 * items", RETURN "when restocking line items that were fulfilled", at the location in
 * RefundLineItemInput.locationId.
 */
const restockOf = (line: { restock: boolean; shipped?: { from: string | null } }) => {
  if (!line.restock) return { restockType: 'NO_RESTOCK' }
  if (!line.shipped) return { restockType: 'CANCEL' }
  return { restockType: 'RETURN', ...(line.shipped.from ? { locationId: line.shipped.from } : {}) }
}

interface Job {
  id: string
  done: boolean
}

/** How long Tandem waits between two looks at a job of Shopify's, at first and at most. */
const JOB_POLL_MS = { first: 50, most: 1000 }

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
  attempts: KeyAttempts,
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
            unfulfilledQuantity: line.unfulfilledQuantity,
          })
        }
        if (!page.order.lineItems.pageInfo.hasNextPage) {
          return {
            cancelledAt: page.order.cancelledAt,
            lines,
            shipped: shippedOf(shop, orderId, page.order),
          }
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
                ...restockOf(line),
              })),
            },
          },
          options,
        )
      const answer = await underLiveKey(
        { attempts, shop, key: refund.idempotencyKey },
        send,
        (sent) => sent.refundCreate.userErrors ?? [],
      )
      refused(`Shopify refused the refund of ${orderId} in ${shop}`, answer.refundCreate)
    },

    // orderCancel only starts a job ("The job that asynchronously cancels the order",
    // OrderCancelPayload, 2026-10): this waits for it to be done (Query.job); whether it
    // cancelled, the caller reads. A caller that stops waiting first reads it on its next run.
    async cancelBrandOrder(shop, orderId, staffNote, options) {
      const answer: { orderCancel: Refusals & { job: Job | null } } = await api.request(
        shop,
        ORDER_CANCEL,
        { orderId, staffNote },
        options,
      )
      refused(`Shopify refused to cancel ${orderId} in ${shop}`, answer.orderCancel)
      let job = answer.orderCancel.job
      for (
        let wait = JOB_POLL_MS.first;
        job && !job.done;
        wait = Math.min(2 * wait, JOB_POLL_MS.most)
      ) {
        await sleep(wait, undefined, { signal: options?.signal })
        job = (await api.request<{ job: Job | null }>(shop, JOB, { id: job.id })).job
      }
    },
  }
}
