import { randomUUID } from 'node:crypto'
import { initializeApp } from 'firebase/app'
import {
  connectAuthEmulator,
  inMemoryPersistence,
  initializeAuth,
  signInWithEmailAndPassword,
  signOut as firebaseSignOut,
  type Auth,
} from 'firebase/auth'
import type { SessionView } from '@shared/ipc'
import { UserFacingError } from '../errors'
import type { FetchPort, KeyValueStore, Logger, SecretCipher } from '../ports'
import type { FirebaseWebConfig } from '../settings/build-environment'
import {
  exchangeRefreshToken,
  readIdTokenClaims,
  secureTokenEndpoint,
  UNEXPECTED_RENEWAL_ANSWER,
} from './secure-token'
import { createTokenVault, type StoredCredential } from './token-vault'

// The session lives only here, in the main process: the renderer sees a SessionView, never a
// token. The SDK signs in; refreshes use the Secure Token REST endpoint, because the SDK cannot
// resume from a stored refresh token in Node.

export interface SessionServiceOptions {
  firebase: FirebaseWebConfig
  /** e.g. 'http://127.0.0.1:9099'; null for real Firebase. */
  authEmulatorUrl: string | null
  store: KeyValueStore
  cipher: SecretCipher
  log: Logger
  /** Used for token refreshes; default globalThis.fetch. */
  fetch?: FetchPort
  /** Default Date.now; tests move it to make a token look near its expiry. */
  now?: () => number
  /** Called when the session changes without the renderer asking (refresh refused, revoked). */
  onChange?: (view: SessionView) => void
}

export interface SessionService {
  view(): SessionView
  /** At launch: decrypt the stored credential and exchange the refresh token; signed out when that fails. */
  restore(): Promise<SessionView>
  signIn(email: string, password: string): Promise<SessionView>
  /** Wipes the stored credential and memory, and signs out of Firebase. */
  signOut(): Promise<SessionView>
  /** A valid ID token, refreshed first when within 5 minutes of expiry; null when signed out. */
  idToken(): Promise<string | null>
  /** After a 401: refresh once regardless of expiry; on refusal sign out (calling onChange) and return null. */
  forceRefresh(): Promise<string | null>
}

const REFRESH_MARGIN_MS = 5 * 60_000

