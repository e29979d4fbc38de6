import {
  createContext,
  Fragment,
  memo,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
  type RefObject,
} from 'react'
import { Group, Paper, Table, Text } from '@mantine/core'
import { ProductThumbnail } from '@renderer/app/ProductThumbnail'
import { Paged, type Loaded, type PagedProps } from './Paged'
import { useVirtualRows, VirtualBody, VirtualGroups } from './virtual-rows'
import classes from './PagedTable.module.css'

/** Unless a table says otherwise: the next page is asked for this many rows before the last one. */
const LOAD_AHEAD = 20
/** Narrower than this (px, 60rem), a table folds its foldable columns into its first one. */
const NARROW_WIDTH = 960

interface ColumnLayout {
  /** The header cell: its text, or a VisuallyHidden name over a column of buttons. */
  header: ReactNode
  /** Any CSS width; a column without one takes what the others leave. */
  width?: string | number
  /** Amounts line up on the right, header and cells alike. */
  align?: 'right'
  /** A class for the header and every cell of the column (a ledger's number style). */
  className?: string
}

/**
 * A column of one line of text, as most are: cut short at the column's edge and shown whole on
 * hover, so that a long name never makes its row taller than the others.
 */
interface TextColumn<Item> extends ColumnLayout {
  text: (item: Item) => string
  /** What hovering shows when it is not the text itself (a store's host for its name), if any. */
  title?: (item: Item) => string | undefined
  /** The column that names the row: a little bolder. */
  strong?: boolean
  /**
   * A thumbnail before the text (a product's picture); null shows a placeholder. Decorative:
   * the text beside it names the row, so a screen reader does not hear it twice.
   */
  image?: (item: Item) => string | null
  /**
   * In a narrow table (below NARROW_WIDTH), the column hides and its text shows under the first
   * column's, so that what matters stays in view without scrolling sideways.
   */
  fold?: boolean
  cell?: never
}

/** A column drawn some other way: a badge, a button, text that wraps. */
interface CellColumn<Item> extends ColumnLayout {
  cell: (item: Item) => ReactNode
  text?: never
  fold?: never
}

export type Column<Item> = TextColumn<Item> | CellColumn<Item>

/** Beneath each item's row, a second one across every column (a transfer's brands). */
export interface Detail<Item> {
  render: (item: Item) => ReactNode
  /** A first guess of an item's height, both rows; each item is measured once it is drawn. */
  estimateHeight: (item: Item) => number
}

/** How an item's rows are laid out: exactly one of the two. */
type Rows<Item> =
  | {
      /** Every item is one row this tall (px): the virtualizer places rows without measuring. */
      rowHeight: number
      detail?: never
    }
  | { rowHeight?: never; detail: Detail<Item> }

/**
 * What a table is, apart from where its rows come from: a module constant, since rows are memoized
 * and new columns (or a new detail) would draw every row again at each scroll.
 */
export type TableSpec<Item> = Pick<PagedProps<Item>, 'empty' | 'noun'> &
  Rows<Item> & {
    /** The table's accessible name: "Creator orders". */
    label: string
    /** Left to right. */
    columns: readonly Column<Item>[]
    /** What tells items apart, for the virtualizer's measurements. */
    rowKey: (item: Item) => string
    /** How much of the window's height the page takes above the table (heading, tabs, filters). */
    heightAbove: string
    /** Rows ahead of the last one loaded at which scrolling asks for the next page. */
    loadAhead?: number
    /**
     * For the table element: a minimum width, say, below which it scrolls sideways. A narrow
     * table has the attribute data-narrow, for a width it keeps only when wide.
     */
    className?: string
    highlightOnHover?: boolean
  }

export interface PagedTableProps<Item> extends Pick<
  PagedProps<Item>,
  'fetchPage' | 'refreshOn' | 'updateOn'
> {
  table: TableSpec<Item>
}

/**
 * A list read a page at a time, as a table: Paged's loading, failure, empty text and "Load more"
 * around a virtualized table. Only the rows in view (and a few around them) are in the page, with
 * spacers for the rest, so that 100,000 rows scroll as smoothly as ten; aria-rowcount and
 * aria-rowindex tell assistive technology about the others. Scrolling near the last row loaded
 * reads the next page.
 */
export function PagedTable<Item>({ table, fetchPage, refreshOn, updateOn }: PagedTableProps<Item>) {
  return (
    <Paged
      fetchPage={fetchPage}
      refreshOn={refreshOn}
      updateOn={updateOn}
      empty={table.empty}
      noun={table.noun}
    >
      {(loaded) => <LoadedTable table={table} loaded={loaded} />}
    </Paged>
  )
}

