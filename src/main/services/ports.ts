// What services need from the outside world. Electron's adapters live in src/main/adapters, the
// browser host's in src/browser-host; tests pass small fakes. No service imports `electron`.

/** electron-store in the desktop app; a JSON file in browser mode; a Map in tests. */
export interface KeyValueStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
  delete(key: string): void
}

/** Electron's safeStorage: OS-backed encryption (Keychain, DPAPI, libsecret). */
export interface SecretCipher {
  isAvailable(): boolean
  encrypt(plain: string): Buffer
  decrypt(data: Buffer): string
}

export interface ClipboardPort {
  /** Settles once the text is on the clipboard (Electron 44 and later write it asynchronously). */
  writeText(text: string): Promise<void>
}

export interface SaveDialogPort {
  /** The path the person chose, or null when they cancelled. */
  chooseSavePath(suggestedName: string): Promise<string | null>
}

export interface FileWriterPort {
  writeFile(path: string, bytes: Uint8Array): Promise<void>
}

export interface ExternalOpenerPort {
  open(url: string): Promise<void>
}

/** Never give it a token or a client secret. */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string, error?: unknown): void
}

export type FetchPort = typeof fetch
