import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, extname, join } from 'node:path'
import { createConsoleLogger } from '../main/adapters/logger'
import type {
  ClipboardPort,
  ExternalOpenerPort,
  FileWriterPort,
  KeyValueStore,
  Logger,
  SaveDialogPort,
  SecretCipher,
} from '../main/services/ports'

// Browser mode's stand-ins for what Electron gives the desktop app.

/** Settings in a JSON file, written whole through a temporary file so a crash never half-writes it. */
export function jsonFileStore(path: string): KeyValueStore {
  let data: Record<string, unknown> = {}
  if (existsSync(path)) {
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
    } catch {
      data = {}
    }
  }
  const save = () => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(`${path}.tmp`, JSON.stringify(data, null, 2), { mode: 0o600 })
    renameSync(`${path}.tmp`, path)
  }
  return {
    get: (key) => data[key],
    set(key, value) {
      data[key] = value
      save()
    },
    delete(key) {
      delete data[key]
      save()
    },
  }
}

/**
 * A plain browser has no OS keychain. Rather than keep the session in a file with its key beside
 * it, browser mode reports encryption as unavailable, and the session stays in memory only.
 */
export const noCipher: SecretCipher = {
  isAvailable: () => false,
  encrypt: () => {
    throw new Error('No OS encryption in browser mode')
  },
  decrypt: () => {
    throw new Error('No OS encryption in browser mode')
  },
}

/** Keeps what was copied, for the person reading the log and for tests. */
export class RecordingClipboard implements ClipboardPort {
  readonly history: string[] = []

  constructor(private readonly log: Logger) {}

  async writeText(text: string): Promise<void> {
    this.history.push(text)
    this.log.info(`Clipboard: ${text.length} characters copied`)
  }

  get last(): string | undefined {
    return this.history.at(-1)
  }
}

/** "Save as" without a dialog: the file goes into the downloads folder, never over another. */
export function downloadsFolder(folder: string): SaveDialogPort {
  return {
    async chooseSavePath(suggestedName) {
      mkdirSync(folder, { recursive: true })
      const extension = extname(suggestedName)
      const stem = suggestedName.slice(0, suggestedName.length - extension.length)
      let candidate = join(folder, suggestedName)
      for (let n = 1; existsSync(candidate); n++) {
        candidate = join(folder, `${stem} (${n})${extension}`)
      }
      return candidate
    },
  }
}

/** Never over an existing file: the downloads folder keeps every save. */
export const nodeFileWriter: FileWriterPort = {
  writeFile: (path, bytes) => writeFile(path, bytes, { flag: 'wx' }),
}

/** Browser mode cannot open the person's browser from here: it names the link in the log. */
export function loggingOpener(log: Logger): ExternalOpenerPort {
  return {
    async open(url) {
      log.info(`Open in your browser: ${url}`)
    },
  }
}

export const consoleLogger = createConsoleLogger('browser-host')
