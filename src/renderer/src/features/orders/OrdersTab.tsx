import { useCallback, useRef } from 'react'
import { Checkbox, Group, Select, TextInput, type ComboboxItem } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'
import {
  PAGE_LIMIT,
  TRANSFER_STATUSES,
  TransferStatus,
  type CreatorOrderSummary,
} from '@shared/contract'
import { useBridge } from '@renderer/lib/bridge'
import { PagedTable } from '@renderer/lib/PagedTable'
import type { CursorPage } from '@renderer/lib/useCursorPages'
import { ALL, StoreFilter } from '@renderer/features/stores/StoreFilter'
import { useStoreList } from '@renderer/features/stores/useStoreList'
import { OrderHoldsProvider, type OrderChanged } from './order-holds'
import { useOrdersPage } from './orders-page-state'
import { ORDERS_TABLE } from './OrdersTable'
import { TRANSFER_STATUS_LABELS } from './TransferStatusBadge'
import filters from '@renderer/lib/filters.module.css'

/** How long the search waits for typing to pause before it reads the list again. */
export const SEARCH_DELAY_MS = 250
/** The contract's longest search. */
const SEARCH_MAX_LENGTH = 100

const STATUS_OPTIONS: ComboboxItem[] = [
  { value: ALL, label: 'All statuses' },
  ...TRANSFER_STATUSES.map((status) => ({ value: status, label: TRANSFER_STATUS_LABELS[status] })),
]

/**
 * The Orders tab: creator orders, newest first, narrowed by transfer status, store, attention and
 * search.
 */
export function OrdersTab() {
  const bridge = useBridge()
  const status = useOrdersPage((state) => state.status)
  const creatorShop = useOrdersPage((state) => state.creatorShop)
  const needsAttention = useOrdersPage((state) => state.needsAttention)
  const search = useOrdersPage((state) => state.search)
  const [query] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS)

  // A new filter is a new loader, and so a fresh list from its first page.
  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<CursorPage<CreatorOrderSummary>> => {
      const { orders, nextCursor } = await bridge.invoke('adminCreatorOrders', {
        ...(status && { status }),
        ...(creatorShop && { creatorShop }),
        ...(needsAttention && { needsAttention: 'true' as const }),
        ...(query && { q: query }),
        ...(cursor && { cursor }),
        limit: PAGE_LIMIT.default,
      })
      return { items: orders, nextCursor }
    },
    [bridge, status, creatorShop, needsAttention, query],
  )

  // A hold or a release changes an order's readiness: its row shows the order as read again, and
  // every page read so far stays, with the scroll. Should that read fail, the list is read again.
  const list = useRef<{
    refresh?: () => void
    update?: (change: (order: CreatorOrderSummary) => CreatorOrderSummary) => void
  }>({})
  const refreshOn = useCallback((refresh: () => void) => {
    list.current.refresh = refresh
    return () => {
      delete list.current.refresh
    }
  }, [])
  const updateOn = useCallback(
    (update: (change: (order: CreatorOrderSummary) => CreatorOrderSummary) => void) => {
      list.current.update = update
      return () => {
        delete list.current.update
      }
    },
    [],
  )
  const onHoldChanged = useCallback<OrderChanged>((orderId, now) => {
    if (now) list.current.update?.((order) => (order.id === orderId ? now : order))
    else list.current.refresh?.()
  }, [])

  return (
    <>
      <OrderFilters />
      <OrderHoldsProvider onChanged={onHoldChanged}>
        <PagedTable
          table={ORDERS_TABLE}
          fetchPage={fetchPage}
          refreshOn={refreshOn}
          updateOn={updateOn}
        />
      </OrderHoldsProvider>
    </>
  )
}

function OrderFilters() {
  const status = useOrdersPage((state) => state.status)
  const creatorShop = useOrdersPage((state) => state.creatorShop)
  const needsAttention = useOrdersPage((state) => state.needsAttention)
  const search = useOrdersPage((state) => state.search)
  const setStatus = useOrdersPage((state) => state.setStatus)
  const setCreatorShop = useOrdersPage((state) => state.setCreatorShop)
  const setNeedsAttention = useOrdersPage((state) => state.setNeedsAttention)
  const setSearch = useOrdersPage((state) => state.setSearch)
  const { remote: stores } = useStoreList()

  return (
    <Group align="flex-start" gap="sm" mb="md">
      <Select
        label="Transfer status"
        data={STATUS_OPTIONS}
        value={status ?? ALL}
        onChange={(value) => {
          const parsed = TransferStatus.safeParse(value)
          setStatus(parsed.success ? parsed.data : null)
        }}
        allowDeselect={false}
        w={{ base: '100%', xs: 180 }}
      />
      <StoreFilter
        label="Creator store"
        shopType="CREATOR"
        stores={stores}
        value={creatorShop}
        onChange={setCreatorShop}
      />
      <TextInput
        type="search"
        label="Search"
        placeholder="Search by order name or ID"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maxLength={SEARCH_MAX_LENGTH}
        w={{ base: '100%', xs: 280 }}
      />
      <Checkbox
        label="Needs attention"
        checked={needsAttention}
        onChange={(event) => setNeedsAttention(event.currentTarget.checked)}
        className={filters.besideFields}
      />
    </Group>
  )
}
