import { useEffect } from 'react'
import { Tabs } from '@mantine/core'
import { PageHeading } from '@renderer/app/PageHeading'
import { useBridge } from '@renderer/lib/bridge'
import { refreshAttentionCount } from './attention-count'
import { useOrdersPage, type OrdersTab as OrdersTabName } from './orders-page-state'
import { OrdersTab } from './OrdersTab'
import { TransferHistoryTab } from './TransferHistoryTab'
import { TransferPolicyTab } from './TransferPolicyTab'

const TABS: readonly OrdersTabName[] = ['orders', 'history', 'policy']

/**
 * /main/orders: the creator orders and where their transfers stand, the transfers made, and the
 * policy that decides which orders transfer by themselves.
 */
export default function OrdersPage() {
  const tab = useOrdersPage((state) => state.tab)
  const setTab = useOrdersPage((state) => state.setTab)
  const bridge = useBridge()
  // The sidebar's count agrees with the inbox the administrator is about to read.
  useEffect(() => void refreshAttentionCount(bridge), [bridge])

  return (
    <>
      <PageHeading>Orders</PageHeading>
      <Tabs
        value={tab}
        onChange={(value) => setTab(TABS.find((name) => name === value) ?? 'orders')}
        // Each tab reads its list when it opens.
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value={'orders' satisfies OrdersTabName}>Orders</Tabs.Tab>
          <Tabs.Tab value={'history' satisfies OrdersTabName}>Transfer history</Tabs.Tab>
          <Tabs.Tab value={'policy' satisfies OrdersTabName}>Transfer policy</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="orders">
          <OrdersTab />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <TransferHistoryTab />
        </Tabs.Panel>
        <Tabs.Panel value="policy">
          <TransferPolicyTab />
        </Tabs.Panel>
      </Tabs>
    </>
  )
}
