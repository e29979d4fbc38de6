import { useCallback, useEffect } from 'react'
import { Text } from '@mantine/core'
import { useSearchParams } from 'react-router'
import type { ProductSyncStatus, Store, StoreProduct } from '@shared/contract'
import { PAGE_LIMIT } from '@shared/contract'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { PageHeading } from '@renderer/app/PageHeading'
import { useBridge } from '@renderer/lib/bridge'
import { PagedTable } from '@renderer/lib/PagedTable'
import type { CursorPage } from '@renderer/lib/useCursorPages'
import { useRemote } from '@renderer/lib/useRemote'
import { StoreSelector } from '@renderer/features/stores/StoreSelector'
import { useStoresPage } from '@renderer/features/stores/stores-page-state'
import { followRunningSync } from '@renderer/features/stores/sync-products'
import { useStoreList } from '@renderer/features/stores/useStoreList'
import { ProductSync } from './ProductSync'
import { PRODUCT_TABLE } from './ProductTable'

/** The query parameter that names the chosen store, so that a reload keeps it. */
const STORE_PARAM = 'store'

/** /main/products: a store chosen among all of them, and that store's synced products. */
export default function ProductsPage() {
  const { remote: stores, retry } = useStoreList()
  const [params, setParams] = useSearchParams()
  const chosen = params.get(STORE_PARAM)

  const choose = (shop: string | null) =>
    setParams(shop === null ? {} : { [STORE_PARAM]: shop }, { replace: true })

  return (
    <>
      <PageHeading>Products</PageHeading>
      {stores.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {stores.status === 'failed' && <LoadFailure message={stores.message} onRetry={retry} />}
      {stores.status === 'ready' && (
        <ChosenStore stores={stores.value} chosen={chosen} onChoose={choose} />
      )}
    </>
  )
}

interface ChosenStoreProps {
  stores: Store[]
  chosen: string | null
  onChoose: (shop: string | null) => void
}

function ChosenStore({ stores, chosen, onChoose }: ChosenStoreProps) {
  // A store named in an old address may be gone; then none is chosen.
  const store = stores.find((candidate) => candidate.shop === chosen) ?? null
  return (
    <>
      <StoreSelector stores={stores} value={store?.shop ?? null} onChange={onChoose} withType />
      {store === null ? (
        <Text c="dimmed">Choose a store to see its products.</Text>
      ) : (
        // One per store: another store starts afresh, and what the last one awaited is ignored.
        <StoreProducts key={store.shop} shop={store.shop} />
      )}
    </>
  )
}

function StoreProducts({ shop }: { shop: string }) {
  const bridge = useBridge()

  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<CursorPage<StoreProduct>> => {
      const { products, nextCursor } = await bridge.invoke('adminStoreProducts', {
        storeShop: shop,
        ...(cursor === undefined ? {} : { cursor }),
        limit: PAGE_LIMIT.default,
      })
      return { items: products, nextCursor }
    },
    [bridge, shop],
  )

  const loadStatus = useCallback(
    () => bridge.invoke('adminProductSyncStatus', { storeShop: shop }),
    [bridge, shop],
  )
  // A sync found running (from another window, or before a reload) is followed like one started
  // here; one this window already follows is left to it.
  const onStatus = useCallback(
    (status: ProductSyncStatus) => {
      if (status.state === 'RUNNING') void followRunningSync(bridge, status)
    },
    [bridge],
  )
  const { remote: status, refresh: refreshStatus } = useRemote(loadStatus, onStatus)

  // However a sync of this store ends, its products (the table subscribes) and status are read
  // again.
  const onSyncEnd = useCallback(
    (then: () => void) =>
      useStoresPage.subscribe((state, previous) => {
        if (previous.syncingShops.has(shop) && !state.syncingShops.has(shop)) then()
      }),
    [shop],
  )
  useEffect(() => onSyncEnd(refreshStatus), [onSyncEnd, refreshStatus])

  return (
    <>
      <ProductSync shop={shop} status={status} />
      <PagedTable table={PRODUCT_TABLE} fetchPage={fetchPage} refreshOn={onSyncEnd} />
    </>
  )
}
