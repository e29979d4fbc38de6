import { useCallback, useState } from 'react'
import { PAGE_LIMIT, type Shipment } from '@shared/contract'
import { PageHeading } from '@renderer/app/PageHeading'
import { useBridge } from '@renderer/lib/bridge'
import { PagedTable } from '@renderer/lib/PagedTable'
import type { CursorPage } from '@renderer/lib/useCursorPages'
import { useListRefresh } from '@renderer/lib/useListRefresh'
import { NO_FILTER, ShipmentFilters, type ShipmentFilter } from './ShipmentFilters'
import { SHIPMENTS_TABLE } from './ShippingTable'
import { ShippingPolicySection } from './ShippingPolicySection'

/**
 * /main/shipping: what each brand of a transferred order shipped, and whether the creator's order
 * shows it, narrowed by status, store and lateness; above, the policy that says when an order is
 * late.
 */
export default function ShippingPage() {
  const bridge = useBridge()
  const [filter, setFilter] = useState<ShipmentFilter>(NO_FILTER)

  // A new filter is a new loader, and so a fresh list from its first page.
  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<CursorPage<Shipment>> => {
      const { status, brandShop, creatorShop, lateOnly } = filter
      const { shipments, nextCursor } = await bridge.invoke('adminShipments', {
        ...(status && { status }),
        ...(brandShop && { brandShop }),
        ...(creatorShop && { creatorShop }),
        ...(lateOnly && { late: 'true' as const }),
        ...(cursor && { cursor }),
        limit: PAGE_LIMIT.default,
      })
      return { items: shipments, nextCursor }
    },
    [bridge, filter],
  )
  // A new policy changes which orders are late: the list is read again.
  const { refreshOn, refreshList } = useListRefresh()

  return (
    <>
      <PageHeading>Shipping</PageHeading>
      <ShippingPolicySection onSaved={refreshList} />
      <ShipmentFilters value={filter} onChange={setFilter} />
      <PagedTable table={SHIPMENTS_TABLE} fetchPage={fetchPage} refreshOn={refreshOn} />
    </>
  )
}
