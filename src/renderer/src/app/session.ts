import { create } from 'zustand'
import type { SessionView } from '@shared/ipc'

export const SIGNED_OUT: SessionView = { signedIn: false, email: null }

interface SessionState {
  session: SessionView
  setSession: (session: SessionView) => void
}

/** What the main process says of the session; it alone holds the token. */
export const useSession = create<SessionState>()((set) => ({
  session: SIGNED_OUT,
  setSession: (session) => set({ session }),
}))
