import type { CreatorOrderSummary } from '@shared/contract'

export const MAYA = 'maya-makes.myshopify.com'

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
