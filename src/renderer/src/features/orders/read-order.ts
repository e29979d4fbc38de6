import { PAGE_LIMIT, type CreatorOrderSummary } from '@shared/contract'
import type { TandemBridge } from '@shared/ipc'

/**
 * One creator order as the orders inbox lists it, with its readiness, or null if the inbox does not
 * list it (its header not yet read). The inbox's search finds an order by its id, and also the
 * orders whose name holds those digits, which may come first: only the order of that id counts, on
 * whichever page. `orderId` is the order's number or its GID, as the transfer screen sends it.
 */
export async function readCreatorOrder(
  bridge: TandemBridge,
  orderId: string,
): Promise<CreatorOrderSummary | null> {
  const id = orderId.replace(/^gid:\/\/shopify\/Order\//, '')
  let cursor: string | undefined
  do {
    const page = await bridge.invoke('adminCreatorOrders', {
      q: id,
      ...(cursor && { cursor }),
      limit: PAGE_LIMIT.default,
    })
    const order = page.orders.find((candidate) => candidate.id === id)
    if (order) return order
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return null
}
