import { Button, Text, VisuallyHidden } from '@mantine/core'
import { useNavigate } from 'react-router'
import type { CreatorOrderSummary } from '@shared/contract'
import { consolePaths } from '@shared/contract/names'
import { formatDateTime, formatMoney, storeName } from '@renderer/lib/format'
import type { TableSpec } from '@renderer/lib/PagedTable'
import { ReadinessWithHold } from './order-holds'
import { readinessHeight } from './ReadinessLine'
import { TransferStatusBadge } from './TransferStatusBadge'
import classes from './Orders.module.css'

/** An order's own row, as first guessed before measuring; its readiness goes beneath it. */
const ROW_HEIGHT = 48

/** Where "Preview transfer" and "View transfer" lead: the transfer page, which previews at once. */
export const previewPath = consolePaths.order

/**
 * The creator orders read so far, newest first; scrolling near the last one reads the next page.
 * Under each order, across the columns, what will happen to it and what stops it: a brand's
 * reasons to need attention are sentences, and wrap there rather than in a narrow cell.
 */
export const ORDERS_TABLE: TableSpec<CreatorOrderSummary> = {
  label: 'Creator orders',
  empty: 'No orders match.',
  noun: ['order', 'orders'],
  columns: [
    {
      header: 'Order',
      width: '6.5rem',
      strong: true,
      text: (order) => order.name,
      title: (order) => `${order.name} (id ${order.id})`,
    },
    // What a narrow window folds under the order: store, creation and processing.
    {
      header: 'Creator store',
      text: (order) => storeName(order.creatorStoreShop),
      title: (order) => order.creatorStoreShop,
      fold: true,
    },
    {
      header: 'Created',
      width: '10.5rem',
      text: (order) => formatDateTime(order.createdAt),
      fold: true,
    },
    {
      header: 'Total',
      width: '7rem',
      align: 'right',
      // No hover: the amount is never cut short.
      cell: (order) => (
        <Text size="sm" truncate>
          {formatMoney(order.totalAmount, order.currency)}
        </Text>
      ),
    },
    {
      header: 'Transfer',
      width: '7rem',
      cell: (order) => <TransferStatusBadge status={order.transferStatus} />,
    },
    {
      header: 'Processed',
      width: '10.5rem',
      text: (order) => formatDateTime(order.processedAt),
      fold: true,
    },
    {
      header: <VisuallyHidden>Transfer</VisuallyHidden>,
      width: '9.5rem',
      cell: (order) => <TransferButton order={order} />,
    },
  ],
  rowKey: (order) => order.id,
  detail: {
    render: (order) => <ReadinessWithHold order={order} />,
    estimateHeight: (order) => ROW_HEIGHT + readinessHeight(order.readiness),
  },
  // Below the page's heading, its tabs and the filters.
  heightAbove: '21rem',
  className: classes.ordersTable,
  highlightOnHover: true,
}

/** A processed order's transfer is only to be looked at; any other is previewed, then processed. */
function TransferButton({ order }: { order: CreatorOrderSummary }) {
  const navigate = useNavigate()
  const label = order.transferStatus === 'COMPLETED' ? 'View transfer' : 'Preview transfer'
  return (
    <Button
      size="xs"
      variant="default"
      aria-label={`${label} ${order.name}`}
      onClick={() => void navigate(previewPath(order.id))}
    >
      {label}
    </Button>
  )
}
