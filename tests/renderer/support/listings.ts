import type { CatalogListing } from '@shared/contract'

/**
 * A listing as the server answers it: northwind apparel's Linen Overshirt on maya makes, active
 * at the brand's price and in sync, unless a test says otherwise.
 */
export const catalogListing = (overrides: Partial<CatalogListing> = {}): CatalogListing => ({
  id: 'lst_overshirt',
  creatorStoreShop: 'maya-makes.myshopify.com',
  brandStoreShop: 'northwind-apparel.myshopify.com',
  brandProductId: 'gid://shopify/Product/101',
  title: 'Linen Overshirt',
  imageUrl: 'https://cdn.shopify.com/101.jpg',
  status: 'ACTIVE',
  price: null,
  brandPrice: '68.00',
  currency: 'USD',
  syncState: 'IN_SYNC',
  syncMessage: null,
  brandStatus: 'ACTIVE',
  creatorProductId: 'gid://shopify/Product/9001',
  syncedAt: '2026-11-24T08:00:00.000Z',
  ...overrides,
})
