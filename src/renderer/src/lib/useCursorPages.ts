import { useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from '@renderer/lib/bridge'

/** One page of a list the server pages by an opaque cursor. */
export interface CursorPage<T> {
  items: T[]
  /** Where the next page starts; null after the last one. */
  nextCursor: string | null
}

/** Asking for the page after the ones shown. */
export type MoreState =
  { status: 'idle' } | { status: 'loading' } | { status: 'failed'; message: string }

export type CursorPages<T> =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; items: T[]; nextCursor: string | null; more: MoreState }

const IDLE: MoreState = { status: 'idle' }

/**
 * A list read a page at a time (docs/product-rules.md "The console's screens": lists page with
 * cursors), in the manner of useRemote: the first page when the component mounts, the next one on
 * `loadMore`. One request at a time: `loadMore` does nothing while any page is on its way or when
 * there is no page left. `fetchPage` must be stable (a useCallback): a new one starts the list
 * over, and an answer to the old one, like an answer to a page left meanwhile, is stale and
 * ignored. `retry` shows "Loading..." again after a failure; `refresh` reads the first page again
 * and keeps what is shown until it arrives. `update` changes items read so far in place, for a
 * change the server has already answered: every page read stays, and so does the scroll.
 */
export function useCursorPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
) {
  const [pages, setPages] = useState<CursorPages<T>>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  // A new list (another fetchPage) shows "Loading..." at once rather than the old one's rows.
  const [shownFetch, setShownFetch] = useState(() => fetchPage)
  if (shownFetch !== fetchPage) {
    setShownFetch(() => fetchPage)
    setPages({ status: 'loading' })
  }
  // Which reading of the list is current: each first-page request starts a new one, and an answer
  // to an earlier one is stale. `requesting` is true while a request of the current one is out.
  const reading = useRef(0)
  const requesting = useRef(false)

  useEffect(() => {
    const current = ++reading.current
    requesting.current = true
    fetchPage(undefined).then(
      ({ items, nextCursor }) => {
        if (current !== reading.current) return
        requesting.current = false
        setPages({ status: 'ready', items, nextCursor, more: IDLE })
      },
      (error: unknown) => {
        if (current !== reading.current) return
        requesting.current = false
        setPages({ status: 'failed', message: errorMessage(error) })
      },
    )
    return () => {
      // Left or started over: whatever this reading still awaits is stale.
      if (current === reading.current) {
        reading.current += 1
        requesting.current = false
      }
    }
  }, [fetchPage, attempt])

  const loadMore = useCallback(() => {
    if (requesting.current || pages.status !== 'ready' || pages.nextCursor === null) return
    const current = reading.current
    requesting.current = true
    setPages((shown) =>
      shown.status === 'ready' ? { ...shown, more: { status: 'loading' } } : shown,
    )
    fetchPage(pages.nextCursor).then(
      ({ items, nextCursor }) => {
        if (current !== reading.current) return
        requesting.current = false
        setPages((shown) =>
          shown.status === 'ready'
            ? { status: 'ready', items: [...shown.items, ...items], nextCursor, more: IDLE }
            : shown,
        )
      },
      (error: unknown) => {
        if (current !== reading.current) return
        requesting.current = false
        const more: MoreState = { status: 'failed', message: errorMessage(error) }
        setPages((shown) => (shown.status === 'ready' ? { ...shown, more } : shown))
      },
    )
  }, [fetchPage, pages])

  const refresh = useCallback(() => setAttempt((count) => count + 1), [])
  const retry = useCallback(() => {
    setPages({ status: 'loading' })
    refresh()
  }, [refresh])

  const update = useCallback(
    (change: (item: T) => T) =>
      setPages((shown) =>
        shown.status === 'ready' ? { ...shown, items: shown.items.map(change) } : shown,
      ),
    [],
  )

  return { pages, loadMore, retry, refresh, update }
}
