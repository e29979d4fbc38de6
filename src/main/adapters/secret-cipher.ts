import { safeStorage } from 'electron'
import type { SecretCipher } from '../services/ports'

/**
 * Electron's safeStorage: Keychain, DPAPI, or a Linux secret service. Without a secret service
 * Linux falls back to `basic_text`, a key written into Chromium itself; that counts as no
 * encryption, so the session then stays in memory only.
 */
export const safeStorageCipher: SecretCipher = {
  isAvailable: () =>
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== 'linux' ||
      !['basic_text', 'unknown'].includes(safeStorage.getSelectedStorageBackend())),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (data) => safeStorage.decryptString(data),
}
