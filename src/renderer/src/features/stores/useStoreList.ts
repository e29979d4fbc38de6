import { useCallback } from 'react'
import { useBridge } from '@renderer/lib/bridge'
import { useRemote } from '@renderer/lib/useRemote'

/** All stores, read afresh each time the page opens; `retry` reads them again after a failure. */
export function useStoreList() {
  const bridge = useBridge()
  const load = useCallback(() => bridge.invoke('adminAllStores'), [bridge])
  return useRemote(load)
}
