import { Checkbox, Group, Select, type ComboboxItem } from '@mantine/core'
import { FULFILLMENT_ORDER_STATUSES, FulfillmentOrderStatus } from '@shared/contract'
import { enumWords } from '@renderer/lib/format'
import { ALL, StoreFilter } from '@renderer/features/stores/StoreFilter'
import { useStoreList } from '@renderer/features/stores/useStoreList'
import filters from '@renderer/lib/filters.module.css'

/** What the shipments are narrowed to; null and false narrow nothing. */
export interface ShipmentFilter {
  status: FulfillmentOrderStatus | null
  brandShop: string | null
  creatorShop: string | null
  lateOnly: boolean
}

export const NO_FILTER: ShipmentFilter = {
  status: null,
  brandShop: null,
  creatorShop: null,
  lateOnly: false,
}

const STATUS_OPTIONS: ComboboxItem[] = [
  { value: ALL, label: 'Any status' },
  ...FULFILLMENT_ORDER_STATUSES.map((status) => ({ value: status, label: enumWords(status) })),
]

interface ShipmentFiltersProps {
  value: ShipmentFilter
  onChange: (filter: ShipmentFilter) => void
}

/** The shipments' filters: the brand's fulfillment status, the brand, the creator, late only. */
export function ShipmentFilters({ value, onChange }: ShipmentFiltersProps) {
  const { remote: stores } = useStoreList()
  const change = (changed: Partial<ShipmentFilter>) => onChange({ ...value, ...changed })

  return (
    <Group align="flex-start" gap="sm" mb="md">
      <Select
        label="Status"
        data={STATUS_OPTIONS}
        value={value.status ?? ALL}
        onChange={(status) => {
          const parsed = FulfillmentOrderStatus.safeParse(status)
          change({ status: parsed.success ? parsed.data : null })
        }}
        allowDeselect={false}
        w={{ base: '100%', xs: 180 }}
      />
      <StoreFilter
        label="Brand store"
        shopType="BRAND"
        stores={stores}
        value={value.brandShop}
        onChange={(brandShop) => change({ brandShop })}
      />
      <StoreFilter
        label="Creator store"
        shopType="CREATOR"
        stores={stores}
        value={value.creatorShop}
        onChange={(creatorShop) => change({ creatorShop })}
      />
      <Checkbox
        label="Late only"
        checked={value.lateOnly}
        onChange={(event) => change({ lateOnly: event.currentTarget.checked })}
        className={filters.besideFields}
      />
    </Group>
  )
}
