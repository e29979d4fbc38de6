import { useEffect, useRef, type ReactNode } from 'react'
import { Table } from '@mantine/core'
import { useVirtualizer } from '@tanstack/react-virtual'

// The console's long tables (stores, orders, transfers, products) are virtualized the same way:
// only the rows in view (and a few around them) are in the page, with spacers standing in for the
// rest, so that 100,000 rows scroll as smoothly as ten. Tables that load by pages ask for the next
// one as the rows in view come near the last loaded.

/** Rows rendered beyond each edge of the window, so that fast scrolling shows no blank rows. */
const OVERSCAN = 10

interface VirtualRowsOptions {
  count: number
  /** Each row's height, or an estimate the rendered rows correct (see `measureElement`). */
  estimateSize: (index: number) => number
  getItemKey?: (index: number) => string | number
  /** For paged tables: called once the rows in view come within `ahead` rows of the last one. */
  loadMore?: { enabled: boolean; ahead: number; load: () => void }
}

export function useVirtualRows<Scroller extends HTMLElement>(options: VirtualRowsOptions) {
  const scrollRef = useRef<Scroller>(null)
  // The warning is about React Compiler memoization, which this app does not use, and nothing
  // memoized is handed the virtualizer's functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: options.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: options.estimateSize,
    getItemKey: options.getItemKey,
    overscan: OVERSCAN,
  })
  const visible = virtualizer.getVirtualItems()
  const lastRendered = visible.at(-1)?.index ?? -1
  const nearEnd =
    options.loadMore !== undefined && lastRendered >= options.count - 1 - options.loadMore.ahead
  const enabled = options.loadMore?.enabled ?? false
  const load = options.loadMore?.load

  useEffect(() => {
    if (enabled && nearEnd) load?.()
  }, [enabled, nearEnd, load])

  return {
    scrollRef,
    visible,
    measureElement: virtualizer.measureElement,
    spaceAbove: visible[0]?.start ?? 0,
    spaceBelow: virtualizer.getTotalSize() - (visible.at(-1)?.end ?? 0),
  }
}

/**
 * Stands in for the rows above or below the rendered ones. Without cells, so that it adds no
 * column when one is hidden; Chromium gives a cell-less row its height all the same.
 */
export function SpacerRow({ height }: { height: number }) {
  return <tr aria-hidden style={{ height }} />
}

/**
 * The body of a virtualized table of fixed-height rows: the rendered rows between their spacers.
 * `row` draws one item (with its key) as the table's row `rowIndex` (the header is row 1).
 */
export function VirtualBody<Item>(props: {
  rows: Pick<ReturnType<typeof useVirtualRows>, 'visible' | 'spaceAbove' | 'spaceBelow'>
  items: readonly Item[]
  row: (item: Item, rowIndex: number) => ReactNode
}) {
  const { visible, spaceAbove, spaceBelow } = props.rows
  return (
    <Table.Tbody>
      {spaceAbove > 0 && <SpacerRow height={spaceAbove} />}
      {visible.map(({ index }) => {
        const item = props.items[index]
        // The virtualizer counts the same items it was given, so every index has one.
        return item === undefined ? null : props.row(item, index + 2)
      })}
      {spaceBelow > 0 && <SpacerRow height={spaceBelow} />}
    </Table.Tbody>
  )
}

/**
 * The bodies of a virtualized table whose items differ in height (a transfer and its brands): each
 * rendered item is a row group of its own, measured once drawn, between spacer groups. `group`
 * draws the rows of the item at `index`.
 */
export function VirtualGroups<Item>(props: {
  rows: Pick<
    ReturnType<typeof useVirtualRows>,
    'visible' | 'spaceAbove' | 'spaceBelow' | 'measureElement'
  >
  items: readonly Item[]
  group: (item: Item, index: number) => ReactNode
}) {
  const { visible, spaceAbove, spaceBelow, measureElement } = props.rows
  return (
    <>
      {spaceAbove > 0 && <SpacerGroup height={spaceAbove} />}
      {visible.map(({ index, key }) => {
        const item = props.items[index]
        return (
          item !== undefined && (
            <Table.Tbody key={key} ref={measureElement} data-index={index}>
              {props.group(item, index)}
            </Table.Tbody>
          )
        )
      })}
      {spaceBelow > 0 && <SpacerGroup height={spaceBelow} />}
    </>
  )
}

/** Stands in for the row groups above or below the drawn ones. */
function SpacerGroup({ height }: { height: number }) {
  return (
    <tbody aria-hidden>
      <tr style={{ height }} />
    </tbody>
  )
}