export function createSessionService(options: SessionServiceOptions): SessionService {
  const { log } = options
  const now = options.now ?? Date.now
  // Looked up per call so that the default follows whatever global fetch is installed.
  const fetchPort: FetchPort = options.fetch ?? ((input, init) => fetch(input, init))
  const endpoint = secureTokenEndpoint(options.firebase.apiKey, options.authEmulatorUrl)
  const vault = createTokenVault(options.store, options.cipher, log)

  let current: StoredCredential | null = null
  // Bumped by every sign-in and sign-out, so that a slower earlier one cannot overwrite it.
  let epoch = 0
  let inflight: { from: StoredCredential; promise: Promise<string | null> } | null = null
  // restore() reports its own outcome; onChange is for changes nobody asked about.
  let restoring: StoredCredential | null = null
  let auth: Auth | null = null

  const view = (): SessionView => ({ signedIn: current !== null, email: current?.email ?? null })

  function firebaseAuth(): Auth {
    if (auth) return auth
    // A name of its own: a second service (a test's "restart") must not share the SDK's state.
    const app = initializeApp({ ...options.firebase }, `tandem-session-${randomUUID()}`)
    const created = initializeAuth(app, { persistence: inMemoryPersistence })
    if (options.authEmulatorUrl) {
      connectAuthEmulator(created, options.authEmulatorUrl, { disableWarnings: true })
    }
    auth = created
    return created
  }

  async function leaveFirebase(): Promise<void> {
    // Only the SDK holds a user after an SDK sign-in; a restored session never touched it.
    if (!auth) return
    try {
      await firebaseSignOut(auth)
    } catch {
      log.warn('Firebase sign-out failed; the local session was removed anyway.')
    }
  }

  /** Ends `lost` when Firebase refused it, unless a newer session has replaced it meanwhile. */
  async function endRefusedSession(lost: StoredCredential, code: string): Promise<void> {
    if (current !== lost) return
    log.warn(`Firebase refused to renew the session (${code}); signed out.`)
    current = null
    vault.clear()
    await leaveFirebase()
    if (lost !== restoring) options.onChange?.(view())
  }

  /**
   * Renews `from` and answers the current session's ID token (null when it ended). Callers that
   * ask while a renewal of the same session is under way share it.
   */
  function refresh(from: StoredCredential): Promise<string | null> {
    if (inflight?.from === from) return inflight.promise
    const promise = (async () => {
      const outcome = await exchangeRefreshToken(fetchPort, endpoint, from.refreshToken)
      if (outcome.kind === 'rejected') {
        await endRefusedSession(from, outcome.code)
        return current?.idToken ?? null
      }
      // Signed out or signed in anew meanwhile: this renewal belongs to a session that is gone.
      if (current !== from) return current?.idToken ?? null
      const { grant } = outcome
      const claims = readIdTokenClaims(grant.idToken)
      if (!claims) {
        throw new UserFacingError(UNEXPECTED_RENEWAL_ANSWER)
      }
      current = {
        refreshToken: grant.refreshToken,
        idToken: grant.idToken,
        expiresAt: now() + grant.expiresInSeconds * 1000,
        email: claims.email ?? from.email,
      }
      vault.save(current)
      return current.idToken
    })().finally(() => {
      if (inflight?.promise === promise) inflight = null
    })
    inflight = { from, promise }
    return promise
  }

  return {
    view,

    async restore() {
      const stored = vault.load()
      if (!stored || current) return view()
      current = stored
      // A token with time left is used as it is: the window need not wait for Firebase at launch.
      // A revoked session then shows at the first 401, whose refresh Firebase refuses.
      if (stored.expiresAt - now() > REFRESH_MARGIN_MS) return view()
      restoring = stored
      try {
        await refresh(stored)
      } catch {
        // Unreachable is not refused: keep the session and renew it when a call needs a token.
        log.warn('Could not reach Firebase to renew the saved session; it is kept until then.')
      } finally {
        restoring = null
      }
      return view()
    },

    async signIn(email, password) {
      const mine = ++epoch
      let credential: StoredCredential
      try {
        const { user } = await signInWithEmailAndPassword(firebaseAuth(), email, password)
        const idToken = await user.getIdToken()
        const claims = readIdTokenClaims(idToken)
        if (!claims) throw new UserFacingError('Firebase sent an unexpected answer to the sign-in.')
        credential = {
          refreshToken: user.refreshToken,
          idToken,
          expiresAt: now() + claims.lifetimeSeconds * 1000,
          email: user.email ?? claims.email,
        }
      } catch (error) {
        throw signInFailure(error, log)
      }
      if (epoch !== mine) return view()
      current = credential
      vault.save(credential)
      log.info('Signed in.')
      return view()
    },

    async signOut() {
      epoch++
      current = null
      vault.clear()
      await leaveFirebase()
      log.info('Signed out.')
      return view()
    },

    async idToken() {
      const session = current
      if (!session) return null
      if (session.expiresAt - now() > REFRESH_MARGIN_MS) return session.idToken
      try {
        return await refresh(session)
      } catch (error) {
        // Firebase out of reach: a token that has not expired yet still does its job.
        if (current === session && session.expiresAt > now()) return session.idToken
        throw error
      }
    },

    async forceRefresh() {
      return current ? refresh(current) : null
    },
  }
}

const BAD_CREDENTIALS = new Set([
  'auth/invalid-credential',
  'auth/invalid-login-credentials',
  'auth/wrong-password',
  'auth/user-not-found',
  'auth/invalid-email',
  'auth/missing-password',
  'auth/missing-email',
])

const SIGN_IN_SENTENCES: Record<string, string> = {
  'auth/user-disabled': 'This account has been disabled.',
  'auth/too-many-requests': 'Too many sign-in attempts. Please wait a moment and try again.',
  'auth/network-request-failed':
    'Could not reach Firebase to sign in. Check your network connection and try again.',
  'auth/timeout':
    'Could not reach Firebase to sign in. Check your network connection and try again.',
  'auth/operation-not-allowed':
    'Email and password sign-in is not enabled for this Firebase project.',
  'auth/invalid-api-key': "The app's Firebase configuration is not valid.",
  // What the SDK makes of Google's own "API key not valid" answer.
  'auth/api-key-not-valid.-please-pass-a-valid-api-key.':
    "The app's Firebase configuration is not valid.",
}

function signInFailure(error: unknown, log: Logger): UserFacingError {
  if (error instanceof UserFacingError) return error
  const code =
    error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
      ? error.code
      : null
  if (code && BAD_CREDENTIALS.has(code))
    return new UserFacingError('Please check your credentials.')
  const sentence = code ? SIGN_IN_SENTENCES[code] : undefined
  if (sentence) return new UserFacingError(sentence)
  // Only the code is logged: the SDK's error carries the email the person typed.
  log.error(`Sign-in failed unexpectedly (${code ?? 'no error code'}).`)
  return new UserFacingError('Sign-in failed. Please try again.')
}
