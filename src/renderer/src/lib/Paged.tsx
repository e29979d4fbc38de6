import { useEffect, type ReactNode } from 'react'
import { Box, Button, Center, Group, Text } from '@mantine/core'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { useCursorPages, type CursorPage, type CursorPages } from './useCursorPages'

// Every list the console reads a page at a time (the orders, the transfers, a store's products,
// the activity) shows the same things around its rows: "Loading..." until the first page, why it
// failed with Retry, a sentence when there is nothing, and under the rows "Load more". Paged is
// that frame; what the rows look like (a virtualized table, a list) is the caller's.

const count = new Intl.NumberFormat('en-US')

/** What a paged list's body is given to draw. */
export interface Loaded<Item> {
  /** The items of every page read so far, in order. */
  items: Item[]
  /** The last page has come: the list's length is known. */
  complete: boolean
  /**
   * Whether scrolling near the end should read the next page now: there is one, and it is neither
   * on its way nor failed (a failed page is read again only by its Retry).
   */
  canLoadMore: boolean
  loadMore: () => void
}

export interface PagedProps<Item> {
  /** Reads the page at `cursor` (the first without one). Stable: a new one starts the list over. */
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<Item>>
  /** Shown instead of rows when there are none at all: "No orders match." */
  empty: string
  /**
   * With a noun (['order', 'orders']) the footer counts the rows read, "3 orders shown", beside a
   * small "Load more"; without, "Load more" stands alone, centred.
   */
  noun?: readonly [string, string]
  /**
   * Subscribes `refresh` to whatever should read the list again (a sync that ended), returning the
   * unsubscribe. The rows shown stay until the new first page arrives. Stable, like fetchPage.
   */
  refreshOn?: (refresh: () => void) => () => void
  /**
   * Subscribes `update` to changes of items already read (an order held), returning the
   * unsubscribe: each item read so far goes through `change`, and every page stays. Stable.
   */
  updateOn?: (update: (change: (item: Item) => Item) => void) => () => void
  children: (loaded: Loaded<Item>) => ReactNode
}

/** A list read a page at a time (useCursorPages), in its loading, failed, empty or loaded state. */
export function Paged<Item>({
  fetchPage,
  empty,
  noun,
  refreshOn,
  updateOn,
  children,
}: PagedProps<Item>) {
  const { pages, loadMore, retry, refresh, update } = useCursorPages(fetchPage)
  useEffect(() => refreshOn?.(refresh), [refreshOn, refresh])
  useEffect(() => updateOn?.(update), [updateOn, update])

  if (pages.status === 'loading') return <Text c="dimmed">Loading...</Text>
  if (pages.status === 'failed') return <LoadFailure message={pages.message} onRetry={retry} />
  // A first page with nothing in it but a cursor is not an empty list: "Load more" reads on.
  if (pages.items.length === 0 && pages.nextCursor === null) return <Text c="dimmed">{empty}</Text>

  const { items, nextCursor, more } = pages
  const complete = nextCursor === null
  return (
    <>
      {children({ items, complete, canLoadMore: !complete && more.status === 'idle', loadMore })}
      <Footer pages={pages} noun={noun} onLoadMore={loadMore} />
    </>
  )
}

interface FooterProps {
  pages: Extract<CursorPages<unknown>, { status: 'ready' }>
  noun: readonly [string, string] | undefined
  onLoadMore: () => void
}

/**
 * Under the rows: "Load more" for whoever does not scroll (it reads the same next page scrolling
 * would, never a second one at once), or, when the next page failed, why, with Retry.
 */
function Footer({ pages, noun, onLoadMore }: FooterProps) {
  const { more } = pages
  const shown = pages.items.length
  const button = pages.nextCursor !== null && more.status !== 'failed' && (
    <Button
      variant="default"
      // Small beside the count's small text; the usual size where it stands alone.
      size={noun ? 'xs' : 'sm'}
      loading={more.status === 'loading'}
      onClick={onLoadMore}
    >
      Load more
    </Button>
  )
  return (
    <>
      {noun ? (
        <Group justify="space-between" mt="sm" gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {count.format(shown)} {shown === 1 ? noun[0] : noun[1]} shown
          </Text>
          {button}
        </Group>
      ) : (
        button && <Center mt="sm">{button}</Center>
      )}
      {more.status === 'failed' && (
        <Box mt="sm">
          <LoadFailure message={more.message} onRetry={onLoadMore} />
        </Box>
      )}
    </>
  )
}
