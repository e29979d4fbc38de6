// Shopify names an order by its numeric id or its GID; the API accepts both for one order.

const ORDER_GID_PREFIX = 'gid://shopify/Order/'

export const orderGid = (orderNumber: number | string): string =>
  `${ORDER_GID_PREFIX}${orderNumber}`

/** The numeric id of `1001` or `gid://shopify/Order/1001`; null for anything else. */
export function orderNumber(idOrGid: string): number | null {
  const digits = idOrGid.startsWith(ORDER_GID_PREFIX)
    ? idOrGid.slice(ORDER_GID_PREFIX.length)
    : idOrGid
  if (!/^\d+$/.test(digits)) return null
  const value = Number(digits)
  return Number.isSafeInteger(value) ? value : null
}
