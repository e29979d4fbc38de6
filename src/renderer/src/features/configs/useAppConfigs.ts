import { useEffect, useState } from 'react'
import type { AppUrls } from '@shared/contract'
import type { AppConfigView } from '@shared/ipc'
import { errorMessage, useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'

export type AppConfigsData =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; configs: AppConfigView[]; appUrls: AppUrls }

export interface AppConfigs {
  data: AppConfigsData
  retry: () => void
  /** Puts a config the server just created in the list, in the server's order (by shop). */
  added: (config: AppConfigView) => void
  /** Takes out a config the server just deleted. */
  removed: (shop: string) => void
}

// The server lists configs by shop in code-point order, not the locale's.
const byShop = (a: AppConfigView, b: AppConfigView) =>
  a.shop < b.shop ? -1 : a.shop > b.shop ? 1 : 0

/**
 * The app configs and the app URLs, read together each time the page opens (SPEC §2: "Loading..."
 * then one success toast). A create or delete answers the row it changed, so the list follows
 * those answers rather than being read again, which could fail after the change succeeded.
 */
export function useAppConfigs(): AppConfigs {
  const bridge = useBridge()
  const [attempt, setAttempt] = useState(0)
  const [data, setData] = useState<AppConfigsData>({ status: 'loading' })

  useEffect(() => {
    // An answer to an earlier attempt, or to a page left meanwhile, is stale.
    let current = true
    Promise.all([bridge.invoke('configs/list'), bridge.invoke('configs/appUrls')]).then(
      ([configs, appUrls]) => {
        if (!current) return
        setData({ status: 'loaded', configs, appUrls })
        showToast({ title: 'Success', message: 'App configs fetched successfully' })
      },
      (error: unknown) => {
        if (current) setData({ status: 'failed', message: errorMessage(error) })
      },
    )
    return () => {
      current = false
    }
  }, [bridge, attempt])

  const update = (change: (configs: AppConfigView[]) => AppConfigView[]) =>
    setData((previous) =>
      previous.status === 'loaded' ? { ...previous, configs: change(previous.configs) } : previous,
    )

  return {
    data,
    retry: () => {
      setData({ status: 'loading' })
      setAttempt((previous) => previous + 1)
    },
    added: (config) =>
      update((configs) =>
        [...configs.filter((other) => other.shop !== config.shop), config].sort(byShop),
      ),
    removed: (shop) => update((configs) => configs.filter((config) => config.shop !== shop)),
  }
}
