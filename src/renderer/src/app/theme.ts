import { createTheme, type MantineColorScheme, type MantineColorSchemeManager } from '@mantine/core'
import type { Theme, TandemBridge } from '@shared/ipc'
import { DEFAULT_THEME } from '@shared/theme'
import { errorMessage } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'

export { DEFAULT_THEME }

export const consoleTheme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
})

const toColorScheme = (theme: Theme): MantineColorScheme => (theme === 'system' ? 'auto' : theme)
const toTheme = (scheme: MantineColorScheme): Theme => (scheme === 'auto' ? 'system' : scheme)

/**
 * Keeps Mantine's color scheme in the main process's settings instead of localStorage, so the
 * choice survives in both transports. `stored` was read before the first paint, so `get` can
 * answer synchronously as Mantine requires.
 */
export function settingsColorSchemeManager(
  bridge: TandemBridge,
  stored: Theme,
): MantineColorSchemeManager {
  let current = toColorScheme(stored)
  return {
    get: () => current,
    set: (scheme) => {
      current = scheme
      bridge.invoke('settings/update', { theme: toTheme(scheme) }).catch((error: unknown) =>
        showToast({
          tone: 'error',
          title: 'Error',
          message: `Failed to save the theme: ${errorMessage(error)}`,
        }),
      )
    },
    // Only this window changes the theme, so there is nothing outside to listen to.
    subscribe: () => {},
    unsubscribe: () => {},
    clear: () => {
      current = toColorScheme(DEFAULT_THEME)
    },
  }
}
