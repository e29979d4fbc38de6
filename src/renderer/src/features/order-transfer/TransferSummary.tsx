import { Avatar, Badge, SimpleGrid, Stack, Table, Text } from '@mantine/core'
import { IconPhoto } from '@tabler/icons-react'
import type { CreatorOrder } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { formatDateTime, formatMoney, storeName } from '@renderer/lib/format'
import { IdText } from '@renderer/features/orders/IdText'
import { Fields } from '@renderer/app/Fields'
import { lineTitle } from './line-title'
import { MoneyTrailCard } from './MoneyTrailCard'
import { RefundSplitCard } from './RefundSplitCard'
import { SummaryCard, SummaryTable, useFoldedIds } from './SummaryCard'
import type { PreviewAnswer } from './useOrderTransfer'

/**
 * The Summary tab (docs/product-rules.md "The console's screens"): the creator order, its lines,
 * what each brand gets, the totals, and once processing began, the money trail (and once complete,
 * a refund's split before it runs).
 */
export function TransferSummary({ answer }: { answer: PreviewAnswer }) {
  const { creatorOrder, preview } = answer
  const money = (value: string | null | undefined) => formatMoney(value, preview.currency)
  const foldIds = useFoldedIds()
  // Folded, a table needs no more width than the window has: nothing scrolls out of sight.
  const minWidth = foldIds ? 0 : undefined

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SummaryCard title="Creator Order">
          <Fields
            fields={[
              ['Name', creatorOrder.name],
              ['ID', creatorOrder.id],
              ['Email', creatorOrder.email || '-'],
              ['Created', formatDateTime(creatorOrder.createdAt)],
              ['Subtotal', money(creatorOrder.currentSubtotalPriceSet.presentmentMoney.amount)],
              ['Shipping', money(creatorOrder.currentShippingPriceSet.presentmentMoney.amount)],
              ['Tax', money(creatorOrder.currentTotalTaxSet.presentmentMoney.amount)],
              ['Total', money(creatorOrder.currentTotalPriceSet.presentmentMoney.amount)],
              ['Shipping address', shippingLines(creatorOrder.shippingAddress)],
            ]}
          />
        </SummaryCard>
        <SummaryCard title="Totals">
          <Fields
            fields={[
              ['Total brand amount', money(preview.totals.totalBrandAmount)],
              ['Total creator commission', money(preview.totals.totalCreatorCommissionAmount)],
              [
                `Total ${PRODUCT_NAME.toLowerCase()} commission`,
                money(preview.totals.totalTandemCommissionAmount),
              ],
            ]}
          />
        </SummaryCard>
      </SimpleGrid>

      <SummaryCard title="Line Items">
        <SummaryTable
          columns={withoutIds(['Image', 'Title', 'ID', 'Quantity', 'Unit price', 'Total'], foldIds)}
          numericFrom={foldIds ? 2 : 3}
          minWidth={minWidth}
        >
          {creatorOrder.lineItems.nodes.map((line) => (
            <Table.Tr key={line.id}>
              <Table.Td>
                <Avatar src={line.image?.url} alt={lineTitle(line)} radius="sm" size={40}>
                  <IconPhoto size={20} aria-label="No image" />
                </Avatar>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{lineTitle(line)}</Text>
                {line.brandStoreShop ? (
                  <Text size="xs" c="dimmed">
                    From {storeName(line.brandStoreShop)}
                  </Text>
                ) : (
                  // docs/product-rules.md "Money and commission rules": the creator's own products
                  // are listed but not transferred.
                  <Badge size="xs" variant="light" color="gray">
                    Not from a brand
                  </Badge>
                )}
                {foldIds && <IdText id={line.id} size="xs" />}
              </Table.Td>
              {!foldIds && (
                <Table.Td>
                  {/* Shopify's id short, whole on hover, with a copy button: the title names it. */}
                  <IdText id={line.id} size="xs" />
                </Table.Td>
              )}
              <Table.Td ta="right">{line.quantity ?? line.currentQuantity ?? '-'}</Table.Td>
              <Table.Td ta="right">
                {money(line.originalUnitPriceSet.presentmentMoney.amount)}
              </Table.Td>
              <Table.Td ta="right">{money(line.originalTotalSet.presentmentMoney.amount)}</Table.Td>
            </Table.Tr>
          ))}
        </SummaryTable>
      </SummaryCard>

      <SummaryCard title="Brand Transfers">
        <SummaryTable
          columns={withoutIds(
            [
              'Brand store',
              'Brand order',
              'Brand amount',
              'Creator commission',
              `${PRODUCT_NAME} commission`,
            ],
            foldIds,
          )}
          numericFrom={foldIds ? 1 : 2}
          minWidth={minWidth}
        >
          {preview.brands.map((brand) => (
            <Table.Tr key={brand.brandStoreShop}>
              <Table.Td>
                <Text size="sm">{storeName(brand.brandStoreShop)}</Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {brand.brandStoreShop}
                </Text>
                {foldIds && brand.brandOrderId && <IdText id={brand.brandOrderId} size="xs" />}
              </Table.Td>
              {!foldIds && (
                <Table.Td>
                  {brand.brandOrderId ? <IdText id={brand.brandOrderId} size="xs" /> : '-'}
                </Table.Td>
              )}
              <Table.Td ta="right">{money(brand.brandAmount)}</Table.Td>
              <Table.Td ta="right">{money(brand.creatorCommissionAmount)}</Table.Td>
              <Table.Td ta="right">{money(brand.tandemCommissionAmount)}</Table.Td>
            </Table.Tr>
          ))}
        </SummaryTable>
      </SummaryCard>

      {/* Before processing nothing has moved, and the transfer has no trail to show. */}
      {preview.status !== 'NOT_STARTED' && (
        <MoneyTrailCard trail={preview.moneyTrail} waiting={preview.refundWaiting} />
      )}
      {/* Refunds give back only once the transfer is complete; before, they lower what it moves. */}
      {preview.status === 'COMPLETED' && <RefundSplitCard key={creatorOrder.id} answer={answer} />}
    </Stack>
  )
}

/** A table's columns but its ids' ("ID", "Brand order"), when they fold under the names. */
const withoutIds = (columns: string[], foldIds: boolean) =>
  foldIds ? columns.filter((column) => column !== 'ID' && column !== 'Brand order') : columns

/** A Shopify id, in full: in a narrow window it breaks anywhere rather than widen its table. */
/** The address as on an envelope: name, street, city and zip, country; "-" when there is none. */
function shippingLines(address: CreatorOrder['shippingAddress']): string {
  if (!address) return '-'
  const line = (...parts: (string | null)[]) => parts.filter(Boolean).join(' ')
  const lines = [
    line(address.firstName, address.lastName),
    line(address.address1),
    line(address.city, address.zip),
    line(address.country),
  ].filter(Boolean)
  return lines.length > 0 ? lines.join('\n') : '-'
}
