import { useCallback, useMemo, useRef } from 'react'
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
import { storeName, storeOption } from '@renderer/lib/format'
import { useStoreList } from '@renderer/features/stores/useStoreList'
import { OrderHoldsProvider, type OrderChanged } from './order-holds'
import { useOrdersPage } from './orders-page-state'
import { ORDERS_TABLE } from './OrdersTable'
import { TRANSFER_STATUS_LABELS } from './TransferStatusBadge'
import classes from './Orders.module.css'

/** How long the search waits for typing to pause before it reads the list again. */
export const SEARCH_DELAY_MS = 250
/** The contract's longest search. */
const SEARCH_MAX_LENGTH = 100
/** Options in the open creator dropdown at most: there may be thousands of creators. */
const OPTION_LIMIT = 50
/** The option that narrows nothing (Mantine's options need a non-empty value). */
const ALL = 'ALL'

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

  const creatorOptions = useMemo(() => {
    const creators =
      stores.status === 'ready'
        ? stores.value.filter((store) => store.shopType === 'CREATOR').map(storeOption)
        : []
    // A store chosen before the list was read (or gone from it since) still shows by name.
    if (creatorShop && !creators.some((option) => option.value === creatorShop)) {
      creators.unshift({ value: creatorShop, label: storeName(creatorShop) })
    }
    return [{ value: ALL, label: 'All creator stores' }, ...creators]
  }, [stores, creatorShop])

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
      <Select
        label="Creator store"
        data={creatorOptions}
        value={creatorShop ?? ALL}
        onChange={(value) => setCreatorShop(value && value !== ALL ? value : null)}
        allowDeselect={false}
        searchable
        limit={OPTION_LIMIT}
        nothingFoundMessage="Not found..."
        // The orders still list without the creators: the dropdown says why it offers none.
        error={stores.status === 'failed' ? stores.message : undefined}
        w={{ base: '100%', xs: 240 }}
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
        className={classes.attentionFilter}
      />
    </Group>
  )
}
