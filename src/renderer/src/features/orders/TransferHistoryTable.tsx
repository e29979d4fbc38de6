import { Table, Text } from '@mantine/core'
import type { BrandTransferRecord, OrderTransferRecord, SettledAmounts } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { EMPTY, formatDateTime, formatMoney, formatRate, storeName } from '@renderer/lib/format'
import { useNarrowTable, type TableSpec } from '@renderer/lib/PagedTable'
import { afterSaleText } from '@renderer/features/order-transfer/money-trail-text'
import { IdText } from './IdText'
import { TransferStatusBadge } from './TransferStatusBadge'
import classes from './Orders.module.css'

/** A transfer's summary row, and each of its brands' rows, as first guessed before measuring. */
const SUMMARY_HEIGHT = 48
const BRANDS_HEADER_HEIGHT = 36
const BRAND_ROW_HEIGHT = 36

/** The brands table's columns, wide and folded. */
const BRAND_COLUMNS = { wide: 9, narrow: 5 }

/**
 * When the transfer was processed; for one still under way, "Partial — started {date}" (a partial
 * transfer is not processed, whenever it was last tried).
 */
function processedText(transfer: OrderTransferRecord): string {
  if (transfer.status === 'PARTIAL') {
    return `Partial — started ${formatDateTime(transfer.startedAt)}`
  }
  return formatDateTime(transfer.processedAt)
}

/**
 * Processed and partial transfers, newest first, each with its brands' frozen rates and amounts
 * beneath it, and what refunds took back since. Transfers differ in their number of brands: each is measured once drawn.
 */
export const TRANSFER_HISTORY_TABLE: TableSpec<OrderTransferRecord> = {
  label: 'Transfer history',
  empty: 'No transfers yet.',
  noun: ['transfer', 'transfers'],
  // The summary row; the brands are its detail.
  columns: [
    // The order as Orders names it (#1005); its id where Tandem never read its name.
    {
      header: 'Order',
      width: '8rem',
      cell: (transfer) =>
        transfer.creatorOrderName ? (
          <Text size="sm" title={`Order id ${transfer.creatorOrderId}`}>
            {transfer.creatorOrderName}
          </Text>
        ) : (
          <IdText id={transfer.creatorOrderId} />
        ),
    },
    {
      header: 'Creator store',
      text: (transfer) => storeName(transfer.creatorStoreShop),
      title: (transfer) => transfer.creatorStoreShop,
      fold: true,
    },
    {
      header: 'Status',
      width: '7.5rem',
      cell: (transfer) => <TransferStatusBadge status={transfer.status} />,
    },
    {
      header: 'Processed by',
      text: (transfer) => transfer.processedBy ?? EMPTY,
      title: (transfer) => transfer.processedBy ?? undefined,
      fold: true,
    },
    {
      header: 'Processed',
      width: '18rem',
      // Wraps rather than cut "Partial — started …" short: each transfer is measured.
      cell: (transfer) => <Text size="sm">{processedText(transfer)}</Text>,
    },
  ],
  rowKey: (transfer) => transfer.creatorOrderId,
  detail: {
    render: (transfer) => (
      <>
        <BrandsTable transfer={transfer} />
        <AfterSale transfer={transfer} />
      </>
    ),
    estimateHeight: (transfer) => {
      const failures = transfer.brands.filter((brand) => brand.failedMessage).length
      const afterSale = afterSaleText(transfer.moneyTrail) === null ? 0 : 1
      return (
        SUMMARY_HEIGHT +
        BRANDS_HEADER_HEIGHT +
        (transfer.brands.length + failures + afterSale) * BRAND_ROW_HEIGHT +
        16
      )
    },
  },
  // Below the page's heading, its tabs and the export button.
  heightAbove: '21rem',
  className: classes.historyTable,
}

/**
 * What refunds took back from the parties after the transfer, and what they still owe; the
 * transfer screen's money trail has each movement with its Stripe id.
 */
