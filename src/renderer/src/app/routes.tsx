import { lazy, Suspense } from 'react'
import { Navigate, type RouteObject } from 'react-router'
import { SignInPage } from '@renderer/features/signin/SignInPage'
import { PlaceholderPage } from './PlaceholderPage'
import { HOME_PATH, RequireSignedIn } from './RequireSignedIn'

// The sign-in page is all a first launch needs; the shell and its menus load behind it.
const ConsoleShell = lazy(() => import('./shell/ConsoleShell'))
const StoresPage = lazy(() => import('@renderer/features/stores/StoresPage'))
const StoreDetailPage = lazy(() => import('@renderer/features/store-detail/StoreDetailPage'))
const ConfigsPage = lazy(() => import('@renderer/features/configs/ConfigsPage'))
const ProductsPage = lazy(() => import('@renderer/features/products/ProductsPage'))
const OrderTransferPage = lazy(() => import('@renderer/features/order-transfer/OrderTransferPage'))
const OrdersPage = lazy(() => import('@renderer/features/orders/OrdersPage'))
const JobsPage = lazy(() => import('@renderer/features/jobs/JobsPage'))
const ShippingPage = lazy(() => import('@renderer/features/shipping/ShippingPage'))
// Folded away in an installable build (electron.vite.config.ts): its bundle has no such page.
const SandboxPage = __TANDEM_SANDBOX_CONTROLS__
  ? lazy(() => import('@renderer/features/sandbox/SandboxPage'))
  : null

/** The console's routes, shared by the hash router (main.tsx) and the tests' memory router. */
export const routes: RouteObject[] = [
  { path: '/signin', element: <SignInPage /> },
  {
    path: '/main',
    element: (
      <RequireSignedIn>
        <Suspense fallback={null}>
          <ConsoleShell />
        </Suspense>
      </RequireSignedIn>
    ),
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      { path: 'stores', element: <StoresPage /> },
      { path: 'stores/:store', element: <StoreDetailPage /> },
      { path: 'products', element: <ProductsPage /> },
      { path: 'orders', element: <OrdersPage /> },
      { path: 'shipping', element: <ShippingPage /> },
      { path: 'configs', element: <ConfigsPage /> },
      { path: 'create-order-transfer', element: <OrderTransferPage /> },
      { path: 'jobs', element: <JobsPage /> },
      ...(SandboxPage ? [{ path: 'sandbox', element: <SandboxPage /> }] : []),
      { path: 'add-config', element: <PlaceholderPage title="Add Config" /> },
      { path: '*', element: <Navigate to={HOME_PATH} replace /> },
    ],
  },
  // "/" (the sidebar's brand link) and anything unknown.
  { path: '*', element: <Navigate to={HOME_PATH} replace /> },
]
