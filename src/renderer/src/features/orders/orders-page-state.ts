import { create } from 'zustand'
import type { TransferStatus } from '@shared/contract'

export type OrdersTab = 'orders' | 'history' | 'policy'

interface OrdersPageState {
  tab: OrdersTab
  /** The transfer status the orders are narrowed to, or null for all. */
  status: TransferStatus | null
  /** The creator store the orders are narrowed to, or null for all. */
  creatorShop: string | null
  /** Whether only the orders that need attention are listed. */
  needsAttention: boolean
  /** The search as typed; the list follows it a moment later. */
  search: string
  setTab: (tab: OrdersTab) => void
  setStatus: (status: TransferStatus | null) => void
  setCreatorShop: (shop: string | null) => void
  setNeedsAttention: (needsAttention: boolean) => void
  setSearch: (search: string) => void
}

/**
 * The orders page's tab and filters, outside the page so that they are still there on the way
 * back from previewing an order's transfer.
 */
export const useOrdersPage = create<OrdersPageState>()((set) => ({
  tab: 'orders',
  status: null,
  creatorShop: null,
  needsAttention: false,
  search: '',
  setTab: (tab) => set({ tab }),
  setStatus: (status) => set({ status }),
  setCreatorShop: (creatorShop) => set({ creatorShop }),
  setNeedsAttention: (needsAttention) => set({ needsAttention }),
  setSearch: (search) => set({ search }),
}))
