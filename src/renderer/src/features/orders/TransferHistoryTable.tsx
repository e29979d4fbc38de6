import { memo } from 'react'
import { Paper, Table, Text } from '@mantine/core'
import type { BrandTransferRecord, OrderTransferRecord, SettledAmounts } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { formatDateTime, formatMoney, storeName } from '@renderer/lib/format'
import { LOAD_AHEAD } from './OrdersTable'
import { TransferStatusBadge } from './TransferStatusBadge'
import classes from './Orders.module.css'
import { useVirtualRows } from '@renderer/lib/virtual-rows'

/** A transfer's summary row, and each of its brands' rows, as first guessed before measuring. */
const SUMMARY_HEIGHT = 48
const BRANDS_HEADER_HEIGHT = 36
const BRAND_ROW_HEIGHT = 36

const SUMMARY_COLUMNS = 5
const BRAND_COLUMNS = 9

/** Frozen rates are percentages (10 means 10 %), shown in the reader's locale: "10%", "12.5%". */
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 })
const formatRate = (rate: number) => percent.format(rate / 100)

/** A first guess of a transfer's height; the virtualizer measures each one once it is drawn. */
const estimateHeight = (transfer: OrderTransferRecord | undefined) => {
  const brands = transfer?.brands ?? []
  const failures = brands.filter((brand) => brand.failedMessage).length
  return SUMMARY_HEIGHT + BRANDS_HEADER_HEIGHT + (brands.length + failures) * BRAND_ROW_HEIGHT + 16
}

interface TransferHistoryTableProps {
  transfers: OrderTransferRecord[]
  hasMore: boolean
  canLoadMore: boolean
  onLoadMore: () => void
}

/**
 * Processed and partial transfers, each with its brands' frozen rates and amounts beneath it.
 * Virtualized like the orders: each transfer is a row group (its own tbody) measured once drawn,
 * since transfers differ in their number of brands; spacer groups stand in for the rest.
 */
export function TransferHistoryTable({
  transfers,
  hasMore,
  canLoadMore,
  onLoadMore,
}: TransferHistoryTableProps) {
  const { scrollRef, visible, spaceAbove, spaceBelow, measureElement } =
    useVirtualRows<HTMLDivElement>({
      count: transfers.length,
      estimateSize: (index) => estimateHeight(transfers[index]),
      getItemKey: (index) => transfers[index]?.creatorOrderId ?? index,
      loadMore: { enabled: canLoadMore, ahead: LOAD_AHEAD, load: onLoadMore },
    })

  return (
    <Paper withBorder ref={scrollRef} className={classes.scroller}>
      <Table
        stickyHeader
        layout="fixed"
        className={classes.historyTable}
        aria-label="Transfer history"
        // Two rows a transfer: its summary and its brands. -1 while more are on the server.
        aria-rowcount={hasMore ? -1 : transfers.length * 2 + 1}
      >
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th w="7rem">Order</Table.Th>
            <Table.Th>Creator store</Table.Th>
            <Table.Th w="7.5rem">Status</Table.Th>
            <Table.Th>Processed by</Table.Th>
            <Table.Th w="18rem">Processed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        {spaceAbove > 0 && <SpacerGroup height={spaceAbove} />}
        {visible.map(({ index, key }) => {
          const transfer = transfers[index]
          return (
            transfer && (
              <Table.Tbody key={key} ref={measureElement} data-index={index}>
                <TransferRows transfer={transfer} rowIndex={index * 2 + 2} />
              </Table.Tbody>
            )
          )
        })}
        {spaceBelow > 0 && <SpacerGroup height={spaceBelow} />}
      </Table>
    </Paper>
  )
}

/** Stands in for the transfers above or below the drawn ones. */
function SpacerGroup({ height }: { height: number }) {
  return (
    <tbody aria-hidden>
      <tr style={{ height }} />
    </tbody>
  )
}

/**
 * When the transfer was processed; for one still under way, "Partial — started {date}" (a partial
 * transfer is not processed, whenever it was last tried).
 */
function processedText(transfer: OrderTransferRecord): string {
  if (transfer.status === 'PARTIAL') {
    return `Partial — started ${formatDateTime(transfer.startedAt)}`
  }
  return transfer.processedAt ? formatDateTime(transfer.processedAt) : '—'
}

/**
 * Memoized: scrolling re-renders the table, and a transfer already in view need not be drawn
 * again.
 */
