import type { ProductSyncStatus } from '@shared/contract'
import type { TandemBridge } from '@shared/ipc'
import { failureReason } from '@renderer/lib/bridge'
import { storeName } from '@renderer/lib/format'
import { showToast } from '@renderer/lib/toast'
import { useStoresPage, type SyncProgress } from './stores-page-state'

/** How often a running sync's progress is asked for. */
const PROGRESS_POLL_MS = 500

const count = new Intl.NumberFormat('en-US')

/** "Syncing... 1,200 / 10,000" once the server has counted the store's products. */
export function syncingLabel(progress: SyncProgress | undefined): string {
  if (!progress || progress.total === null) return 'Syncing...'
  return `Syncing... ${count.format(progress.fetched)} / ${count.format(progress.total)}`
}

/**
 * Asks how a store's sync stands, one question at a time, the next a moment after the last answer,
 * and hands each answer (null for a question that failed) to `onStatus` until stopped.
 */
function pollSyncStatus(
  bridge: TandemBridge,
  shop: string,
  onStatus: (status: ProductSyncStatus | null) => void,
): () => void {
  let polling = true
  const poll = async () => {
    while (polling) {
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS))
      if (!polling) return
      const status = await bridge
        .invoke('adminProductSyncStatus', { storeShop: shop })
        .catch(() => null)
      if (polling) onStatus(status)
    }
  }
  void poll()
  return () => {
    polling = false
  }
}

/**
 * Syncs one store's products and says how it went (docs/product-rules.md "Deliberate departures
 * from the specification": a failure is a destructive toast, not only a log line), with its
 * progress read while it runs. A store already syncing is left alone rather than asked twice.
 */
export async function syncStoreProducts(bridge: TandemBridge, shop: string): Promise<void> {
  const { syncingShops, setSyncing, setProgress } = useStoresPage.getState()
  if (syncingShops.has(shop)) return
  setSyncing(shop, true)
  const stopPolling = pollSyncStatus(bridge, shop, (status) => {
    // Progress is a nicety: the sync's own answer says how it went.
    if (status?.state === 'RUNNING') {
      setProgress(shop, { fetched: status.fetched, total: status.total })
    }
  })
  try {
    const { productCount } = await bridge.invoke('adminUpdateProducts', { storeShop: shop })
    showToast({
      title: 'Products synced',
      message: `${storeName(shop)}: ${productCount} ${productCount === 1 ? 'product' : 'products'}`,
    })
  } catch (error) {
    showToast({
      tone: 'error',
      title: 'Failed to sync products',
      message: `Failed to sync products: ${failureReason(error)}`,
    })
  } finally {
    stopPolling()
    setSyncing(shop, false)
  }
}

/**
 * Follows a sync this window did not start (found running when a page opened: started from another
 * window, or before a reload) as it follows its own: the store shows as syncing, with its progress,
 * until the server says the sync is over. Nothing is toasted (whoever started it hears how it
 * went); the page reads the outcome from the status. A question that fails ends the following too,
 * so that the page asks again rather than show a sync that may be long over.
 */
export function followRunningSync(bridge: TandemBridge, running: ProductSyncStatus): Promise<void> {
  const shop = running.storeShop
  const { syncingShops, setSyncing, setProgress } = useStoresPage.getState()
  if (syncingShops.has(shop)) return Promise.resolve()
  setSyncing(shop, true)
  setProgress(shop, { fetched: running.fetched, total: running.total })
  return new Promise((resolve) => {
    const stopPolling = pollSyncStatus(bridge, shop, (status) => {
      if (status?.state === 'RUNNING') {
        setProgress(shop, { fetched: status.fetched, total: status.total })
        return
      }
      stopPolling()
      setSyncing(shop, false)
      resolve()
    })
  })
}
