import { useCallback } from 'react'
import type { AppUrls } from '@shared/contract'
import type { AppConfigView } from '@shared/ipc'
import { useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import { useRemote, type Remote } from '@renderer/lib/useRemote'

export interface AppConfigs {
  data: Remote<{ configs: AppConfigView[]; appUrls: AppUrls }>
  retry: () => void
  /** Puts a config the server just created in the list, in the server's order (by shop). */
  added: (config: AppConfigView) => void
  /** Takes out a config the server just deleted. */
  removed: (shop: string) => void
}

// The server lists configs by shop in code-point order, not the locale's.
const byShop = (a: AppConfigView, b: AppConfigView) =>
  a.shop < b.shop ? -1 : a.shop > b.shop ? 1 : 0

const toastFetched = () =>
  showToast({ title: 'Success', message: 'App configs fetched successfully' })

/**
 * The app configs and the app URLs, read together each time the page opens (docs/product-rules.md: "Loading..."
 * then one success toast). A create or delete answers the row it changed, so the list follows
 * those answers rather than being read again, which could fail after the change succeeded.
 */
export function useAppConfigs(): AppConfigs {
  const bridge = useBridge()
  const load = useCallback(
    () =>
      Promise.all([bridge.invoke('getAllAppConfig'), bridge.invoke('getAppUrls')]).then(
        ([configs, appUrls]) => ({ configs, appUrls }),
      ),
    [bridge],
  )
  const { remote, retry, update } = useRemote(load, toastFetched)

  const updateConfigs = (change: (configs: AppConfigView[]) => AppConfigView[]) =>
    update((data) => ({ ...data, configs: change(data.configs) }))

  return {
    data: remote,
    retry,
    added: (config) =>
      updateConfigs((configs) =>
        [...configs.filter((other) => other.shop !== config.shop), config].sort(byShop),
      ),
    removed: (shop) => updateConfigs((configs) => configs.filter((config) => config.shop !== shop)),
  }
}
