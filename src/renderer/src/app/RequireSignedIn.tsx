import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { useSession } from './session'

export const HOME_PATH = '/main/stores'

/** What /signin is told about where a signed-out visitor was headed. */
interface SignInState {
  returnTo: string
}

/** Guards /main: a signed-out visitor goes to /signin and comes back here after signing in. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const signedIn = useSession((state) => state.session.signedIn)
  const location = useLocation()
  if (signedIn) return children
  const state: SignInState = { returnTo: location.pathname + location.search }
  return <Navigate to="/signin" replace state={state} />
}

/** Where to go after signing in: the /main path the visitor was sent away from, else home. */
export function returnPathAfterSignIn(locationState: unknown): string {
  const returnTo = (locationState as Partial<SignInState> | null)?.returnTo
  return typeof returnTo === 'string' && returnTo.startsWith('/main/') ? returnTo : HOME_PATH
}
