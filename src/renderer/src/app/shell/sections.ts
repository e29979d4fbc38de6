import {
  IconAlertTriangle,
  IconBuildingStore,
  IconFlask,
  IconPackage,
  IconReceipt,
  IconSettings,
  IconTransfer,
  IconTruckDelivery,
  type Icon,
} from '@tabler/icons-react'
import type { ComponentType } from 'react'
import { AttentionCountBadge } from '@renderer/features/orders/attention-count'

interface Section {
  /** The path under /main. */
  path: string
  /** The sidebar link's text; each page writes its own heading, which should say the same. */
  label: string
  icon: Icon
  /** What the link shows at its end, if anything: a count of what waits there. */
  badge?: ComponentType
}

export const SECTIONS: readonly Section[] = [
  { path: 'stores', label: 'Stores', icon: IconBuildingStore },
  { path: 'products', label: 'Products', icon: IconPackage },
  { path: 'orders', label: 'Orders', icon: IconReceipt, badge: AttentionCountBadge },
  { path: 'shipping', label: 'Shipping', icon: IconTruckDelivery },
  { path: 'configs', label: 'Configs', icon: IconSettings },
  { path: 'create-order-transfer', label: 'Create Order Transfer', icon: IconTransfer },
  { path: 'jobs', label: 'Jobs', icon: IconAlertTriangle },
  // The local stack's controls (features/sandbox): not in an installable build.
  ...(__TANDEM_SANDBOX_CONTROLS__ ? [{ path: 'sandbox', label: 'Sandbox', icon: IconFlask }] : []),
]
