import type { StorePaymentAccount } from '@shared/contract/entities'
import { SIGNED_IN, type FakeAnswers } from '../fake-bridge'

// The store page's fakes: the one place that answers every call a store's page makes, signed in,
// each with its card's plainest answer. Each test file of the page spreads these and answers
// beside them only what it is about; a call the page starts making gets its default answer here,
// and no test file changes. A call answered nowhere still fails the test (the fake bridge refuses
// it), so a test cannot miss a call its page makes.

const NORTHWIND = 'northwind-apparel.myshopify.com'

/**
 * What a brand's store page reads: default rates, no payout account, not paused, listed by no
 * creator.
 */
export const brandPageAnswers = (shop: string): FakeAnswers => ({
  'session/status': () => SIGNED_IN,
  adminAllStores: () => [{ shop, shopType: 'BRAND' }],
  adminGetDefaultShopCommissionRate: () => ({
    tandemCommissionRate: 10,
    creatorCommissionRate: 15,
  }),
  adminStorePaymentAccount: noPaymentAccount,
  adminBrandPause: () => ({ pause: null }),
  adminCatalogListings: noListings,
})

/**
 * What a creator's store page reads: one brand beside it, no unique rates, no payout account, no
 * listings.
 */
export const creatorPageAnswers = (shop: string): FakeAnswers => ({
  'session/status': () => SIGNED_IN,
  adminAllStores: () => [
    { shop: NORTHWIND, shopType: 'BRAND' },
    { shop, shopType: 'CREATOR' },
  ],
  adminGetUniqueCommissionRates: () => ({ uniqueCommissionRates: [] }),
  adminStorePaymentAccount: noPaymentAccount,
  adminCatalogListings: noListings,
})

/** A store's listings as the server answers with none: a brand's keeping no stock back. */
export function noListings({ brandStoreShop }: { brandStoreShop?: string }) {
  return { listings: [], stockBuffer: brandStoreShop === undefined ? null : 0 }
}

/** A store's payout account as the server answers it with none set and nothing owed. */
export function noPaymentAccount({ shop }: { shop: string }): StorePaymentAccount {
  return {
    shop,
    accountId: null,
    email: null,
    transfersActive: null,
    commissionOwed: [],
    commissionWaitingReason: null,
  }
}
