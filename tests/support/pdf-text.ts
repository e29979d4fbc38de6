import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs'

// Reading PDFs in Node as a person reads them, with pdf.js (the viewer the console uses).

// pdfjs reads the metrics of the standard fonts from these files; without them it warns on every
// page (the text it extracts is the same either way).
const standardFontDataUrl = `${join(
  dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
  'standard_fonts',
)}/`

/** Opens the PDF, hands it to `read`, and closes it whatever happens. */
export async function readPdf<T>(
  bytes: Uint8Array,
  read: (document: PDFDocumentProxy) => Promise<T>,
): Promise<T> {
  const loadingTask = getDocument({
    // A copy: pdf.js takes over the buffer it is given.
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    standardFontDataUrl,
  })
  try {
    return await read(await loadingTask.promise)
  } finally {
    await loadingTask.destroy()
  }
}

/** The text of each page, its runs joined by spaces, as a reader (or a search in a viewer) sees it. */
export const pageTexts = (bytes: Uint8Array): Promise<string[]> =>
  readPdf(bytes, async (document) => {
    const pages: string[] = []
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent()
      const runs = content.items.map((item) => ('str' in item ? item.str : ''))
      pages.push(runs.join(' ').replace(/\s+/g, ' '))
    }
    return pages
  })

/** All the text of the PDF, its pages joined by single spaces. */
export const pdfText = async (bytes: Uint8Array): Promise<string> =>
  (await pageTexts(bytes)).join(' ')
