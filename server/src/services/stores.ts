import type { ProductSyncStatus, Store } from '@shared/contract'
import { CommerceError } from '../adapters/commerce/commerce-port'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { createProductSync, type ProductSyncResult } from '../products/product-sync'
import { listStores, requireStoreType } from '../repositories/stores'
import { auditAfterTheFact, type Actor } from './audited-change'

/**
 * How long one reading of the store list is served. The list is large (about 50 bytes a store,
 * half a megabyte for 10,000) and read far more often than it changes; reading, sorting and
 * serializing it costs many times more than sending it. A time limit rather than invalidation
 * because the list changes only as a shop is first connected (services/shop-connections.ts), which
 * may happen in another process, such as a second server on the same PostgreSQL. A new or retyped
 * store shows up within this time.
 */
const STORE_LIST_TTL_MS = 1_000

/** The store list, and its JSON kept to be sent as it is. */
export interface StoreList {
  stores: Store[]
  json: Buffer
}

export function createStoreService(deps: Pick<RouteDeps, 'db' | 'now' | 'commerce'>) {
  let cached: { list: Promise<StoreList>; readAt: number } | null = null
  const productSync = createProductSync(deps)

  return {
    storeList(): Promise<StoreList> {
      const at = performance.now()
      if (!cached || at - cached.readAt > STORE_LIST_TTL_MS) {
        // Concurrent requests share one reading; a failed one is not kept.
        const list = listStores(deps.db).then((stores) => ({
          stores,
          json: Buffer.from(JSON.stringify(stores)),
        }))
        const entry = { list, readAt: at }
        cached = entry
        list.catch(() => {
          if (cached === entry) cached = null
        })
      }
      return cached.list
    },

    /**
     * Reads the store's products from Shopify again. Audited after the fact: the sync is not one
     * transaction, and what it stored stays stored whether the entry is written or not.
     */
    async syncProducts(
      actor: Actor,
      shop: string,
      onAuditFailure: (error: unknown) => void,
    ): Promise<ProductSyncResult> {
      await requireStoreType(deps.db, shop)
      const result = await productSync.sync(shop).catch((error: unknown) => {
        if (error instanceof CommerceError) {
          throw new Refusal(
            'upstream_failed',
            `Shopify (the commerce platform) failed to sync the products of ${shop}: ${error.message}`,
          )
        }
        throw error
      })
      const audit = {
        action: 'products.sync',
        target: shop,
        details: { productCount: result.productCount },
      }
      await auditAfterTheFact(deps, actor, audit, onAuditFailure)
      return result
    },

    async syncStatus(shop: string): Promise<ProductSyncStatus> {
      await requireStoreType(deps.db, shop)
      return productSync.status(shop)
    },
  }
}
