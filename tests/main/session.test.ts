import { randomUUID } from 'node:crypto'
import { describe, expect, inject, it } from 'vitest'
import type { SessionView } from '@shared/ipc'
import { upsertEmulatorUser } from '../../scripts/lib/auth-emulator'
import { UserFacingError } from '../../src/main/services/errors'
import type { FetchPort, KeyValueStore, Logger, SecretCipher } from '../../src/main/services/ports'
import {
  createSessionService,
  type SessionServiceOptions,
} from '../../src/main/services/session/session-service'
import { SESSION_STORE_KEY } from '../../src/main/services/session/token-vault'

// Against the real Firebase Auth emulator started by the global setup.

const emulatorUrl = inject('authEmulatorUrl')
const projectId = inject('authProjectId')
const firebase = { apiKey: 'demo-tandem-key', authDomain: 'demo-tandem.firebaseapp.com', projectId }
const PASSWORD = 'correct-horse-battery'

function mapStore(): KeyValueStore & { map: Map<string, unknown> } {
  const map = new Map<string, unknown>()
  return {
    map,
    get: (key) => map.get(key),
    set: (key, value) => void map.set(key, value),
    delete: (key) => void map.delete(key),
  }
}

// Reversible and obviously not plain text: a marker, then every byte XOR 0x5a.
const MARK = Buffer.from('FAKE-SEALED:')
const xor = (bytes: Buffer) => Buffer.from(bytes.map((byte) => byte ^ 0x5a))

function fakeCipher(available = true): SecretCipher {
  return {
    isAvailable: () => available,
    encrypt: (plain) => {
      if (!available) throw new Error('Encryption is not available.')
      return Buffer.concat([MARK, xor(Buffer.from(plain, 'utf8'))])
    },
    decrypt: (data) => {
      if (!data.subarray(0, MARK.length).equals(MARK)) throw new Error('Not sealed by this cipher.')
      return xor(data.subarray(MARK.length)).toString('utf8')
    },
  }
}

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    info: (message) => void lines.push(`info ${message}`),
    warn: (message) => void lines.push(`warn ${message}`),
    error: (message, error) => void lines.push(`error ${message} ${String(error ?? '')}`),
  }
}

/** Global fetch, counting the Secure Token refreshes that go through it. */
function countingFetch(): FetchPort & { refreshes: number } {
  const wrapper = Object.assign(
    (input: Parameters<FetchPort>[0], init?: Parameters<FetchPort>[1]) => {
      if (String(input).includes('/securetoken.googleapis.com/v1/token')) wrapper.refreshes++
      return fetch(input, init)
    },
    { refreshes: 0 },
  )
  return wrapper
}

/** A fresh admin in the emulator, unique to the test. */
async function newUser(): Promise<{ email: string; uid: string }> {
  const email = `session-${randomUUID().slice(0, 8)}@example.com`
  const { uid } = await upsertEmulatorUser(emulatorUrl, projectId, {
    email,
    password: PASSWORD,
    admin: true,
  })
  return { email, uid }
}