function AfterSale({ transfer }: { transfer: OrderTransferRecord }) {
  const text = afterSaleText(transfer.moneyTrail)
  return (
    text && (
      <Text size="xs" px="xs" pb={6}>
        {text}
      </Text>
    )
  )
}

/** Each brand of a transfer, with the rates and amounts frozen when the transfer began. */
function BrandsTable({ transfer }: { transfer: OrderTransferRecord }) {
  // In a narrow window the rates, base and commissions fold under the brand's name.
  const narrow = useNarrowTable()
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
          <Table.Th w={narrow ? '30%' : '15%'}>Brand store</Table.Th>
          <Table.Th w={narrow ? '25%' : '17%'}>Brand order</Table.Th>
          {!narrow && (
            <>
              <Table.Th w="7%" ta="right">
                {PRODUCT_NAME} rate
              </Table.Th>
              <Table.Th w="7%" ta="right">
                Creator rate
              </Table.Th>
              <Table.Th w="9%" ta="right">
                Base
              </Table.Th>
            </>
          )}
          <Table.Th w={narrow ? '18%' : '9%'} ta="right">
            Brand amount
          </Table.Th>
          {!narrow && (
            <>
              <Table.Th w="9%" ta="right">
                Creator commission
              </Table.Th>
              <Table.Th w="9%" ta="right">
                {PRODUCT_NAME} commission
              </Table.Th>
            </>
          )}
          <Table.Th w={narrow ? '27%' : '18%'}>Stripe transfer</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {transfer.brands.map((brand) => (
          <BrandRows
            key={brand.brandStoreShop}
            brand={brand}
            currency={transfer.currency}
            narrow={narrow}
          />
        ))}
      </Table.Tbody>
    </Table>
  )
}

interface BrandRowsProps {
  brand: BrandTransferRecord
  currency: string
  narrow: boolean
}

function BrandRows({ brand, currency, narrow }: BrandRowsProps) {
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
        <Table.Td>
          {storeName(brand.brandStoreShop)}
          {narrow && (
            <Text size="xs" c="dimmed">
              {`Rates ${formatRate(brand.tandemCommissionRate)} / ${formatRate(brand.creatorCommissionRate)} · base ${money(brand.baseAmount)} · commissions ${money(brand.creatorCommissionAmount)} / ${money(brand.tandemCommissionAmount)}`}
            </Text>
          )}
        </Table.Td>
        <Table.Td c={brand.brandOrderId ? undefined : 'dimmed'}>
          {brand.brandOrderId ? <IdText id={brand.brandOrderId} size="xs" /> : 'pending'}
        </Table.Td>
        {!narrow && (
          <>
            <Table.Td ta="right">{formatRate(brand.tandemCommissionRate)}</Table.Td>
            <Table.Td ta="right">{formatRate(brand.creatorCommissionRate)}</Table.Td>
            <Table.Td ta="right">{money(brand.baseAmount)}</Table.Td>
          </>
        )}
        <Table.Td ta="right">
          {money(brand.brandAmount)}
          {settled((amounts) => amounts.brandAmount)}
        </Table.Td>
        {!narrow && (
          <>
            <Table.Td ta="right">
              {money(brand.creatorCommissionAmount)}
              {settled((amounts) => amounts.creatorCommissionAmount)}
            </Table.Td>
            <Table.Td ta="right">
              {money(brand.tandemCommissionAmount)}
              {settled((amounts) => amounts.tandemCommissionAmount)}
            </Table.Td>
          </>
        )}
        <Table.Td c={brand.paymentTransferId ? undefined : 'dimmed'}>
          {brand.paymentTransferId ? <IdText id={brand.paymentTransferId} size="xs" /> : EMPTY}
          {settlement && (
            <Text size="xs" c="dimmed">
              {`1 ${currency} = ${settlement.exchangeRate} ${settlement.currency}`}
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
      {brand.failedMessage && (
        <Table.Tr>
          <Table.Td colSpan={narrow ? BRAND_COLUMNS.narrow : BRAND_COLUMNS.wide} pt={0}>
            <Text size="xs" c="red">
              Failed: {brand.failedMessage}
            </Text>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  )
}
