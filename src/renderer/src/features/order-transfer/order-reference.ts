import {
  CREATOR_ORDER_FORMS,
  CreatorOrderId,
  CreatorOrderName,
  PAGE_LIMIT,
  type CreatorOrderSummary,
} from '@shared/contract'
import type { TandemBridge } from '@shared/ipc'
import { storeName } from '@renderer/lib/format'

/** The order the person typed, as the id the server takes, or what to type instead. */
export type OrderReference = { orderId: string } | { fieldError: string }

/**
 * Reads the creator order field: an id or GID as typed; a name (`#1001`) as the id of the one
 * creator order of that name. A name is looked up, never turned into an id by dropping its `#`:
 * in Shopify `#1001` and the id 1001 may be two different orders, and money must move for the
 * order the person meant. Every order the search finds is read, so that a second store's
 * `#1001` on a later page is never missed.
 */
export async function readOrderReference(
  bridge: TandemBridge,
  typed: string,
): Promise<OrderReference> {
  const asId = CreatorOrderId.safeParse(typed)
  if (asId.success) return { orderId: asId.data }
  const asName = CreatorOrderName.safeParse(typed)
  if (!asName.success) return { fieldError: CREATOR_ORDER_FORMS }

  const name = asName.data
  const named: CreatorOrderSummary[] = []
  let cursor: string | undefined
  do {
    const page = await bridge.invoke('adminCreatorOrders', {
      q: name,
      limit: PAGE_LIMIT.max,
      ...(cursor ? { cursor } : {}),
    })
    named.push(...page.orders.filter((order) => order.name === name))
    cursor = page.nextCursor ?? undefined
  } while (cursor)

  const [only, ...others] = named
  if (!only) {
    return { fieldError: `No creator order is named ${name}. ${CREATOR_ORDER_FORMS}` }
  }
  if (others.length > 0) {
    const stores = named.map((order) => `${order.id} of ${storeName(order.creatorStoreShop)}`)
    return {
      fieldError: `Orders of several stores are named ${name}: type the id of the one you mean (${stores.join(', ')}).`,
    }
  }
  return { orderId: only.id }
}
