import { useEffect, useMemo, useState } from 'react'
import { MantineProvider } from '@mantine/core'
import { Notifications } from '@mantine/notifications'
import { RouterProvider, type DataRouter } from 'react-router'
import type { TandemBridge, Theme } from '@shared/ipc'
import { BridgeContext, HostKeyRefused } from '@renderer/lib/bridge'
import { HostKeyPage } from './HostKeyPage'
import { SIGNED_OUT, useSession } from './session'
import {
  DEFAULT_THEME,
  consoleCssVariables,
  consoleTheme,
  settingsColorSchemeManager,
} from './theme'

interface TandemAppProps {
  bridge: TandemBridge
  router: DataRouter
  /** 'test' turns off Mantine's transitions and portals for jsdom. */
  env?: 'default' | 'test'
}

/**
 * The whole console. Renders nothing until the session and the stored theme are known, so that
 * neither a signed-out redirect nor the wrong theme flashes by. In browser mode without this
 * launch's key, only the page that says how to open it.
 */
export function TandemApp({ bridge, router, env = 'default' }: TandemAppProps) {
  const [storedTheme, setStoredTheme] = useState<Theme | null>(null)
  const [keyRefused, setKeyRefused] = useState(false)

  useEffect(() => {
    let active = true
    // An event that arrives before the status answer is newer than it.
    let heardChange = false
    const stopListening = bridge.on('session/changed', (session) => {
      heardChange = true
      useSession.getState().setSession(session)
    })
    void Promise.all([
      // null: the browser host refused this page's key, so no session can be known.
      bridge
        .invoke('session/status')
        .catch((error: unknown) => (error instanceof HostKeyRefused ? null : SIGNED_OUT)),
      bridge
        .invoke('settings/get')
        .then((settings) => settings.theme)
        .catch(() => DEFAULT_THEME),
    ]).then(([session, theme]) => {
      if (!active) return
      if (session === null) setKeyRefused(true)
      else if (!heardChange) useSession.getState().setSession(session)
      setStoredTheme(theme)
    })
    return () => {
      active = false
      stopListening()
    }
  }, [bridge])

  const colorSchemeManager = useMemo(
    () => (storedTheme ? settingsColorSchemeManager(bridge, storedTheme) : null),
    [bridge, storedTheme],
  )
  if (!colorSchemeManager) return null

  return (
    <BridgeContext value={bridge}>
      <MantineProvider
        theme={consoleTheme}
        cssVariablesResolver={consoleCssVariables}
        colorSchemeManager={colorSchemeManager}
        defaultColorScheme="dark"
        env={env}
      >
        <Notifications limit={1} autoClose={5000} />
        {keyRefused ? <HostKeyPage /> : <RouterProvider router={router} />}
      </MantineProvider>
    </BridgeContext>
  )
}
