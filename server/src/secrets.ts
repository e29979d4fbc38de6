import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

// Client secrets at rest: AES-256-GCM with a 32-byte key from TANDEM_SECRET_KEY (base64 or hex).
// A sealed value is "v1:" + base64(iv | tag | ciphertext); the tag makes tampering detectable.

const VERSION = 'v1:'

export interface SecretBox {
  seal(plain: string): string
  open(sealed: string): string
}

export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim()
  const key = /^[0-9a-f]{64}$/i.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64')
  if (key.length !== 32) {
    throw new Error('TANDEM_SECRET_KEY must be 32 bytes, written as 64 hex digits or base64')
  }
  return key
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')
    },
    open(sealed) {
      if (!sealed.startsWith(VERSION)) throw new Error('Unknown sealed secret format')
      const data = Buffer.from(sealed.slice(VERSION.length), 'base64')
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12))
      decipher.setAuthTag(data.subarray(12, 28))
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8')
    },
  }
}
