import { render } from '@testing-library/react'
import { createMemoryRouter, type RouteObject } from 'react-router'
import type { TandemBridge } from '@shared/ipc'
import { TandemApp } from '@renderer/app/TandemApp'
import { routes } from '@renderer/app/routes'

/**
 * The whole console at `path`, over a fake bridge, with the app's real routes unless a test
 * stands in for some page.
 */
export function renderApp(bridge: TandemBridge, path: string, appRoutes: RouteObject[] = routes) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] })
  const view = render(<TandemApp bridge={bridge} router={router} env="test" />)
  return { ...view, router, location: () => router.state.location }
}
