import { Tabs } from '@mantine/core'
import { PageHeading } from '@renderer/app/PageHeading'
import { useOrdersPage, type OrdersTab as OrdersTabName } from './orders-page-state'
import { OrdersTab } from './OrdersTab'
import { TransferHistoryTab } from './TransferHistoryTab'

/** /main/orders: the creator orders and where their transfers stand, and the transfers made. */
export default function OrdersPage() {
  const tab = useOrdersPage((state) => state.tab)
  const setTab = useOrdersPage((state) => state.setTab)

  return (
    <>
      <PageHeading>Orders</PageHeading>
      <Tabs
        value={tab}
        onChange={(value) => setTab(value === 'history' ? 'history' : 'orders')}
        // Each tab reads its list when it opens.
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value={'orders' satisfies OrdersTabName}>Orders</Tabs.Tab>
          <Tabs.Tab value={'history' satisfies OrdersTabName}>Transfer history</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="orders">
          <OrdersTab />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <TransferHistoryTab />
        </Tabs.Panel>
      </Tabs>
    </>
  )
}
