import type { SavedFile } from '@shared/ipc'
import { UserFacingError } from '../errors'
import type {
  ClipboardPort,
  ExternalOpenerPort,
  FileWriterPort,
  Logger,
  SaveDialogPort,
} from '../ports'

export interface DesktopService {
  /** Resolves once the text is on the clipboard; rejects when the OS did not take it. */
  copyText(text: string): Promise<void>
  /** Asks where to save, then writes exactly these bytes. */
  saveFile(suggestedName: string, bytes: Uint8Array): Promise<SavedFile>
  openExternal(url: string): Promise<void>
}

export function createDesktopService(ports: {
  clipboard: ClipboardPort
  saveDialog: SaveDialogPort
  files: FileWriterPort
  opener: ExternalOpenerPort
  log: Logger
}): DesktopService {
  return {
    async copyText(text) {
      try {
        await ports.clipboard.writeText(text)
      } catch (error) {
        // The cause stays in the log: what was being copied may be a secret.
        ports.log.error('The clipboard did not take the text', error)
        throw new UserFacingError('Could not copy to the clipboard: try again')
      }
    },
    async saveFile(suggestedName, bytes) {
      const path = await ports.saveDialog.chooseSavePath(safeFileName(suggestedName))
      if (!path) return { saved: false, path: null }
      await ports.files.writeFile(path, bytes)
      ports.log.info(`Saved ${bytes.length} bytes to ${path}`)
      return { saved: true, path }
    },
    openExternal: (url) => ports.opener.open(url),
  }
}

/**
 * A name the renderer suggests becomes a plain file name: no folders, no characters that
 * Windows, macOS or Linux refuse, never empty.
 */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[<>:"|?*\u0000-\u001f]/g, '-').replace(/^[.\s]+|[.\s]+$/g, '')
  return cleaned || 'download'
}
