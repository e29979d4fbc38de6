import { useMemo } from 'react'
import {
  Box,
  Group,
  Select,
  Text,
  type ComboboxItem,
  type ComboboxParsedItem,
  type OptionsFilter,
  type SelectProps,
} from '@mantine/core'
import type { ShopType, Store } from '@shared/contract'
import { storeOption } from '@renderer/lib/format'
import { StoreTypeBadge } from './StoreTypeBadge'

/** Options in the open dropdown at most: a tab may hold thousands of stores. */
const OPTION_LIMIT = 50

interface StoreSelectorProps {
  stores: Store[]
  value: string | null
  onChange: (shop: string | null) => void
  /** Each option with its Brand or Creator badge, for a list that holds both. */
  withType?: boolean
}

/** Narrows the table to one store, found by typing part of its name or host. */
export function StoreSelector({ stores, value, onChange, withType = false }: StoreSelectorProps) {
  const { options, filter } = useMemo(() => storeOptions(stores), [stores])
  const renderOption = useMemo(
    () => (withType ? optionWithType(stores) : undefined),
    [stores, withType],
  )
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
      renderOption={renderOption}
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

/** An option as its store's name with the store's type beside it. */
function optionWithType(stores: Store[]): SelectProps['renderOption'] {
  const types = new Map<string, ShopType>(stores.map((store) => [store.shop, store.shopType]))
  return function renderStoreOption({ option }) {
    const shopType = types.get(option.value)
    return (
      <Group justify="space-between" wrap="nowrap" gap="xs" w="100%">
        <Text size="sm" truncate>
          {option.label}
        </Text>
        {shopType && (
          // The name gives way to the badge, which is short and always whole.
          <Box style={{ flexShrink: 0 }}>
            <StoreTypeBadge shopType={shopType} />
          </Box>
        )}
      </Group>
    )
  }
}
