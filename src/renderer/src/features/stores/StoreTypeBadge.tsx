import { Badge } from '@mantine/core'
import type { ShopType } from '@shared/contract'

const TYPE_BADGES: Record<ShopType, { label: string; color: string }> = {
  BRAND: { label: 'Brand', color: 'indigo' },
  CREATOR: { label: 'Creator', color: 'teal' },
}

/** A "Brand" or "Creator" badge (docs/product-rules.md "The console's screens"), written as such
 * (Mantine capitalises by default). */
export function StoreTypeBadge({ shopType }: { shopType: ShopType }) {
  const { label, color } = TYPE_BADGES[shopType]
  return (
    <Badge variant="light" color={color}>
      {label}
    </Badge>
  )
}
