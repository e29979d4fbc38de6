import { Badge, Paper, Table, Text } from '@mantine/core'
import type { KnownProductStatus, StoreProduct } from '@shared/contract'
import { formatMoney } from '@renderer/lib/format'
import classes from './ProductTable.module.css'
import { useVirtualRows, VirtualBody } from '@renderer/lib/virtual-rows'

/** Every row is this tall, so that the virtualizer knows where each one is without measuring. */
const ROW_HEIGHT = 48
/** The next page is asked for once the rendered rows come this close to the last one. */
const END_MARGIN = 5

const STATUS_BADGES: Record<KnownProductStatus, { label: string; color: string }> = {
  ACTIVE: { label: 'Active', color: 'green' },
  UNLISTED: { label: 'Unlisted', color: 'blue' },
  DRAFT: { label: 'Draft', color: 'gray' },
  ARCHIVED: { label: 'Archived', color: 'orange' },
}

const isKnown = (status: string): status is KnownProductStatus =>
  Object.hasOwn(STATUS_BADGES, status)

/** A status Shopify added after this console was built, shown as its words: PRE_ORDER → Pre order. */
function badgeOf(status: string) {
  if (isKnown(status)) return STATUS_BADGES[status]
  const words = status.toLowerCase().replaceAll('_', ' ')
  return { label: words.charAt(0).toUpperCase() + words.slice(1), color: 'gray' }
}

const count = new Intl.NumberFormat('en-US')

interface ProductTableProps {
  products: StoreProduct[]
  /** False while the server has more pages: the table then cannot say how many rows it has. */
  complete: boolean
  /** Called when the rows near the end come into view. */
  onEndReached: () => void
}

/**
 * A store's products. Only the rows in view (and a few around them) are in the page, with spacer
 * rows for the rest, so that 100,000 products scroll as smoothly as ten; as in the stores table,
 * aria-rowcount and aria-rowindex tell assistive technology about the others.
 */
export function ProductTable({ products, complete, onEndReached }: ProductTableProps) {
  const { scrollRef, ...rows } = useVirtualRows<HTMLDivElement>({
    count: products.length,
    estimateSize: () => ROW_HEIGHT,
    loadMore: { enabled: true, ahead: END_MARGIN, load: onEndReached },
  })

  return (
    <Paper withBorder ref={scrollRef} className={classes.scroller}>
      <Table
        stickyHeader
        layout="fixed"
        aria-label="Products"
        // -1: the total is not known until the last page has come.
        aria-rowcount={complete ? products.length + 1 : -1}
      >
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            {/* The title takes what the others leave; they fit their content. */}
            <Table.Th>Title</Table.Th>
            <Table.Th w={104}>Status</Table.Th>
            <Table.Th w={84} className={classes.number}>
              Variants
            </Table.Th>
            <Table.Th w={116} className={classes.number}>
              Price
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <VirtualBody
          rows={rows}
          items={products}
          row={(product, rowIndex) => (
            <ProductRow key={product.id} product={product} rowIndex={rowIndex} />
          )}
        />
      </Table>
    </Paper>
  )
}

function ProductRow({ product, rowIndex }: { product: StoreProduct; rowIndex: number }) {
  const badge = badgeOf(product.status)
  return (
    <Table.Tr h={ROW_HEIGHT} aria-rowindex={rowIndex}>
      <Table.Td>
        <Text size="sm" fw={500} truncate title={product.title}>
          {product.title}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" tt="none" color={badge.color}>
          {badge.label}
        </Badge>
      </Table.Td>
      <Table.Td className={classes.number}>
        <Text size="sm">{count.format(product.variantCount)}</Text>
      </Table.Td>
      <Table.Td className={classes.number}>
        <Text size="sm" truncate title={formatMoney(product.price, product.currency)}>
          {formatMoney(product.price, product.currency)}
        </Text>
      </Table.Td>
    </Table.Tr>
  )
}
