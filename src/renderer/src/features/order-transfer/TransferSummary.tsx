import type { ReactNode } from 'react'
import { Avatar, Badge, Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { IconPhoto } from '@tabler/icons-react'
import type { CreatorOrder, LineItem, MoneyMovement } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { EMPTY, formatDateTime, formatMoney, storeName } from '@renderer/lib/format'
import { Fields } from '@renderer/app/Fields'
import { IdText } from '@renderer/features/orders/IdText'
import { movementAmount, movementText } from './money-trail-text'
import type { PreviewAnswer } from './useOrderTransfer'

/**
 * The Summary tab (docs/product-rules.md "The console's screens"): the creator order, its lines,
 * what each brand gets, the totals, and once processing began, the money trail.
 */
export function TransferSummary({ answer }: { answer: PreviewAnswer }) {
  const { creatorOrder, preview } = answer
  const money = (value: string | null | undefined) => formatMoney(value, preview.currency)

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
          columns={['Image', 'Title', 'ID', 'Quantity', 'Unit price', 'Total']}
          numericFrom={3}
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
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace">
                  {line.id}
                </Text>
              </Table.Td>
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
          columns={[
            'Brand store',
            'Brand order',
            'Brand amount',
            'Creator commission',
            `${PRODUCT_NAME} commission`,
          ]}
          numericFrom={2}
        >
          {preview.brands.map((brand) => (
            <Table.Tr key={brand.brandStoreShop}>
              <Table.Td>
                <Text size="sm">{storeName(brand.brandStoreShop)}</Text>
                <Text size="xs" c="dimmed">
                  {brand.brandStoreShop}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace">
                  {brand.brandOrderId ?? '-'}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{money(brand.brandAmount)}</Table.Td>
              <Table.Td ta="right">{money(brand.creatorCommissionAmount)}</Table.Td>
              <Table.Td ta="right">{money(brand.tandemCommissionAmount)}</Table.Td>
            </Table.Tr>
          ))}
        </SummaryTable>
      </SummaryCard>

      {/* Before processing nothing has moved, and the transfer has no trail to show. */}
      {preview.status !== 'NOT_STARTED' && <MoneyTrailCard trail={preview.moneyTrail} />}
    </Stack>
  )
}

/**
 * Every movement of the order's money since its transfer began (issue 33), oldest first: each
 * party's transfer, what refunds took back and what a party still owes, with Stripe's ids.
 */
function MoneyTrailCard({ trail }: { trail: MoneyMovement[] }) {
  return (
    <SummaryCard title="Money trail">
      {trail.length === 0 ? (
        <Text c="dimmed">No money has moved yet.</Text>
      ) : (
        // Its sentences wrap: it fits a 700 px window whole, amounts and all.
        <SummaryTable
          columns={['When', 'What happened', 'Stripe ID', 'Amount']}
          numericFrom={3}
          minWidth={560}
        >
          {trail.map((movement) => (
            <Table.Tr
              key={`${movement.kind}-${movement.storeShop}-${movement.at}-${movement.stripeId}`}
            >
              <Table.Td>
                {/* On one line: the moments of a trail line up under one another. */}
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(movement.at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{movementText(movement)}</Text>
              </Table.Td>
              <Table.Td>
                {movement.stripeId ? <IdText id={movement.stripeId} size="xs" /> : EMPTY}
              </Table.Td>
              <Table.Td ta="right">{movementAmount(movement)}</Table.Td>
            </Table.Tr>
          ))}
        </SummaryTable>
      )}
    </SummaryCard>
  )
}

function SummaryCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  )
}

/** A card's table, scrolling sideways in a narrow window; amounts line up on the right. */
function SummaryTable({
  columns,
  numericFrom,
  minWidth = 640,
  children,
}: {
  columns: string[]
  /** The first column of figures: it and those after it align right. */
  numericFrom: number
  /** Below this width, in pixels, the table scrolls sideways. */
  minWidth?: number
  children: ReactNode
}) {
  return (
    // In a narrow window the table scrolls sideways: a keyboard reaches what is off to the side
    // by focusing the scrolling area, then the arrow keys.
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th key={column} ta={index >= numericFrom ? 'right' : undefined}>
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

// docs/product-rules.md "The console's screens": a line has a title or else a name, a quantity or
// else a current quantity.
const lineTitle = (line: LineItem): string => line.title ?? line.name ?? '-'

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
