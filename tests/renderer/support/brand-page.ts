import type { StorePaymentAccount } from '@shared/contract/entities'
import { SIGNED_IN, type FakeAnswers } from './fake-bridge'

/**
 * What a brand's store page reads, signed in, with each card's plainest answer (default rates, no
 * payout account, not paused, listed by no creator): a test about one card answers its own beside
 * these.
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
