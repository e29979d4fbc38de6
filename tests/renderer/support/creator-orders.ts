import type { CreatorOrderSummary, Store } from '@shared/contract'
import { LUMEN, NORTHWIND } from '../../support/sandbox-figures'

export const MAYA = 'maya-makes.myshopify.com'
export const URBAN = 'urban-trail-edits.myshopify.com'

/** The stores the order lists' store filters offer: two brands and two creators. */
export const FILTER_STORES: Store[] = [
  { shop: NORTHWIND, shopType: 'BRAND' },
  { shop: LUMEN, shopType: 'BRAND' },
  { shop: MAYA, shopType: 'CREATOR' },
  { shop: URBAN, shopType: 'CREATOR' },
]

/** An order as the orders inbox lists it: Maya's, not transferred, waiting for an administrator. */
export const creatorOrder = (
  id: string,
  overrides: Partial<CreatorOrderSummary> = {},
): CreatorOrderSummary => ({
  id,
  name: `#${id}`,
  creatorStoreShop: MAYA,
  createdAt: '2026-11-02T15:04:00.000Z',
  currency: 'USD',
  totalAmount: '10.00',
  transferStatus: 'NOT_STARTED',
  processedAt: null,
  readiness: { state: 'MANUAL' },
  ...overrides,
})