function LoadedTable<Item>({ table, loaded }: { table: TableSpec<Item>; loaded: Loaded<Item> }) {
  const { columns, detail, rowHeight, rowKey } = table
  const { items, complete } = loaded
  // A table with details has two rows an item: the item's own and its detail's.
  const rowsPerItem = detail ? 2 : 1

  const estimateSize = useCallback(
    (index: number) => {
      const item = items[index]
      return detail && item !== undefined ? detail.estimateHeight(item) : (rowHeight ?? 0)
    },
    [items, detail, rowHeight],
  )
  // Measured items keep their height by key as pages arrive; fixed-height rows need no key.
  const itemKey = useCallback(
    (index: number) => {
      const item = items[index]
      return item === undefined ? index : rowKey(item)
    },
    [items, rowKey],
  )
  const { scrollRef, ...rows } = useVirtualRows<HTMLDivElement>({
    count: items.length,
    estimateSize,
    getItemKey: detail ? itemKey : undefined,
    loadMore: {
      enabled: loaded.canLoadMore,
      ahead: table.loadAhead ?? LOAD_AHEAD,
      load: loaded.loadMore,
    },
  })

  const narrow = useNarrow(scrollRef)
  const [shown, folded] = useMemo(
    () =>
      narrow ? [columns.filter((c) => !c.fold), columns.filter((c) => c.fold)] : [columns, []],
    [columns, narrow],
  )
  // What every item's rows share; memoized rows compare these by identity.
  const shared = { columns: shown, folded, height: rowHeight, detail: detail?.render }

  return (
    <Paper
      withBorder
      ref={scrollRef}
      className={classes.scroller}
      style={{ '--paged-table-above': table.heightAbove }}
    >
      <NarrowTable.Provider value={narrow}>
        <Table
          stickyHeader
          highlightOnHover={table.highlightOnHover}
          layout="fixed"
          className={table.className}
          data-narrow={narrow || undefined}
          aria-label={table.label}
          // -1: the server holds more than are loaded, how many is unknown.
          aria-rowcount={complete ? items.length * rowsPerItem + 1 : -1}
        >
          <Table.Thead>
            <Table.Tr aria-rowindex={1}>
              {shown.map((column, index) => (
                <Table.Th
                  key={index}
                  // The first column, holding the folded ones too, takes what the others leave.
                  w={index === 0 && folded.length > 0 ? undefined : column.width}
                  ta={column.align}
                  className={column.className}
                >
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          {detail ? (
            <VirtualGroups
              rows={rows}
              items={items}
              // The header is row 1; then each item's two rows.
              group={(item, index) => <ItemRows {...shared} item={item} rowIndex={index * 2 + 2} />}
            />
          ) : (
            <VirtualBody
              rows={rows}
              items={items}
              row={(item, rowIndex) => (
                <ItemRows key={rowKey(item)} {...shared} item={item} rowIndex={rowIndex} />
              )}
            />
          )}
        </Table>
      </NarrowTable.Provider>
    </Paper>
  )
}

interface ItemRowsProps<Item> {
  item: Item
  rowIndex: number
  columns: readonly Column<Item>[]
  /** The columns folded into the first one's cell, while the table is narrow. */
  folded: readonly Column<Item>[]
  height: number | undefined
  detail: ((item: Item) => ReactNode) | undefined
}

/**
 * Memoized: scrolling re-renders the table, and an item already in view need not be drawn again.
 * (The cast gives back the type parameter that memo's typing drops.)
 */
const ItemRows = memo(function ItemRows<Item>({
  item,
  rowIndex,
  columns,
  folded,
  height,
  detail,
}: ItemRowsProps<Item>) {
  return (
    <>
      <Table.Tr h={height} aria-rowindex={rowIndex} className={detail && classes.withDetail}>
        {columns.map((column, index) => (
          <Table.Td key={index} ta={column.align} className={column.className}>
            {cellOf(column, item)}
            {index === 0 && folded.length > 0 && (
              // Whole: the line wraps between the folded values (a date is never cut short).
              <Text size="xs" c="dimmed" lh={1.2}>
                {folded.map((column, at) => (
                  <Fragment key={at}>
                    {at > 0 && ' · '}
                    <span className={classes.folded}>{column.text?.(item)}</span>
                  </Fragment>
                ))}
              </Text>
            )}
          </Table.Td>
        ))}
      </Table.Tr>
      {detail && (
        <Table.Tr aria-rowindex={rowIndex + 1}>
          <Table.Td colSpan={columns.length} className={classes.detail}>
            {detail(item)}
          </Table.Td>
        </Table.Tr>
      )}
    </>
  )
}) as <Item>(props: ItemRowsProps<Item>) => ReactNode

const NarrowTable = createContext(false)

/**
 * Whether the paged table drawing this is narrow (below NARROW_WIDTH): an item's detail folds its
 * less needed columns as the table's own rows do.
 */
export const useNarrowTable = () => useContext(NarrowTable)

/** Whether the scroller is narrower than NARROW_WIDTH; not while its width is unknown (0). */
function useNarrow(scrollRef: RefObject<HTMLElement | null>): boolean {
  const [narrow, setNarrow] = useState(false)
  useEffect(() => {
    const scroller = scrollRef.current
    if (!scroller) return
    const observer = new ResizeObserver(() => {
      const width = scroller.clientWidth
      setNarrow(width > 0 && width < NARROW_WIDTH)
    })
    observer.observe(scroller)
    return () => observer.disconnect()
  }, [scrollRef])
  return narrow
}

function cellOf<Item>(column: Column<Item>, item: Item): ReactNode {
  if (column.cell) return column.cell(item)
  const text = column.text(item)
  const line = (
    <Text
      size="sm"
      fw={column.strong ? 500 : undefined}
      truncate
      title={column.title ? column.title(item) : text}
    >
      {text}
    </Text>
  )
  if (!column.image) return line
  return (
    <Group gap="sm" wrap="nowrap">
      <ProductThumbnail src={column.image(item)} />
      {line}
    </Group>
  )
}
