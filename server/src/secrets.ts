import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

// Client secrets and Shopify tokens at rest: AES-256-GCM under a 32-byte key (TANDEM_SECRET_KEY,
// base64 or hex). A sealed value is "v2:" + the key's id + ":" + base64(iv | tag | ciphertext):
// - the 16-byte tag makes tampering detectable, and a shorter one is refused (GCM would accept a
//   4-byte tag, which a forger guesses);
// - the shop and the field are the associated data, so a value copied onto another shop's row, or
//   into another column of the same row, does not open;
// - the key id says which key sealed it, so that values sealed under a previous key
//   (TANDEM_PREVIOUS_SECRET_KEYS) still open until `npm run secrets:rotate` seals them anew.
// "v1:" values (no key id, bound to nothing) are from before; only the rotation command opens
// them, to seal them anew: a server refuses them, since one could be moved onto any shop's row.

const IV_BYTES = 12
const TAG_BYTES = 16

/** What a sealed value is: part of what it is bound to, and named in its errors. */
export type SecretField = 'client secret' | 'Shopify access token' | 'Shopify refresh token'

/** Where a sealed value belongs. */
export interface SecretPlace {
  shop: string
  field: SecretField
}

export interface SecretBox {
  /** The id of the key new values are sealed under. */
  readonly keyId: string
  seal(plain: string, place: SecretPlace): string
  /** Throws SecretUnreadableError when the value cannot be opened, saying which and why. */
  open(sealed: string, place: SecretPlace): string
}

/** A stored secret that does not open: sealed under a key this server lacks, altered, or moved. */
export class SecretUnreadableError extends Error {
  constructor(place: SecretPlace, reason: string) {
    super(`The ${place.field} of ${place.shop} cannot be read: ${reason}`)
    this.name = 'SecretUnreadableError'
  }
}

/** Why a value did not open, before the caller's place is added. */
class Unopened extends Error {}

export function parseSecretKey(text: string, name = 'TANDEM_SECRET_KEY'): Buffer {
  const trimmed = text.trim()
  const key = /^[0-9a-f]{64}$/i.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64')
  if (key.length !== 32) {
    throw new Error(`${name} must be 32 bytes, written as 64 hex digits or base64`)
  }
  return key
}

/** A key's public name: derived from the key, so that no setting can pair a key with a wrong id. */
export const keyIdOf = (key: Buffer): string =>
  createHash('sha256').update('tandem-secret-key-id:').update(key).digest('hex').slice(0, 12)

const boundTo = (place: SecretPlace) => Buffer.from(`${place.field}\0${place.shop}`, 'utf8')

/**
 * Seals under `current`; opens what `current` or any of `previous` sealed. `openLegacy`: v1
 * values open too (the rotation command's, and only its).
 */
export function createSecretBox(
  current: Buffer,
  previous: Buffer[] = [],
  options: { openLegacy?: boolean } = {},
): SecretBox {
  const currentId = keyIdOf(current)
  const keys = new Map([current, ...previous].map((key) => [keyIdOf(key), key]))
  const prefix = `v2:${currentId}:`

  function openValue(sealed: string, place: SecretPlace): string {
    const v2 = /^v2:([0-9a-f]{12}):(.*)$/s.exec(sealed)
    if (v2) {
      const key = keys.get(v2[1]!)
      if (!key) {
        throw new Unopened(
          `it was sealed under key ${v2[1]}, which this server does not hold ` +
            '(set it as TANDEM_SECRET_KEY or in TANDEM_PREVIOUS_SECRET_KEYS)',
        )
      }
      return decrypt(key, v2[2]!, boundTo(place))
    }
    if (sealed.startsWith('v1:')) {
      if (!options.openLegacy) {
        throw new Unopened(
          'it is in the old format, bound to no shop: run `npm run secrets:rotate`',
        )
      }
      // No key id: any key held may have sealed it.
      for (const key of keys.values()) {
        try {
          return decrypt(key, sealed.slice(3), null)
        } catch {
          continue
        }
      }
      throw new Unopened('it opens under none of the keys this server holds')
    }
    throw new Unopened('it is not a sealed value this server knows')
  }

  return {
    keyId: currentId,
    seal(plain, place) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', current, iv, { authTagLength: TAG_BYTES })
      cipher.setAAD(boundTo(place))
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return prefix + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')
    },
    open(sealed, place) {
      try {
        return openValue(sealed, place)
      } catch (error) {
        if (error instanceof Unopened) throw new SecretUnreadableError(place, error.message)
        throw error
      }
    },
  }
}

function decrypt(key: Buffer, body: string, associatedData: Buffer | null): string {
  const data = Buffer.from(body, 'base64')
  if (data.length < IV_BYTES + TAG_BYTES) {
    throw new Unopened('it is too short to hold a whole 16-byte tag')
  }
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES), {
    authTagLength: TAG_BYTES,
  })
  decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  if (associatedData) decipher.setAAD(associatedData)
  try {
    const plain = Buffer.concat([
      decipher.update(data.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ])
    return plain.toString('utf8')
  } catch {
    throw new Unopened(
      associatedData
        ? 'it does not open where it is stored: it was altered, or sealed for another shop or field'
        : 'it does not open: it was altered',
    )
  }
}
