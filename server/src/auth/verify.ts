import type { Agent } from 'node:http'
import { initializeApp, type App } from 'firebase-admin/app'
import { getAuth } from 'firebase-admin/auth'

// Who is calling: a Firebase ID token, verified by firebase-admin with the revocation check on,
// then the user's record read for what they are allowed now (claims and email verification as
// they stand, not as they stood when the token was minted). With FIREBASE_AUTH_EMULATOR_HOST set
// (the local stack and tests), firebase-admin trusts the emulator's tokens instead of Google's.

export interface VerifiedUser {
  uid: string
  email: string | null
  emailVerified: boolean
  /** The custom claim `admin: true`, as the user's record has it now. */
  adminClaim: boolean
}

export interface TokenVerifier {
  /**
   * Throws TokenRejectedError when the token is not a valid, unexpired, unrevoked ID token of an
   * enabled user of the project, and SignInServiceUnavailableError when that cannot be told.
   */
  verify(idToken: string): Promise<VerifiedUser>
}

/** The token is no good: the caller must sign in again. */
export class TokenRejectedError extends Error {
  override name = 'TokenRejectedError'
}

/** Google's keys or user records could not be reached: nobody can be verified right now. */
export class SignInServiceUnavailableError extends Error {
  override name = 'SignInServiceUnavailableError'
}

export interface VerifierOptions {
  projectId: string
  /**
   * How long a verified token is trusted before its user is read again (docs/operations.md "Who
   * gets in": ≤ 60 s).
   */
  cacheMs?: number
  /** For tests: firebase-admin's outgoing connections (Google's keys, user records). */
  httpAgent?: Agent
  now?: () => number
}

const DEFAULT_CACHE_MS = 60_000
/** Enough for every administrator's tokens many times over; the oldest entry goes first. */
const CACHE_ENTRIES = 10_000

/** Firebase's verdicts on the token itself; every other failure is the service's. */
const REJECTIONS: Record<string, string> = {
  'auth/id-token-expired': 'The ID token is invalid or has expired: sign in again',
  'auth/id-token-revoked': 'This sign-in was revoked: sign in again',
  'auth/user-disabled': 'This account is disabled',
  'auth/user-not-found': 'This account no longer exists',
  'auth/invalid-id-token': 'The ID token is invalid or has expired: sign in again',
  'auth/argument-error': 'The ID token is invalid or has expired: sign in again',
}

// firebase-admin reports a failed download of Google's keys as `auth/argument-error`, like a
// malformed token, keeping only the download's own message: these are its two wordings, at the
// start (a forged token's claims, quoted in other messages, must not pass for an outage).
const KEY_DOWNLOAD_FAILURE = /^(Error while making request|Error fetching public keys)/

let appCount = 0

export function firebaseTokenVerifier(options: VerifierOptions): TokenVerifier {
  const app: App = initializeApp(
    { projectId: options.projectId, httpAgent: options.httpAgent },
    `tandem-server-${++appCount}`,
  )
  const auth = getAuth(app)
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS
  const now = options.now ?? Date.now
  // Concurrent requests with one token share one verification.
  const cache = new Map<string, { until: number; user: Promise<VerifiedUser> }>()

  async function verifyNow(idToken: string): Promise<{ user: VerifiedUser; expiresAt: number }> {
    try {
      const decoded = await auth.verifyIdToken(idToken, true)
      const record = await auth.getUser(decoded.uid)
      return {
        user: {
          uid: record.uid,
          email: record.email ?? null,
          emailVerified: record.emailVerified,
          adminClaim: record.customClaims?.admin === true,
        },
        expiresAt: decoded.exp * 1000,
      }
    } catch (error) {
      throw classify(error)
    }
  }

  return {
    verify(idToken) {
      const cached = cache.get(idToken)
      if (cached && cached.until > now()) return cached.user
      cache.delete(idToken)

      const verifiedAt = now()
      const pending = verifyNow(idToken)
      const user = pending.then((verified) => verified.user)
      const entry = { until: verifiedAt + cacheMs, user }
      cache.set(idToken, entry)
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string)
      pending.then(
        // Never trusted past the token's own expiry.
        ({ expiresAt }) => (entry.until = Math.min(entry.until, expiresAt)),
        () => cache.get(idToken) === entry && cache.delete(idToken),
      )
      return user
    },
  }
}

function classify(error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  if (typeof code === 'string' && code in REJECTIONS && !KEY_DOWNLOAD_FAILURE.test(message)) {
    return new TokenRejectedError(REJECTIONS[code])
  }
  return new SignInServiceUnavailableError(message)
}

/**
 * An administrator has the admin claim, or a verified email listed in TANDEM_ADMIN_EMAILS: anyone
 * can sign an address up, only its owner can verify it.
 */
export function isAdministrator(user: VerifiedUser, adminEmails: readonly string[]): boolean {
  return (
    user.adminClaim ||
    (user.emailVerified &&
      user.email !== null &&
      adminEmails.includes(user.email.trim().toLowerCase()))
  )
}
