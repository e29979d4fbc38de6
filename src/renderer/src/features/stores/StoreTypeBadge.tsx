import { Badge } from '@mantine/core'
import type { ShopType } from '@shared/contract'

const TYPE_BADGES: Record<ShopType, { label: string; color: string }> = {
  BRAND: { label: 'Brand', color: 'indigo' },
  CREATOR: { label: 'Creator', color: 'teal' },
}

/** SPEC §2: "A badge shows Brand or Creator", written as such (Mantine capitalises by default). */
export function StoreTypeBadge({ shopType }: { shopType: ShopType }) {
  const { label, color } = TYPE_BADGES[shopType]
  return (
    <Badge variant="light" tt="none" color={color}>
      {label}
    </Badge>
  )
}
