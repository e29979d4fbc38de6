import {
  IconAlertTriangle,
  IconBuildingStore,
  IconPackage,
  IconReceipt,
  IconSettings,
  IconTransfer,
  IconTruckDelivery,
  type Icon,
} from '@tabler/icons-react'

interface Section {
  /** The path under /main. */
  path: string
  /** The sidebar link's text; each page writes its own heading, which should say the same. */
  label: string
  icon: Icon
}

export const SECTIONS: readonly Section[] = [
  { path: 'stores', label: 'Stores', icon: IconBuildingStore },
  { path: 'products', label: 'Products', icon: IconPackage },
  { path: 'orders', label: 'Orders', icon: IconReceipt },
  { path: 'shipping', label: 'Shipping', icon: IconTruckDelivery },
  { path: 'configs', label: 'Configs', icon: IconSettings },
  { path: 'create-order-transfer', label: 'Create Order Transfer', icon: IconTransfer },
  { path: 'jobs', label: 'Jobs', icon: IconAlertTriangle },
]
