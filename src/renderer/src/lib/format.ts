/**
 * A store's name as people say it (SPEC §2): the first label of its host with hyphens as spaces,
 * so 'maya-makes.myshopify.com' reads 'maya makes'.
 */
export const storeName = (shop: string): string => shop.replace(/\..*$/s, '').replaceAll('-', ' ')
