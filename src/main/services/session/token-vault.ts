import { z } from 'zod'
import type { KeyValueStore, Logger, SecretCipher } from '../ports'

// The session at rest: encrypted with the OS cipher, base64 under one key, never in plain text.

/** No dot: electron-store reads dots as nested paths. */
export const SESSION_STORE_KEY = 'sessionCredential'

export const StoredCredential = z.object({
  refreshToken: z.string().min(1),
  idToken: z.string().min(1),
  /** Epoch milliseconds, measured on the service's clock. */
  expiresAt: z.number(),
  email: z.string().nullable(),
})
export type StoredCredential = z.infer<typeof StoredCredential>

export interface TokenVault {
  /** The stored credential; null when there is none or it cannot be read (it is then removed). */
  load(): StoredCredential | null
  /** Stores the credential when the OS can encrypt it; otherwise removes what was stored. */
  save(credential: StoredCredential): void
  clear(): void
}

export function createTokenVault(
  store: KeyValueStore,
  cipher: SecretCipher,
  log: Logger,
): TokenVault {
  let warnedUnavailable = false
  const warnUnavailable = () => {
    if (warnedUnavailable) return
    warnedUnavailable = true
    log.warn(
      'OS encryption is unavailable, so the session is kept in memory only and will not survive a restart.',
    )
  }

  return {
    load() {
      const stored = store.get(SESSION_STORE_KEY)
      if (stored === undefined) return null
      // Left in place: the OS keyring may be back at the next launch and decrypt it then.
      if (!cipher.isAvailable()) {
        warnUnavailable()
        return null
      }
      const credential = decryptCredential(stored, cipher)
      if (!credential) {
        log.warn('The saved session could not be read; it was removed and you are signed out.')
        store.delete(SESSION_STORE_KEY)
      }
      return credential
    },

    save(credential) {
      if (!cipher.isAvailable()) {
        warnUnavailable()
        // An older account's credential must not come back at the next launch.
        store.delete(SESSION_STORE_KEY)
        return
      }
      try {
        const sealed = cipher.encrypt(JSON.stringify(credential))
        store.set(SESSION_STORE_KEY, sealed.toString('base64'))
      } catch {
        // The error is not passed on: a cipher's error could quote what it was asked to encrypt.
        log.error('Could not encrypt the session; it is kept in memory only.')
        store.delete(SESSION_STORE_KEY)
      }
    },

    clear() {
      store.delete(SESSION_STORE_KEY)
    },
  }
}

function decryptCredential(stored: unknown, cipher: SecretCipher): StoredCredential | null {
  if (typeof stored !== 'string' || stored === '') return null
  try {
    const parsed = StoredCredential.safeParse(
      JSON.parse(cipher.decrypt(Buffer.from(stored, 'base64'))),
    )
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
