import { describe, expect, it } from 'vitest'
import { createDesktopService, safeFileName } from '../../src/main/services/desktop/desktop-service'
import { recordingLogger } from './fakes'

/** Text the fake clipboard refuses, as an OS clipboard held by another program does. */
const REFUSED_BY_THE_OS = 'refused'

function desktopWith(chosenPath: string | null) {
  const written: { path: string; bytes: Uint8Array }[] = []
  const suggested: string[] = []
  const copied: string[] = []
  const opened: string[] = []
  const desktop = createDesktopService({
    clipboard: {
      writeText: async (text) => {
        if (text === REFUSED_BY_THE_OS) throw new Error('The clipboard is owned by another program')
        copied.push(text)
      },
    },
    saveDialog: {
      chooseSavePath: async (name) => {
        suggested.push(name)
        return chosenPath
      },
    },
    files: { writeFile: async (path, bytes) => void written.push({ path, bytes }) },
    opener: { open: async (url) => void opened.push(url) },
    log: recordingLogger(),
  })
  return { desktop, written, suggested, copied, opened }
}

describe('desktop service', () => {
  it('writes exactly the given bytes where the person chose', async () => {
    const { desktop, written, suggested } = desktopWith('/home/ada/receipt.pdf')
    const bytes = new Uint8Array([37, 80, 68, 70, 0, 255])
    expect(await desktop.saveFile('tandem-receipt-#1001.pdf', bytes)).toEqual({
      saved: true,
      path: '/home/ada/receipt.pdf',
    })
    expect(suggested).toEqual(['tandem-receipt-#1001.pdf'])
    expect(written).toEqual([{ path: '/home/ada/receipt.pdf', bytes }])
  })

  it('writes nothing when the save dialog is cancelled', async () => {
    const { desktop, written } = desktopWith(null)
    expect(await desktop.saveFile('a.pdf', new Uint8Array([1]))).toEqual({
      saved: false,
      path: null,
    })
    expect(written).toEqual([])
  })

  it('copies text and opens links through its ports', async () => {
    const { desktop, copied, opened } = desktopWith(null)
    await desktop.copyText('https://tandem.example/shopify/brand')
    await desktop.openExternal('https://tandem.example/help')
    expect(copied).toEqual(['https://tandem.example/shopify/brand'])
    expect(opened).toEqual(['https://tandem.example/help'])
  })

  it('fails a copy the clipboard did not take, rather than report it done', async () => {
    const { desktop, copied } = desktopWith(null)
    await expect(desktop.copyText(REFUSED_BY_THE_OS)).rejects.toThrow(
      'Could not copy to the clipboard: try again',
    )
    expect(copied).toEqual([])
  })

  it('turns a suggested name into a plain file name', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd')
    expect(safeFileName('C:\\Windows\\evil.pdf')).toBe('evil.pdf')
    expect(safeFileName('a<b>c:d"e|f?g*h.pdf')).toBe('a-b-c-d-e-f-g-h.pdf')
    expect(safeFileName('..')).toBe('download')
    expect(safeFileName('tandem-receipt-#1001.pdf')).toBe('tandem-receipt-#1001.pdf')
  })
})
