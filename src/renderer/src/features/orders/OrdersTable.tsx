import { memo } from 'react'
import { Button, Paper, Table, Text, VisuallyHidden } from '@mantine/core'
import { useNavigate } from 'react-router'
import type { CreatorOrderSummary } from '@shared/contract'
import { formatDateTime, formatMoney, storeName } from '@renderer/lib/format'
import { TransferStatusBadge } from './TransferStatusBadge'
import classes from './Orders.module.css'
import { useVirtualRows, VirtualBody } from '@renderer/lib/virtual-rows'

/** Every row is this tall, so that the virtualizer knows where each one is without measuring. */
const ROW_HEIGHT = 52
/** The next page is asked for once the rows in view come this close to the last one loaded. */
export const LOAD_AHEAD = 20

/** Where "Preview transfer" leads: the transfer page, which previews the order at once. */
export const previewPath = (orderId: string) =>
  `/main/create-order-transfer?creatorOrderId=${encodeURIComponent(orderId)}`

interface OrdersTableProps {
  orders: CreatorOrderSummary[]
  /** More orders are on the server (the table's row count is then unknown). */
  hasMore: boolean
  /** Whether scrolling near the end should read the next page now. */
  canLoadMore: boolean
  onLoadMore: () => void
}

/**
 * The creator orders loaded so far, virtualized like the stores table: only the rows in view (and
 * a few around them) are in the page, with spacer rows standing in for the rest, so 100,000 orders
 * scroll as smoothly as ten. Scrolling near the last one reads the next page.
 */
export function OrdersTable({ orders, hasMore, canLoadMore, onLoadMore }: OrdersTableProps) {
  const { scrollRef, ...rows } = useVirtualRows<HTMLDivElement>({
    count: orders.length,
    estimateSize: () => ROW_HEIGHT,
    loadMore: { enabled: canLoadMore, ahead: LOAD_AHEAD, load: onLoadMore },
  })

  return (
    <Paper withBorder ref={scrollRef} className={classes.scroller}>
      <Table
        stickyHeader
        highlightOnHover
        layout="fixed"
        className={classes.ordersTable}
        aria-label="Creator orders"
        // -1: the server holds more than are loaded, how many is unknown.
        aria-rowcount={hasMore ? -1 : orders.length + 1}
      >
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th w="6.5rem">Order</Table.Th>
            <Table.Th>Creator store</Table.Th>
            <Table.Th w="10.5rem">Created</Table.Th>
            <Table.Th w="7rem" ta="right">
              Total
            </Table.Th>
            <Table.Th w="7rem">Transfer</Table.Th>
            <Table.Th w="10.5rem">Processed</Table.Th>
            <Table.Th w="9.5rem">
              <VisuallyHidden>Preview</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <VirtualBody
          rows={rows}
          items={orders}
          row={(order, rowIndex) => <OrderRow key={order.id} order={order} rowIndex={rowIndex} />}
        />
      </Table>
    </Paper>
  )
}

/** Memoized: scrolling re-renders the table, and a row already in view need not be drawn again. */
const OrderRow = memo(function OrderRow({
  order,
  rowIndex,
}: {
  order: CreatorOrderSummary
  rowIndex: number
}) {
  const navigate = useNavigate()
  const store = storeName(order.creatorStoreShop)
  const created = formatDateTime(order.createdAt)
  const processed = order.processedAt ? formatDateTime(order.processedAt) : '—'

  return (
    <Table.Tr h={ROW_HEIGHT} aria-rowindex={rowIndex}>
      <Table.Td>
        <Text size="sm" fw={500} truncate title={`${order.name} (id ${order.id})`}>
          {order.name}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" truncate title={order.creatorStoreShop}>
          {store}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" truncate title={created}>
          {created}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm" truncate>
          {formatMoney(order.totalAmount, order.currency)}
        </Text>
      </Table.Td>
      <Table.Td>
        <TransferStatusBadge status={order.transferStatus} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" truncate title={processed} c={order.processedAt ? undefined : 'dimmed'}>
          {processed}
        </Text>
      </Table.Td>
      <Table.Td>
        <Button
          size="xs"
          variant="default"
          aria-label={`Preview transfer ${order.name}`}
          onClick={() => void navigate(previewPath(order.id))}
        >
          Preview transfer
        </Button>
      </Table.Td>
    </Table.Tr>
  )
})
