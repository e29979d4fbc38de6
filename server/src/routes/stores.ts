import type { FastifyInstance } from 'fastify'
import type { Store } from '@shared/contract'
import type { RouteDeps } from '../deps'
import { CommerceError } from '../adapters/commerce/commerce-port'
import { HttpError } from '../http/errors'
import { recordAudit } from '../audit/audit-log'
import { pageLimit } from '../domain/page-cursor'
import { defineRoute } from '../http/route'
import { listStoreProducts } from '../products/store-products'
import { createProductSync } from '../products/product-sync'
import { findStoreType, listStores } from '../repositories/stores'

/** The 404 of every call that names a store the marketplace does not have. */
export const storeNotFound = (shop: string) => new HttpError(404, `Store not found: ${shop}`)

/**
 * How long one reading of the store list is served. The list is large (about 50 bytes a store,
 * half a megabyte for 10,000) and read far more often than it changes; reading, sorting and
 * serializing it costs many times more than sending it. A time limit rather than invalidation
 * because no write path in this server changes the list (stores come from the seed and from
 * Shopify installs), and a limit also covers writers in other processes, such as a second server
 * on the same PostgreSQL. A new or retyped store shows up within this time.
 */
const STORE_LIST_TTL_MS = 1_000

interface StoreList {
  stores: Store[]
  json: Buffer
}

export function registerStoreRoutes(app: FastifyInstance, deps: RouteDeps): void {
  defineRoute(app, 'adminStoreProducts', async ({ query }) => {
    if (!(await findStoreType(deps.db, query.storeShop))) throw storeNotFound(query.storeShop)
    return listStoreProducts(deps.db, query.storeShop, {
      cursor: query.cursor,
      limit: pageLimit(query.limit),
    })
  })

  let cached: { list: Promise<StoreList>; readAt: number } | null = null
  const storeList = (): Promise<StoreList> => {
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
  }

  // In a scope of its own, so that only this route's answers go through the serializer below.
  app.register(async (scope) => {
    let latest: StoreList | null = null
    // The list's bytes are sent as they are; anything else (an error body) is serialized as
    // usual. Fastify passes a serializer's Buffer on to the response untouched (onSend takes
    // strings and Buffers alike), though the type only promises a string.
    scope.setReplySerializer((payload) =>
      latest && payload === latest.stores
        ? (latest.json as unknown as string)
        : JSON.stringify(payload),
    )
    defineRoute(scope, 'adminAllStores', async () => {
      latest = await storeList()
      return latest.stores
    })
  })

  const productSync = createProductSync(deps)

  defineRoute(app, 'adminUpdateProducts', async ({ body, request }) => {
    const shop = body.storeShop
    if (!(await findStoreType(deps.db, shop))) throw storeNotFound(shop)
    const { productCount, syncedAt } = await productSync.sync(shop).catch((error: unknown) => {
      if (error instanceof CommerceError) {
        throw new HttpError(
          502,
          `Shopify (the commerce platform) failed to sync the products of ${shop}: ${error.message}`,
        )
      }
      throw error
    })
    await recordAudit(deps.db, deps.now(), {
      actorEmail: request.adminEmail,
      action: 'products.sync',
      target: shop,
      details: { productCount },
    })
    return { storeShop: shop, productCount, syncedAt }
  })

  defineRoute(app, 'adminProductSyncStatus', async ({ query }) => {
    if (!(await findStoreType(deps.db, query.storeShop))) throw storeNotFound(query.storeShop)
    return productSync.status(query.storeShop)
  })
}