async function emulatorAdmin(operation: 'delete' | 'update', body: Record<string, unknown>) {
  const response = await fetch(
    `${emulatorUrl}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:${operation}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify(body),
    },
  )
  expect(response.ok).toBe(true)
}

function jwtPayload(token: string | null): Record<string, unknown> {
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]*$/)
  return JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString('utf8'))
}

/** Every byte the store holds, decoded from base64 where it is a string. */
function storedBytes(store: { map: Map<string, unknown> }): string {
  return [...store.map.values()]
    .map((value) =>
      typeof value === 'string'
        ? `${value}\n${Buffer.from(value, 'base64').toString('latin1')}`
        : JSON.stringify(value),
    )
    .join('\n')
}

function setup(overrides: Partial<SessionServiceOptions> = {}) {
  const store = mapStore()
  const cipher = fakeCipher()
  const log = recordingLog()
  const fetchPort = countingFetch()
  const changes: SessionView[] = []
  const options: SessionServiceOptions = {
    firebase,
    authEmulatorUrl: emulatorUrl,
    store,
    cipher,
    log,
    fetch: fetchPort,
    onChange: (view) => void changes.push(view),
    ...overrides,
  }
  return {
    store,
    log,
    fetchPort,
    changes,
    session: createSessionService(options),
    /** The app launched again over the same store and cipher. */
    restart: (more: Partial<SessionServiceOptions> = {}) =>
      createSessionService({ ...options, ...more }),
  }
}

const SIGNED_OUT: SessionView = { signedIn: false, email: null }

describe('session service', () => {
  it('signs in and hands out an ID token for that user', async () => {
    const { email } = await newUser()
    const { session, fetchPort } = setup()

    expect(session.view()).toEqual(SIGNED_OUT)
    expect(await session.idToken()).toBeNull()

    expect(await session.signIn(email, PASSWORD)).toEqual({ signedIn: true, email })
    expect(session.view()).toEqual({ signedIn: true, email })
    const claims = jwtPayload(await session.idToken())
    expect(claims.email).toBe(email)
    expect(claims.admin).toBe(true)
    // A fresh token needs no renewal.
    expect(fetchPort.refreshes).toBe(0)
  })

  it('answers bad credentials with one sentence and stays signed out', async () => {
    const { email } = await newUser()
    const { session, store } = setup()

    const wrongPassword = session.signIn(email, 'not-the-password')
    await expect(wrongPassword).rejects.toBeInstanceOf(UserFacingError)
    await expect(wrongPassword).rejects.toThrow('Please check your credentials.')
    await expect(session.signIn(`nobody-${randomUUID()}@example.com`, PASSWORD)).rejects.toThrow(
      'Please check your credentials.',
    )
    expect(session.view()).toEqual(SIGNED_OUT)
    expect(store.map.size).toBe(0)
  })

  it('says so when the account is disabled', async () => {
    const { email, uid } = await newUser()
    await emulatorAdmin('update', { localId: uid, disableUser: true })
    const { session } = setup()

    await expect(session.signIn(email, PASSWORD)).rejects.toThrow('This account has been disabled.')
    expect(session.view()).toEqual(SIGNED_OUT)
  })

  it('stores the credential encrypted, never in plain text, and never logs a token', async () => {
    const { email } = await newUser()
    const { session, store, log } = setup()
    await session.signIn(email, PASSWORD)
    const idToken = (await session.idToken())!
    const renewed = (await session.forceRefresh())!

    expect(store.map.size).toBe(1)
    const [value] = [...store.map.values()]
    expect(typeof value).toBe('string')
    const bytes = storedBytes(store)
    for (const secret of [idToken, renewed, email, idToken.split('.')[1]!]) {
      expect(bytes).not.toContain(secret)
    }
    // The refresh token is never handed out; the emulator's is base64 JSON naming the user.
    expect(bytes).not.toContain('_AuthEmulatorRefreshToken')
    expect(bytes).not.toContain(Buffer.from('{"_AuthEmulatorRefreshToken"').toString('base64'))

    const logged = log.lines.join('\n')
    expect(logged).not.toContain(idToken)
    expect(logged).not.toContain(renewed)
  })

  it('survives a restart: a new service restores the session without asking Firebase', async () => {
    const { email } = await newUser()
    const first = setup()
    await first.session.signIn(email, PASSWORD)

    const fetchPort = countingFetch()
    const changes: SessionView[] = []
    const second = first.restart({ fetch: fetchPort, onChange: (view) => void changes.push(view) })
    expect(second.view()).toEqual(SIGNED_OUT)
    expect(await second.restore()).toEqual({ signedIn: true, email })
    expect(second.view()).toEqual({ signedIn: true, email })
    expect(jwtPayload(await second.idToken()).email).toBe(email)
    expect(fetchPort.refreshes).toBe(0)
    expect(changes).toEqual([])
  })

  it('renews a restored session whose token is about to expire', async () => {
    const { email } = await newUser()
    const first = setup()
    await first.session.signIn(email, PASSWORD)

    const fetchPort = countingFetch()
    const later = () => Date.now() + 58 * 60_000
    const second = first.restart({ fetch: fetchPort, now: later })
    expect(await second.restore()).toEqual({ signedIn: true, email })
    expect(fetchPort.refreshes).toBe(1)
    expect(jwtPayload(await second.idToken()).email).toBe(email)
  })

  it('keeps the session in memory only when OS encryption is unavailable', async () => {
    const { email } = await newUser()
    const { session, store, log, restart } = setup({ cipher: fakeCipher(false) })

    expect(await session.signIn(email, PASSWORD)).toEqual({ signedIn: true, email })
    expect(jwtPayload(await session.idToken()).email).toBe(email)
    expect(await session.forceRefresh()).not.toBeNull()

    expect(store.map.size).toBe(0)
    const warnings = log.lines.filter((line) => line.startsWith('warn '))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/will not survive a restart/)
    expect(warnings[0]).toMatch(/encryption is unavailable/)

    const relaunched = restart()
    expect(await relaunched.restore()).toEqual(SIGNED_OUT)
    expect(await relaunched.idToken()).toBeNull()
  })

  it('does not bring back an older account once encryption became unavailable', async () => {
    const older = await newUser()
    const newer = await newUser()
    const first = setup()
    await first.session.signIn(older.email, PASSWORD)
    expect(first.store.map.size).toBe(1)

    const withoutCipher = first.restart({ cipher: fakeCipher(false) })
    await withoutCipher.signIn(newer.email, PASSWORD)
    expect(first.store.map.size).toBe(0)
    expect(await first.restart().restore()).toEqual(SIGNED_OUT)
  })

  it('renews the ID token when it is within five minutes of expiry', async () => {
    const { email } = await newUser()
    let skew = 0
    const { session, fetchPort, store } = setup({ now: () => Date.now() + skew })
    await session.signIn(email, PASSWORD)
    const storedBefore = [...store.map.values()][0]

    skew = 54 * 60_000 // six minutes left of the hour
    await session.idToken()
    expect(fetchPort.refreshes).toBe(0)

    skew = 56 * 60_000 // four minutes left
    const [a, b] = await Promise.all([session.idToken(), session.idToken()])
    expect(fetchPort.refreshes).toBe(1) // both callers shared one renewal
    expect(a).toBe(b)
    expect(jwtPayload(a).email).toBe(email)
    expect(session.view()).toEqual({ signedIn: true, email })
    // The renewed credential was stored again.
    expect([...store.map.values()][0]).not.toBe(storedBefore)

    // The renewed token lives an hour from the (skewed) now: no further renewal.
    await session.idToken()
    expect(fetchPort.refreshes).toBe(1)
  })

  it('signs out (and says so) when a forced renewal is refused for a deleted user', async () => {
    const { email, uid } = await newUser()
    const { session, store, changes } = setup()
    await session.signIn(email, PASSWORD)
    await emulatorAdmin('delete', { localId: uid })

    expect(await session.forceRefresh()).toBeNull()
    expect(session.view()).toEqual(SIGNED_OUT)
    expect(changes).toEqual([SIGNED_OUT])
    expect(store.map.size).toBe(0)
    expect(await session.idToken()).toBeNull()
  })

  it('signs out when a renewal is refused for a disabled user', async () => {
    const { email, uid } = await newUser()
    const { session, store, changes } = setup()
    await session.signIn(email, PASSWORD)
    await emulatorAdmin('update', { localId: uid, disableUser: true })

    const [a, b] = await Promise.all([session.forceRefresh(), session.forceRefresh()])
    expect([a, b]).toEqual([null, null])
    expect(session.view()).toEqual(SIGNED_OUT)
    expect(changes).toEqual([SIGNED_OUT])
    expect(store.map.size).toBe(0)
  })

  it('restores signed out, quietly, when the stored session was revoked', async () => {
    const { email, uid } = await newUser()
    const first = setup()
    await first.session.signIn(email, PASSWORD)
    await emulatorAdmin('delete', { localId: uid })

    const changes: SessionView[] = []
    const relaunched = first.restart({
      onChange: (view) => void changes.push(view),
      now: () => Date.now() + 58 * 60_000, // the stored token is due for renewal
    })
    expect(await relaunched.restore()).toEqual(SIGNED_OUT)
    expect(first.store.map.size).toBe(0)
    expect(changes).toEqual([]) // restore() reports its own outcome
  })

  it('signs out: wipes the store and the memory', async () => {
    const { email } = await newUser()
    const { session, store, restart } = setup()
    await session.signIn(email, PASSWORD)
    expect(store.map.size).toBe(1)

    expect(await session.signOut()).toEqual(SIGNED_OUT)
    expect(session.view()).toEqual(SIGNED_OUT)
    expect(store.map.size).toBe(0)
    expect(await session.idToken()).toBeNull()
    expect(await session.forceRefresh()).toBeNull()
    expect(await restart().restore()).toEqual(SIGNED_OUT)
  })

  it.each([
    ['garbage text', 'not base64 at all!'],
    ['bytes this cipher did not seal', Buffer.from('plain').toString('base64')],
    ['a sealed non-credential', fakeCipher().encrypt('{"refreshToken":1}').toString('base64')],
    ['a number', 42],
  ])('restores signed out from a corrupt stored value (%s) and removes it', async (_, value) => {
    const { session, store } = setup()
    store.map.set(SESSION_STORE_KEY, value)

    await expect(session.restore()).resolves.toEqual(SIGNED_OUT)
    expect(session.view()).toEqual(SIGNED_OUT)
    expect(await session.idToken()).toBeNull()
    expect(store.map.size).toBe(0)
  })

  describe('when Firebase cannot be reached', () => {
    const deadNetwork = (failure: () => Error) => {
      const calls: RequestInit[] = []
      const fetchPort: FetchPort = async (_input, init) => {
        calls.push(init ?? {})
        throw failure()
      }
      return { fetchPort, calls }
    }

    it.each([
      ['a refused connection', () => new TypeError('fetch failed')],
      [
        'a timeout',
        () => new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      ],
    ])('fails a renewal with a clear sentence and keeps the session (%s)', async (_, failure) => {
      const { email } = await newUser()
      const dead = deadNetwork(failure)
      const { session, store, changes } = setup({ fetch: dead.fetchPort })
      await session.signIn(email, PASSWORD)

      const attempt = session.forceRefresh()
      await expect(attempt).rejects.toBeInstanceOf(UserFacingError)
      await expect(attempt).rejects.toThrow(/Could not reach Firebase/)
      expect(dead.calls[0]?.signal).toBeInstanceOf(AbortSignal)
      expect(session.view()).toEqual({ signedIn: true, email })
      expect(store.map.size).toBe(1)
      expect(changes).toEqual([])
    })

    it('still hands out a token that has not expired, and refuses one that has', async () => {
      const { email } = await newUser()
      let skew = 0
      const { session } = setup({
        fetch: deadNetwork(() => new TypeError('fetch failed')).fetchPort,
        now: () => Date.now() + skew,
      })
      await session.signIn(email, PASSWORD)

      skew = 58 * 60_000
      expect(jwtPayload(await session.idToken()).email).toBe(email)
      skew = 61 * 60_000
      await expect(session.idToken()).rejects.toThrow(/Could not reach Firebase/)
      expect(session.view()).toEqual({ signedIn: true, email })
    })

    it('restores the saved session and renews it once Firebase answers again', async () => {
      const { email } = await newUser()
      const first = setup()
      await first.session.signIn(email, PASSWORD)

      let online = false
      const fetchPort = countingFetch()
      const flaky: FetchPort = (input, init) =>
        online ? fetchPort(input, init) : Promise.reject(new TypeError('fetch failed'))
      const relaunched = first.restart({ fetch: flaky, now: () => Date.now() + 58 * 60_000 })
      expect(await relaunched.restore()).toEqual({ signedIn: true, email })
      expect(first.store.map.size).toBe(1)

      online = true
      expect(jwtPayload(await relaunched.forceRefresh()).email).toBe(email)
      expect(fetchPort.refreshes).toBe(1)
    })
  })
})
