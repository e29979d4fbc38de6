import { useCallback, useEffect, useState } from 'react'
import { errorMessage } from '@renderer/lib/bridge'

export type Remote<T> =
  { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; message: string }

/**
 * Something the page reads from the main process when it opens. `load` must be stable (a
 * useCallback): a new one loads again. `retry` shows "Loading..." again after a failure;
 * `refresh` keeps what is shown until the new answer arrives, so a list does not flash.
 */
export function useRemote<T>(load: () => Promise<T>) {
  const [remote, setRemote] = useState<Remote<T>>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    // An answer to an earlier attempt, or to a page left meanwhile, is stale.
    let current = true
    load().then(
      (value) => {
        if (current) setRemote({ status: 'ready', value })
      },
      (error: unknown) => {
        if (current) setRemote({ status: 'failed', message: errorMessage(error) })
      },
    )
    return () => {
      current = false
    }
  }, [load, attempt])

  const refresh = useCallback(() => setAttempt((count) => count + 1), [])
  const retry = useCallback(() => {
    setRemote({ status: 'loading' })
    refresh()
  }, [refresh])

  return { remote, retry, refresh }
}
