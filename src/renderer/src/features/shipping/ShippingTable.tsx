import { Group } from '@mantine/core'
import type { Shipment } from '@shared/contract'
import { formatDateTime, storeName } from '@renderer/lib/format'
import type { TableSpec } from '@renderer/lib/PagedTable'
import { IdText } from '@renderer/features/orders/IdText'
import { orderText, ShipmentDetail, shipmentHeight } from './ShipmentDetail'
import { FulfillmentOrderStatusBadge, LateBadge } from './shipping-badges'
import classes from './Shipping.module.css'

/**
 * The brand orders of transferred creator orders, newest transfer first, one a row: whose order,
 * which brand, where its shipping stands and whether it is late; beneath, what it shipped.
 */
export const SHIPMENTS_TABLE: TableSpec<Shipment> = {
  label: 'Shipments',
  empty: 'No shipments match.',
  noun: ['shipment', 'shipments'],
  columns: [
    {
      header: 'Order',
      width: '7rem',
      strong: true,
      text: orderText,
      title: (shipment) => `${orderText(shipment)} (id ${shipment.creatorOrderId})`,
    },
    // What a narrow window folds under the order: its store and when it was transferred.
    {
      header: 'Creator store',
      text: (shipment) => storeName(shipment.creatorStoreShop),
      title: (shipment) => shipment.creatorStoreShop,
      fold: true,
    },
    {
      header: 'Brand store',
      text: (shipment) => storeName(shipment.brandStoreShop),
      title: (shipment) => shipment.brandStoreShop,
    },
    {
      header: 'Brand order',
      width: '9.5rem',
      cell: (shipment) => <IdText id={shipment.brandOrderId} />,
    },
    {
      header: 'Transferred',
      width: '10.5rem',
      text: (shipment) => formatDateTime(shipment.transferredAt),
      fold: true,
    },
    {
      header: 'Status',
      width: '10rem',
      cell: (shipment) => (
        <Group gap={4} wrap="nowrap">
          <FulfillmentOrderStatusBadge
            status={shipment.fulfillmentOrderStatus}
            unseen={shipment.unseen !== null}
          />
          {shipment.late && <LateBadge />}
        </Group>
      ),
    },
  ],
  rowKey: (shipment) => shipment.brandOrderId,
  detail: {
    render: (shipment) => <ShipmentDetail shipment={shipment} />,
    estimateHeight: shipmentHeight,
  },
  // Below the page's heading, the late policy and the filters.
  heightAbove: '24rem',
  className: classes.shipmentsTable,
  highlightOnHover: true,
}
