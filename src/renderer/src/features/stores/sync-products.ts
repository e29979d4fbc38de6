import type { TandemBridge } from '@shared/ipc'
import { failureReason } from '@renderer/lib/bridge'
import { storeName } from '@renderer/lib/format'
import { showToast } from '@renderer/lib/toast'
import { useStoresPage } from './stores-page-state'

/** How often a running sync's progress is asked for. */
const PROGRESS_POLL_MS = 500

/**
 * Syncs one store's products and says how it went (PRODUCT.md: a failure is a destructive toast,
 * not only a log line), with its progress read while it runs. A store already syncing is left
 * alone rather than asked twice.
 */
export async function syncStoreProducts(bridge: TandemBridge, shop: string): Promise<void> {
  const { syncingShops, setSyncing, setProgress } = useStoresPage.getState()
  if (syncingShops.has(shop)) return
  setSyncing(shop, true)
  let syncing = true
  // One question at a time, the next asked a moment after the last answer.
  const followProgress = async () => {
    while (syncing) {
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS))
      if (!syncing) return
      const status = await bridge
        .invoke('stores/syncStatus', { storeShop: shop })
        // Progress is a nicety: the sync's own answer says how it went.
        .catch(() => null)
      if (syncing && status?.state === 'RUNNING') {
        setProgress(shop, { fetched: status.fetched, total: status.total })
      }
    }
  }
  void followProgress()
  try {
    const { productCount } = await bridge.invoke('stores/syncProducts', { storeShop: shop })
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
    syncing = false
    setSyncing(shop, false)
  }
}
