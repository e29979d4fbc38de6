import type { ProductSyncStatus } from '@shared/contract'
import type { CommercePort } from '../adapters/commerce/commerce-port'
import { randomBytes } from 'node:crypto'
import type { Db } from '../db/connect'
import { CommerceError } from '../adapters/commerce/commerce-port'
import { upsertStoreProducts } from '../repositories/store-products'

// A store's product sync: the platform's products read through the commerce port and stored per
// store, its progress kept in product_syncs so that any server process can tell how far it got.
// One sync runs per store: it is claimed in the database, so a second request (in this process
// or another) joins the running one instead of starting another.

/** A RUNNING sync that has not shown a sign of life for this long belongs to a process that died. */
const STALE_AFTER_MS = 60_000
/** How often a running sync says it is alive, whatever its progress. */
const HEARTBEAT_MS = 10_000
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

  /** Changes the sync's row, only while this run still holds it. */
  const record = (
    shop: string,
    runId: string,
    changes: Partial<Omit<ProductSyncRow, 'store_shop' | 'run_id'>>,
  ) =>
    db
      .updateTable('product_syncs')
      .set({ ...changes, updated_at: stamp() })
      .where('store_shop', '=', shop)
      .where('run_id', '=', runId)
      .execute()

  /** Takes the store's sync, unless a live one runs: its run id, or null. */
  async function claim(shop: string): Promise<{ runId: string; startedAt: string } | null> {
    const startedAt = stamp()
    const runId = randomBytes(8).toString('hex')
    await db
      .insertInto('product_syncs')
      .values({
        store_shop: shop,
        state: 'IDLE',
        fetched: 0,
        total: null,
        started_at: startedAt,
        synced_at: null,
        message: null,
        updated_at: startedAt,
        run_id: null,
      })
      .onConflict((conflict) => conflict.column('store_shop').doNothing())
      .execute()
    const staleBefore = new Date(deps.now().getTime() - STALE_AFTER_MS).toISOString()
    const taken = await db
      .updateTable('product_syncs')
      .set({
        state: 'RUNNING',
        fetched: 0,
        total: null,
        started_at: startedAt,
        message: null,
        updated_at: startedAt,
        run_id: runId,
      })
      .where('store_shop', '=', shop)
      .where((eb) => eb.or([eb('state', '!=', 'RUNNING'), eb('updated_at', '<', staleBefore)]))
      .executeTakeFirst()
    return taken.numUpdatedRows > 0n ? { runId, startedAt } : null
  }

  async function run(shop: string, { runId, startedAt }: { runId: string; startedAt: string }) {
    // Alive while it runs, even through a long wait with no progress to show (a bulk reading).
    const heartbeat = setInterval(() => void record(shop, runId, {}).catch(() => {}), HEARTBEAT_MS)
    try {
      const total = await deps.commerce.countProducts(shop)
      await record(shop, runId, { total })
      let fetched = 0
      await deps.commerce.readProducts(shop, {
        total,
        // A bulk reading counts what Shopify read, then what was stored: never shown going back.
        onProgress: async (count) => {
          if (count <= fetched) return
          fetched = count
          await record(shop, runId, { fetched })
        },
        take: (products) => upsertStoreProducts(db, shop, products, startedAt),
      })
      // Products the shop no longer has were seen by no sync or webhook since this one began.
      await db
        .deleteFrom('store_products')
        .where('store_shop', '=', shop)
        .where('seen_at', '<', startedAt)
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
      await record(shop, runId, { state: 'IDLE', fetched: productCount, synced_at: syncedAt })
      return { productCount, syncedAt }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      await record(shop, runId, { state: 'FAILED', message })
      throw error
    } finally {
      clearInterval(heartbeat)
    }
  }

  /** Runs the store's sync, or follows the one running; takes over one that died. */
  async function claimOrFollow(shop: string): Promise<ProductSyncResult> {
    for (;;) {
      const claimed = await claim(shop)
      if (claimed) return run(shop, claimed)
      const followed = await follow(shop)
      if (followed) return followed
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
        sync = claimOrFollow(shop).finally(() => running.delete(shop))
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
