import { useMemo } from 'react'
import { Select } from '@mantine/core'
import type { ShopType, Store } from '@shared/contract'
import { storeName, storeOption } from '@renderer/lib/format'
import type { Remote } from '@renderer/lib/useRemote'

/** The option of a filter's Select that narrows nothing (Mantine's options need a non-empty value). */
export const ALL = 'ALL'
/** Options in the open dropdown at most: there may be thousands of stores of a type. */
const OPTION_LIMIT = 50

const ALL_LABELS: Readonly<Record<ShopType, string>> = {
  BRAND: 'All brand stores',
  CREATOR: 'All creator stores',
}

interface StoreFilterProps {
  label: string
  /** The stores offered: those of this type among all stores (useStoreList). */
  shopType: ShopType
  stores: Remote<Store[]>
  /** The store chosen, or null for all. */
  value: string | null
  onChange: (shop: string | null) => void
}

/** Narrows a list to one store of a type, found by typing part of its name. */
export function StoreFilter({ label, shopType, stores, value, onChange }: StoreFilterProps) {
  const options = useMemo(() => {
    const ofType =
      stores.status === 'ready'
        ? stores.value.filter((store) => store.shopType === shopType).map(storeOption)
        : []
    // A store chosen before the list was read (or gone from it since) still shows by name.
    if (value && !ofType.some((option) => option.value === value)) {
      ofType.unshift({ value, label: storeName(value) })
    }
    return [{ value: ALL, label: ALL_LABELS[shopType] }, ...ofType]
  }, [stores, shopType, value])

  return (
    <Select
      label={label}
      data={options}
      value={value ?? ALL}
      onChange={(chosen) => onChange(chosen && chosen !== ALL ? chosen : null)}
      allowDeselect={false}
      searchable
      limit={OPTION_LIMIT}
      nothingFoundMessage="Not found..."
      // The list still shows without the stores: the dropdown says why it offers none.
      error={stores.status === 'failed' ? stores.message : undefined}
      w={{ base: '100%', xs: 240 }}
    />
  )
}