const TransferRows = memo(function TransferRows({
  transfer,
  rowIndex,
}: {
  transfer: OrderTransferRecord
  rowIndex: number
}) {
  const processed = processedText(transfer)
  return (
    <>
      <Table.Tr className={classes.historySummary} aria-rowindex={rowIndex}>
        <Table.Td>
          <Text size="sm" fw={500} truncate title={transfer.creatorOrderId}>
            {transfer.creatorOrderId}
          </Text>
        </Table.Td>
        <Table.Td>
          <Text size="sm" truncate title={transfer.creatorStoreShop}>
            {storeName(transfer.creatorStoreShop)}
          </Text>
        </Table.Td>
        <Table.Td>
          <TransferStatusBadge status={transfer.status} />
        </Table.Td>
        <Table.Td>
          <Text size="sm" truncate title={transfer.processedBy ?? undefined}>
            {transfer.processedBy ?? '—'}
          </Text>
        </Table.Td>
        <Table.Td>
          {/* Wraps rather than cut "Partial — started …" short: each transfer is measured. */}
          <Text size="sm">{processed}</Text>
        </Table.Td>
      </Table.Tr>
      <Table.Tr aria-rowindex={rowIndex + 1}>
        <Table.Td colSpan={SUMMARY_COLUMNS} className={classes.historyBrands}>
          <BrandsTable transfer={transfer} />
        </Table.Td>
      </Table.Tr>
    </>
  )
})

/** Each brand of a transfer, with the rates and amounts frozen when the transfer began. */
function BrandsTable({ transfer }: { transfer: OrderTransferRecord }) {
  return (
    <Table
      layout="fixed"
      fz="xs"
      verticalSpacing={6}
      horizontalSpacing="xs"
      withRowBorders={false}
      aria-label={`Brands of order ${transfer.creatorOrderId}`}
    >
      <Table.Thead>
        <Table.Tr>
          {/* Fixed widths: the brands of every transfer line up under one another. */}
          <Table.Th w="15%">Brand store</Table.Th>
          <Table.Th w="17%">Brand order</Table.Th>
          <Table.Th w="7%" ta="right">
            {PRODUCT_NAME} rate
          </Table.Th>
          <Table.Th w="7%" ta="right">
            Creator rate
          </Table.Th>
          <Table.Th w="9%" ta="right">
            Base
          </Table.Th>
          <Table.Th w="9%" ta="right">
            Brand amount
          </Table.Th>
          <Table.Th w="9%" ta="right">
            Creator commission
          </Table.Th>
          <Table.Th w="9%" ta="right">
            {PRODUCT_NAME} commission
          </Table.Th>
          <Table.Th w="18%">Stripe transfer</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {transfer.brands.map((brand) => (
          <BrandRows key={brand.brandStoreShop} brand={brand} currency={transfer.currency} />
        ))}
      </Table.Tbody>
    </Table>
  )
}

function BrandRows({ brand, currency }: { brand: BrandTransferRecord; currency: string }) {
  const money = (amount: string) => formatMoney(amount, currency)
  // The charge settled in another currency: what each figure came to there, as Stripe moved it.
  const settlement = brand.settlement?.currency === currency ? null : brand.settlement
  const settled = (pick: (amounts: SettledAmounts) => string) =>
    settlement && (
      <Text size="xs" c="dimmed">
        {formatMoney(pick(settlement), settlement.currency)}
      </Text>
    )
  return (
    <>
      <Table.Tr>
        <Table.Td>{storeName(brand.brandStoreShop)}</Table.Td>
        <Table.Td className={classes.id} c={brand.brandOrderId ? undefined : 'dimmed'}>
          {brand.brandOrderId ?? 'pending'}
        </Table.Td>
        <Table.Td ta="right">{formatRate(brand.tandemCommissionRate)}</Table.Td>
        <Table.Td ta="right">{formatRate(brand.creatorCommissionRate)}</Table.Td>
        <Table.Td ta="right">{money(brand.baseAmount)}</Table.Td>
        <Table.Td ta="right">
          {money(brand.brandAmount)}
          {settled((amounts) => amounts.brandAmount)}
        </Table.Td>
        <Table.Td ta="right">
          {money(brand.creatorCommissionAmount)}
          {settled((amounts) => amounts.creatorCommissionAmount)}
        </Table.Td>
        <Table.Td ta="right">
          {money(brand.tandemCommissionAmount)}
          {settled((amounts) => amounts.tandemCommissionAmount)}
        </Table.Td>
        <Table.Td className={classes.id} c={brand.paymentTransferId ? undefined : 'dimmed'}>
          {brand.paymentTransferId ?? '—'}
          {settlement && (
            <Text size="xs" c="dimmed">
              {`1 ${currency} = ${settlement.exchangeRate} ${settlement.currency}`}
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
      {brand.failedMessage && (
        <Table.Tr>
          <Table.Td colSpan={BRAND_COLUMNS} pt={0}>
            <Text size="xs" c="red">
              Failed: {brand.failedMessage}
            </Text>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  )
}
