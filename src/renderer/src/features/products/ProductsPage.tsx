import { useCallback, useEffect } from 'react'
import { Button, Center, Text } from '@mantine/core'
import { useSearchParams } from 'react-router'
import type { ProductSyncStatus, Store, StoreProduct } from '@shared/contract'
import { PAGE_LIMIT } from '@shared/contract'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { PageHeading } from '@renderer/app/PageHeading'
import { useBridge } from '@renderer/lib/bridge'
import { useCursorPages, type CursorPage } from '@renderer/lib/useCursorPages'
import { useRemote } from '@renderer/lib/useRemote'
import { StoreSelector } from '@renderer/features/stores/StoreSelector'
import { useStoresPage } from '@renderer/features/stores/stores-page-state'
import { followRunningSync } from '@renderer/features/stores/sync-products'
import { useStoreList } from '@renderer/features/stores/useStoreList'
import { ProductSync } from './ProductSync'
import { ProductTable } from './ProductTable'

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
      const { products, nextCursor } = await bridge.invoke('products/list', {
        storeShop: shop,
        ...(cursor === undefined ? {} : { cursor }),
        limit: PAGE_LIMIT.default,
      })
      return { items: products, nextCursor }
    },
    [bridge, shop],
  )
  const { pages, loadMore, retry, refresh } = useCursorPages(fetchPage)

  const loadStatus = useCallback(
    () => bridge.invoke('stores/syncStatus', { storeShop: shop }),
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

  // However a sync of this store ends, its products and status are read again.
  useEffect(
    () =>
      useStoresPage.subscribe((state, previous) => {
        if (previous.syncingShops.has(shop) && !state.syncingShops.has(shop)) {
          refresh()
          refreshStatus()
        }
      }),
    [shop, refresh, refreshStatus],
  )

  const more = pages.status === 'ready' ? pages.more : null
  // Scrolling near the end asks for the next page; after a failure only Retry does.
  const onEndReached = useCallback(() => {
    if (more?.status === 'idle') loadMore()
  }, [more, loadMore])

  return (
    <>
      <ProductSync shop={shop} status={status} />
      {pages.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {pages.status === 'failed' && <LoadFailure message={pages.message} onRetry={retry} />}
      {pages.status === 'ready' &&
        (pages.items.length === 0 && pages.nextCursor === null ? (
          <Text c="dimmed">No products synced for this store yet.</Text>
        ) : (
          <>
            <ProductTable
              products={pages.items}
              complete={pages.nextCursor === null}
              onEndReached={onEndReached}
            />
            {pages.more.status === 'failed' ? (
              <LoadFailure message={pages.more.message} onRetry={loadMore} />
            ) : (
              pages.nextCursor !== null && (
                <Center mt="md">
                  <Button
                    variant="default"
                    loading={pages.more.status === 'loading'}
                    onClick={loadMore}
                  >
                    Load more
                  </Button>
                </Center>
              )
            )}
          </>
        ))}
    </>
  )
}
