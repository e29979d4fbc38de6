import {
  createTheme,
  darken,
  type BadgeProps,
  type CSSVariablesResolver,
  type DrawerProps,
  type MantineColorScheme,
  type MantineColorSchemeManager,
  type ModalProps,
  type NotificationProps,
} from '@mantine/core'
import type { Theme, TandemBridge } from '@shared/ipc'
import { DEFAULT_THEME } from '@shared/theme'
import { errorMessage } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'

export { DEFAULT_THEME }

export const consoleTheme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  // White on a filled button's shade 6 reads 3.3:1 (red) to 4.1:1 (indigo); on 8, 4.5:1 and up.
  primaryShade: { light: 8, dark: 8 },
  // Plain objects, typed by each component's props, not `Badge.extend(…)`: calling the component's
  // `extend` would pull Drawer and Modal (and what they need) into the first screen's JavaScript.
  components: {
    // One vocabulary: statuses read in sentence case ("Not started"), not Mantine's upper case.
    Badge: { defaultProps: { tt: 'none' } satisfies Partial<BadgeProps> },
    // Mantine's close buttons are icons with no name of their own.
    Drawer: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<DrawerProps>,
    },
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps>,
    },
    Notification: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Dismiss' },
      } satisfies Partial<NotificationProps>,
      // Mantine greys a titled toast's sentence below AA; the dimmed colour below passes.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
  },
})

/**
 * Mantine's dimmed text, light badges and disabled controls, darkened (light) or lightened (dark)
 * to WCAG AA contrast, 4.5:1, on the page and on cards: its own dimmed grey reads 3.3:1 on white
 * and 3.5:1 on a dark card, a green badge's text 4:1 on its tint, and its dark theme's disabled
 * buttons barely stand out from the page.
 */
export const consoleCssVariables: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    ...Object.fromEntries(
      Object.entries(theme.colors).map(([name, shades]) => [
        `--mantine-color-${name}-light-color`,
        darken(shades[9], 0.3),
      ]),
    ),
    '--mantine-color-dimmed': theme.colors.gray[7],
    '--mantine-color-disabled-color': theme.colors.gray[7],
  },
  dark: {
    '--mantine-color-dimmed': theme.colors.dark[1],
    '--mantine-color-disabled': theme.colors.dark[5],
    '--mantine-color-disabled-color': theme.colors.dark[1],
    '--mantine-color-disabled-border': theme.colors.dark[3],
  },
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
