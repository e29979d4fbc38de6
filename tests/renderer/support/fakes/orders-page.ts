import { FILTER_STORES } from '../creator-orders'
import { SIGNED_IN, type FakeAnswers } from '../fake-bridge'

// The Orders page's fakes (/main/orders and its Transfer history tab): the one place that answers
// every call the page makes, signed in. Each test file of the page spreads these and answers beside
// them only what it is about; a call the page starts making gets its default answer here, and no
// test file changes. A call answered nowhere is refused by the fake bridge, as a failure would be.

/** What the Orders page reads: the filters' stores, no orders, no transfers, none needing attention. */
export const ordersPageAnswers = (): FakeAnswers => ({
  'session/status': () => SIGNED_IN,
  adminAllStores: () => FILTER_STORES,
  adminCreatorOrders: () => ({ orders: [], nextCursor: null }),
  adminOrderTransfers: () => ({ transfers: [], nextCursor: null }),
  adminOrdersNeedingAttention: () => ({ count: 0 }),
})
