/**
 * A store's name as people say it, the one name every screen and every server sentence gives it
 * (docs/product-rules.md "Names"): the first label of its host with hyphens as spaces, so
 * 'maya-makes.myshopify.com' reads 'maya makes'.
 */
export const storeName = (shop: string): string => hostLabel(shop).replaceAll('-', ' ')

/** The first label of a shop's host: 'maya-makes' of 'maya-makes.myshopify.com'. */
export const hostLabel = (shop: string): string => shop.replace(/\..*$/s, '')

/**
 * The console's pages a reason links to, so that the server's "where to fix it" and the console's
 * own links are one path (docs/product-rules.md "The console's screens").
 */
export const consolePaths = {
  store: (shop: string, shopType: 'BRAND' | 'CREATOR') =>
    `/main/stores/${encodeURIComponent(shop)}?type=${shopType}`,
  configs: '/main/configs',
  products: '/main/products',
  order: (creatorOrderId: string) =>
    `/main/create-order-transfer?creatorOrderId=${encodeURIComponent(creatorOrderId)}`,
}
