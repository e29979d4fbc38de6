import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { app, clipboard, dialog, shell, type BaseWindow } from 'electron'
import { isSafeExternalUrl } from '../security'
import { UserFacingError } from '../services/errors'
import type {
  ClipboardPort,
  ExternalOpenerPort,
  FileWriterPort,
  SaveDialogPort,
} from '../services/ports'

export const electronClipboard: ClipboardPort = {
  writeText: (text) => clipboard.writeText(text),
}

/** The OS save dialog, opening in Downloads, attached to the window when there is one. */
export function electronSaveDialog(parent: () => BaseWindow | null): SaveDialogPort {
  return {
    async chooseSavePath(suggestedName) {
      const options = {
        defaultPath: join(app.getPath('downloads'), suggestedName),
        filters: [{ name: 'PDF document', extensions: ['pdf'] }],
      }
      const window = parent()
      const result = window
        ? await dialog.showSaveDialog(window, options)
        : await dialog.showSaveDialog(options)
      return result.canceled || !result.filePath ? null : result.filePath
    },
  }
}

export const nodeFileWriter: FileWriterPort = {
  writeFile: (path, bytes) => writeFile(path, bytes),
}

/**
 * The OS browser, for plain web links only. Checked here as well as in the IPC schema: this is
 * the last step before another program receives the URL.
 */
export const electronOpener: ExternalOpenerPort = {
  async open(url) {
    if (!isSafeExternalUrl(url)) throw new UserFacingError('This link cannot be opened.')
    await shell.openExternal(new URL(url).href)
  },
}
