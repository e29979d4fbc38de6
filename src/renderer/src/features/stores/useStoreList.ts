import { useEffect, useState } from 'react'
import type { Store } from '@shared/contract'
import { errorMessage, useBridge } from '@renderer/lib/bridge'

export type StoreList =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; stores: Store[] }

/** All stores, read afresh each time the page opens; `retry` reads them again after a failure. */
export function useStoreList(): StoreList & { retry: () => void } {
  const bridge = useBridge()
  const [attempt, setAttempt] = useState(0)
  const [list, setList] = useState<StoreList>({ status: 'loading' })

  useEffect(() => {
    let current = true
    bridge.invoke('stores/list').then(
      (stores) => current && setList({ status: 'loaded', stores }),
      (error: unknown) => current && setList({ status: 'failed', message: errorMessage(error) }),
    )
    return () => {
      current = false
    }
  }, [bridge, attempt])

  const retry = () => {
    setList({ status: 'loading' })
    setAttempt((previous) => previous + 1)
  }
  return { ...list, retry }
}
