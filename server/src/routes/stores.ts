import type { RouteDeps } from '../deps'
import { JsonBytes, type CallRoutes } from '../http/route'
import { listStoreProducts } from '../queries/store-products'
import { payoutAccount, setPayoutAccount } from '../services/payout-accounts'
import { createStoreService } from '../services/stores'

export function storeRoutes(deps: RouteDeps) {
  const stores = createStoreService(deps)
  return {
    // The list's bytes are kept and sent as they are (services/stores.ts says why).
    adminAllStores: async () => new JsonBytes((await stores.storeList()).json),
    adminStoreProducts: ({ query }) => listStoreProducts(deps.db, query.storeShop, query),
    adminUpdateProducts: async ({ body, actor, log }) => {
      const { productCount, syncedAt } = await stores.syncProducts(actor, body.storeShop, (err) =>
        log.error({ err, shop: body.storeShop }, 'the audit log could not record a product sync'),
      )
      return { storeShop: body.storeShop, productCount, syncedAt }
    },
    adminProductSyncStatus: ({ query }) => stores.syncStatus(query.storeShop),
    adminStorePaymentAccount: ({ query }) => payoutAccount(deps, query.shop),
    adminSetStorePaymentAccount: ({ body, actor }) => setPayoutAccount(deps, actor, body),
  } satisfies Partial<CallRoutes>
}
