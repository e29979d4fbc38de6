import { useCallback, useEffect, useState } from 'react'
import { errorMessage } from '@renderer/lib/bridge'

export type Remote<T> =
  { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; message: string }

/**
 * Something the page reads from the main process when it opens. `load` and `onReady` must be
 * stable (a useCallback or a module function): a new one loads again. `onReady` hears only the
 * answer that is shown, never a stale one. `retry` shows "Loading..." again after a failure;
 * `refresh` keeps what is shown until the new answer arrives, so a list does not flash. `update`
 * changes a ready value in place, for a change the server has already answered.
 */
export function useRemote<T>(load: () => Promise<T>, onReady?: (value: T) => void) {
  const [remote, setRemote] = useState<Remote<T>>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    // An answer to an earlier attempt, or to a page left meanwhile, is stale.
    let current = true
    load().then(
      (value) => {
        if (!current) return
        setRemote({ status: 'ready', value })
        onReady?.(value)
      },
      (error: unknown) => {
        if (current) setRemote({ status: 'failed', message: errorMessage(error) })
      },
    )
    return () => {
      current = false
    }
  }, [load, onReady, attempt])

  const refresh = useCallback(() => setAttempt((count) => count + 1), [])
  const retry = useCallback(() => {
    setRemote({ status: 'loading' })
    refresh()
  }, [refresh])
  const update = useCallback(
    (change: (value: T) => T) =>
      setRemote((previous) =>
        previous.status === 'ready' ? { status: 'ready', value: change(previous.value) } : previous,
      ),
    [],
  )

  return { remote, retry, refresh, update }
}
