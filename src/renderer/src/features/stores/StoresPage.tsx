import { LoadFailure } from '@renderer/app/LoadFailure'
import { useMemo } from 'react'
import { Tabs, Text } from '@mantine/core'
import type { ShopType, Store } from '@shared/contract'
import { PageHeading } from '@renderer/app/PageHeading'
import { useStoresPage } from './stores-page-state'
import { StoreSelector } from './StoreSelector'
import { StoreTable } from './StoreTable'
import type { Remote } from '@renderer/lib/useRemote'
import { useStoreList } from './useStoreList'

const TABS: { type: ShopType; label: string; empty: string }[] = [
  { type: 'BRAND', label: 'Brands', empty: 'No brand stores yet.' },
  { type: 'CREATOR', label: 'Creators', empty: 'No creator stores yet.' },
]

/** /main/stores: brand and creator stores in two tabs, each narrowed by a store selector. */
export default function StoresPage() {
  const { remote: stores, retry } = useStoreList()
  const tab = useStoresPage((state) => state.tab)
  const setTab = useStoresPage((state) => state.setTab)

  return (
    <>
      <PageHeading>Stores</PageHeading>
      <Tabs
        value={tab}
        onChange={(value) => setTab(value === 'CREATOR' ? 'CREATOR' : 'BRAND')}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {TABS.map(({ type, label }) => (
            <Tabs.Tab key={type} value={type}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map(({ type, empty }) => (
          <Tabs.Panel key={type} value={type}>
            <StoreTab stores={stores} onRetry={retry} type={type} empty={empty} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  )
}

interface StoreTabProps {
  stores: Remote<Store[]>
  onRetry: () => void
  type: ShopType
  empty: string
}

function StoreTab({ stores, onRetry, type, empty }: StoreTabProps) {
  if (stores.status === 'loading') return <Text c="dimmed">Loading...</Text>
  if (stores.status === 'failed') return <LoadFailure message={stores.message} onRetry={onRetry} />
  return <LoadedStoreTab stores={stores.value} type={type} empty={empty} />
}

function LoadedStoreTab({
  stores,
  type,
  empty,
}: {
  stores: Store[]
  type: ShopType
  empty: string
}) {
  const ofType = useMemo(() => stores.filter((store) => store.shopType === type), [stores, type])
  const selectedShop = useStoresPage((state) => state.selectedShop[type])
  const selectShop = useStoresPage((state) => state.selectShop)
  // A store chosen before the list was read again may be gone; then the whole tab shows.
  const selected = ofType.find((store) => store.shop === selectedShop) ?? null
  const shown = useMemo(() => (selected ? [selected] : ofType), [selected, ofType])

  if (ofType.length === 0) return <Text c="dimmed">{empty}</Text>
  return (
    <>
      <StoreSelector
        stores={ofType}
        value={selected?.shop ?? null}
        onChange={(shop) => selectShop(type, shop)}
      />
      <StoreTable stores={shown} />
    </>
  )
}
