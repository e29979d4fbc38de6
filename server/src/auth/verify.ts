import { initializeApp, type App } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'

// Who is calling: a Firebase ID token, verified by firebase-admin. With FIREBASE_AUTH_EMULATOR_HOST
// set (the local stack and tests), firebase-admin trusts the emulator's tokens instead of Google's.

export interface VerifiedUser {
  uid: string
  email: string | null
  /** The custom claim `admin: true`. */
  adminClaim: boolean
}

export interface TokenVerifier {
  /** Throws when the token is not a valid, unexpired ID token of the project. */
  verify(idToken: string): Promise<VerifiedUser>
}

let appCount = 0

export function firebaseTokenVerifier(projectId: string): TokenVerifier {
  const app: App = initializeApp({ projectId }, `tandem-server-${++appCount}`)
  const auth = getAuth(app)
  return {
    async verify(idToken) {
      const decoded = await auth.verifyIdToken(idToken)
      return { uid: decoded.uid, email: decoded.email ?? null, adminClaim: decoded.admin === true }
    },
  }
}

/** An administrator has the admin claim or an email listed in TANDEM_ADMIN_EMAILS. */
export function isAdministrator(user: VerifiedUser, adminEmails: readonly string[]): boolean {
  return (
    user.adminClaim ||
    (user.email !== null && adminEmails.includes(user.email.trim().toLowerCase()))
  )
}
