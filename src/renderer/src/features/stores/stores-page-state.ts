import { create } from 'zustand'
import type { ShopType } from '@shared/contract'
import { withMember } from '@renderer/lib/sets'

interface StoresPageState {
  tab: ShopType
  /** The store each tab's selector narrows the table to, or null for the whole tab. */
  selectedShop: Record<ShopType, string | null>
  /** Stores whose products are being synced; several may sync at once. */
  syncingShops: ReadonlySet<string>
  /** How far each running sync got, once the server has said. */
  syncProgress: Readonly<Record<string, SyncProgress>>
  setTab: (tab: ShopType) => void
  selectShop: (tab: ShopType, shop: string | null) => void
  setSyncing: (shop: string, syncing: boolean) => void
  setProgress: (shop: string, progress: SyncProgress) => void
}

export interface SyncProgress {
  fetched: number
  total: number | null
}

/**
 * The stores page's state, outside the page so that it survives a visit to a store's own page: the
 * tab and selection are still there on the way back, and a sync started before leaving still shows
 * "Syncing..." and still ends in its toast.
 */
export const useStoresPage = create<StoresPageState>()((set) => ({
  tab: 'BRAND',
  selectedShop: { BRAND: null, CREATOR: null },
  syncingShops: new Set(),
  syncProgress: {},
  setTab: (tab) => set({ tab }),
  selectShop: (tab, shop) =>
    set((state) => ({ selectedShop: { ...state.selectedShop, [tab]: shop } })),
  setSyncing: (shop, syncing) =>
    set((state) => {
      // A finished sync forgets its progress, so that the next one starts from nothing.
      const syncProgress = { ...state.syncProgress }
      if (!syncing) delete syncProgress[shop]
      return { syncingShops: withMember(state.syncingShops, shop, syncing), syncProgress }
    }),
  setProgress: (shop, progress) =>
    set((state) =>
      state.syncingShops.has(shop)
        ? { syncProgress: { ...state.syncProgress, [shop]: progress } }
        : state,
    ),
}))
