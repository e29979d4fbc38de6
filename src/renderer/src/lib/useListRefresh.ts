import { useCallback, useState } from 'react'

/**
 * For a page whose own change makes its paged list stale (a job retried, a policy saved):
 * `refreshOn` for the list (PagedTable's), and `refreshList`, which reads it again from its first
 * page, keeping the rows shown until that arrives.
 */
export function useListRefresh() {
  const [refreshes] = useState(() => new Set<() => void>())
  const refreshOn = useCallback(
    (refresh: () => void) => {
      refreshes.add(refresh)
      return () => void refreshes.delete(refresh)
    },
    [refreshes],
  )
  const refreshList = useCallback(() => refreshes.forEach((refresh) => refresh()), [refreshes])
  return { refreshOn, refreshList }
}
