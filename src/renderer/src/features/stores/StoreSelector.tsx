import { useMemo } from 'react'
import {
  Select,
  type ComboboxItem,
  type ComboboxParsedItem,
  type OptionsFilter,
} from '@mantine/core'
import type { Store } from '@shared/contract'
import { storeOption } from '@renderer/lib/format'

/** Options in the open dropdown at most: a tab may hold thousands of stores. */
const OPTION_LIMIT = 50

interface StoreSelectorProps {
  stores: Store[]
  value: string | null
  onChange: (shop: string | null) => void
}

/** Narrows the table to one store, found by typing part of its name or host. */
export function StoreSelector({ stores, value, onChange }: StoreSelectorProps) {
  const { options, filter } = useMemo(() => storeOptions(stores), [stores])
  return (
    <Select
      aria-label="Store"
      placeholder="Select store..."
      nothingFoundMessage="Not found..."
      searchable
      clearable
      // Mantine hides its clear button from the keyboard and screen readers; this one is a button
      // like any other, so that the narrowing can be undone without a mouse.
      clearButtonProps={{ 'aria-label': 'Clear store', 'aria-hidden': false, tabIndex: 0 }}
      data={options}
      filter={filter}
      limit={OPTION_LIMIT}
      value={value}
      onChange={onChange}
      maw={360}
      mb="md"
    />
  )
}

/**
 * The options and a filter that stays cheap per keystroke with thousands of them: each option's
 * text is lower-cased once here, and the scan stops at the limit instead of matching every store.
 */
function storeOptions(stores: Store[]): { options: ComboboxItem[]; filter: OptionsFilter } {
  const options = stores.map(storeOption)
  // Name or host: people say "maya makes" but may paste "maya-makes.myshopify.com".
  const searchText = new Map(
    options.map((option) => [option.value, `${option.label} ${option.value}`.toLowerCase()]),
  )
  const filter: OptionsFilter = ({ options: candidates, search, limit }) => {
    const query = search.trim().toLowerCase()
    const found: ComboboxParsedItem[] = []
    for (const candidate of candidates) {
      if (found.length === limit) break
      if ('value' in candidate && searchText.get(candidate.value)?.includes(query)) {
        found.push(candidate)
      }
    }
    return found
  }
  return { options, filter }
}
