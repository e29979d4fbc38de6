import type { ProductSyncStatus } from '@shared/contract'
import type { CommercePort, CommerceProduct } from '../adapters/commerce/commerce-port'
import type { Db } from '../db/connect'
import { CommerceError } from '../adapters/commerce/commerce-port'

// A store's product sync: the platform's products read through the commerce port and stored per
// store, its progress kept in product_syncs so that any server process can tell how far it got.
// A second request for a store whose sync runs joins it instead of starting another.

/** A RUNNING sync whose progress has not moved for this long belongs to a process that died. */
const STALE_AFTER_MS = 60_000
const JOIN_POLL_MS = 250

interface Deps {
  db: Db
  commerce: CommercePort
  now: () => Date
}

export interface ProductSyncResult {
  productCount: number
  syncedAt: string
}

export function createProductSync(deps: Deps) {
  const { db } = deps
  const running = new Map<string, Promise<ProductSyncResult>>()
  const stamp = () => deps.now().toISOString()

  const record = (shop: string, changes: Partial<Omit<ProductSyncRow, 'store_shop'>>) =>
    db
      .updateTable('product_syncs')
      .set({ ...changes, updated_at: stamp() })
      .where('store_shop', '=', shop)
      .execute()

  async function store(shop: string, products: CommerceProduct[], seenAt: string) {
    if (products.length === 0) return
    const rows = products.map((product) => ({
      store_shop: shop,
      product_id: product.id,
      title: product.title,
      status: product.status,
      variant_count: product.variantCount,
      min_price_minor: product.minPriceMinor,
      currency: product.currency,
      seen_at: seenAt,
    }))
    await db
      .insertInto('store_products')
      .values(rows)
      .onConflict((conflict) =>
        conflict.columns(['store_shop', 'product_id']).doUpdateSet((eb) => ({
          title: eb.ref('excluded.title'),
          status: eb.ref('excluded.status'),
          variant_count: eb.ref('excluded.variant_count'),
          min_price_minor: eb.ref('excluded.min_price_minor'),
          currency: eb.ref('excluded.currency'),
          seen_at: eb.ref('excluded.seen_at'),
        })),
      )
      .execute()
  }

  async function run(shop: string): Promise<ProductSyncResult> {
    const startedAt = stamp()
    const start = {
      state: 'RUNNING' as const,
      fetched: 0,
      total: null,
      started_at: startedAt,
      message: null,
      updated_at: startedAt,
    }
    await db
      .insertInto('product_syncs')
      .values({ store_shop: shop, synced_at: null, ...start })
      .onConflict((conflict) => conflict.column('store_shop').doUpdateSet(start))
      .execute()
    try {
      const total = await deps.commerce.countProducts(shop)
      await record(shop, { total })
      let fetched = 0
      await deps.commerce.readProducts(shop, {
        total,
        // A bulk reading counts what Shopify read, then what was stored: never shown going back.
        onProgress: async (count) => {
          if (count <= fetched) return
          fetched = count
          await record(shop, { fetched })
        },
        take: (products) => store(shop, products, startedAt),
      })
      // Products the shop no longer has were not seen by this sync.
      await db
        .deleteFrom('store_products')
        .where('store_shop', '=', shop)
        .where('seen_at', '!=', startedAt)
        .execute()
      const { count } = await db
        .selectFrom('store_products')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('store_shop', '=', shop)
        .executeTakeFirstOrThrow()
      const productCount = Number(count)
      const syncedAt = stamp()
      await db
        .updateTable('stores')
        .set({ product_count: productCount, products_synced_at: syncedAt })
        .where('shop', '=', shop)
        .execute()
      await record(shop, { state: 'IDLE', fetched: productCount, synced_at: syncedAt })
      return { productCount, syncedAt }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      await record(shop, { state: 'FAILED', message })
      throw error
    }
  }

  /** Waits for a sync another process runs, as long as it shows signs of life. */
  async function follow(shop: string): Promise<ProductSyncResult | null> {
    for (;;) {
      const row = await syncRow(db, shop)
      if (!row || row.state !== 'RUNNING') {
        if (row?.state === 'IDLE' && row.synced_at) {
          return { productCount: row.fetched, syncedAt: row.synced_at }
        }
        if (row?.state === 'FAILED') throw new CommerceError(row.message ?? 'The sync failed')
        return null
      }
      if (deps.now().getTime() - Date.parse(row.updated_at) > STALE_AFTER_MS) return null
      await new Promise((resolve) => setTimeout(resolve, JOIN_POLL_MS))
    }
  }

  return {
    /** Syncs the store's products, or joins the sync under way. */
    sync(shop: string): Promise<ProductSyncResult> {
      let sync = running.get(shop)
      if (!sync) {
        sync = (async () => {
          const elsewhere = await syncRow(db, shop)
          const live =
            elsewhere?.state === 'RUNNING' &&
            deps.now().getTime() - Date.parse(elsewhere.updated_at) <= STALE_AFTER_MS
          return (live && (await follow(shop))) || run(shop)
        })().finally(() => running.delete(shop))
        running.set(shop, sync)
      }
      return sync
    },

    /** Where the store's latest sync stands. */
    async status(shop: string): Promise<ProductSyncStatus> {
      const row = await syncRow(db, shop)
      return {
        storeShop: shop,
        state: row?.state ?? 'IDLE',
        fetched: row?.fetched ?? 0,
        total: row?.total ?? null,
        syncedAt: row?.synced_at ?? null,
        message: row?.message ?? null,
      }
    },
  }
}

type ProductSyncRow = NonNullable<Awaited<ReturnType<typeof syncRow>>>

const syncRow = (db: Db, shop: string) =>
  db.selectFrom('product_syncs').selectAll().where('store_shop', '=', shop).executeTakeFirst()
