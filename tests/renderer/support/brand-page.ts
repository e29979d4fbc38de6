import { SIGNED_IN, type FakeAnswers } from './fake-bridge'

/**
 * What a brand's store page reads, signed in, with each card's plainest answer (default rates, no
 * payout account, not paused): a test about one card answers its own beside these.
 */
export const brandPageAnswers = (shop: string): FakeAnswers => ({
  'session/status': () => SIGNED_IN,
  adminAllStores: () => [{ shop, shopType: 'BRAND' }],
  adminGetDefaultShopCommissionRate: () => ({
    tandemCommissionRate: 10,
    creatorCommissionRate: 15,
  }),
  adminStorePaymentAccount: () => ({
    shop,
    accountId: null,
    email: null,
    transfersActive: null,
  }),
  adminBrandPause: () => ({ pause: null }),
})
