import { Badge, Text } from '@mantine/core'
import type { KnownProductStatus, StoreProduct } from '@shared/contract'
import { enumWords, formatMoney } from '@renderer/lib/format'
import type { TableSpec } from '@renderer/lib/PagedTable'
import classes from './ProductTable.module.css'

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

/**
 * A product's status as its badge shows it; one Shopify added after this console was built, as its
 * words: PRE_ORDER → Pre order.
 */
export function productStatusBadge(status: string) {
  if (isKnown(status)) return STATUS_BADGES[status]
  return { label: enumWords(status), color: 'gray' }
}

const count = new Intl.NumberFormat('en-US')

/** A store's products, by title, read a page at a time as the person scrolls or asks for more. */
export const PRODUCT_TABLE: TableSpec<StoreProduct> = {
  label: 'Products',
  empty: 'No products synced for this store yet.',
  // The title takes what the others leave; they fit their content.
  columns: [
    {
      header: 'Title',
      strong: true,
      text: (product) => product.title,
      image: (product) => product.imageUrl,
    },
    {
      header: 'Status',
      width: 104,
      cell: (product) => {
        const badge = productStatusBadge(product.status)
        return (
          <Badge variant="light" color={badge.color}>
            {badge.label}
          </Badge>
        )
      },
    },
    {
      header: 'Variants',
      width: 84,
      className: classes.number,
      cell: (product) => <Text size="sm">{count.format(product.variantCount)}</Text>,
    },
    {
      header: 'Price',
      width: 116,
      className: classes.number,
      text: (product) => formatMoney(product.price, product.currency),
    },
  ],
  rowKey: (product) => product.id,
  rowHeight: ROW_HEIGHT,
  loadAhead: END_MARGIN,
  // Below the page's heading, the store selector and the sync line.
  heightAbove: '19rem',
}
