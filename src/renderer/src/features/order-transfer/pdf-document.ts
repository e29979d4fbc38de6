// The one module that reaches pdf.js: the receipt viewer imports it dynamically, so the library
// and its worker load with the Receipt tab rather than with the console.
import {
  getDocument,
  GlobalWorkerOptions,
  PixelsPerInch,
  RenderingCancelledException,
  type PDFPageProxy,
  type RenderTask,
} from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'

// The worker is one of the app's own assets (CSP worker-src 'self'), never fetched from a CDN.
GlobalWorkerOptions.workerSrc = workerUrl

/**
 * The most device pixels one page's canvas gets (64 MB of bitmap). A page zoomed to 400% on a
 * HiDPI screen would take several times that; beyond it the page is drawn a little softer.
 */
const MAX_CANVAS_PIXELS = 2 ** 24

export interface PageSize {
  width: number
  height: number
}

export interface ReceiptDocument {
  /** Each page's size in CSS px at zoom 1, its printed size (96 px to the inch), in page order. */
  readonly pageSizes: readonly PageSize[]
  /**
   * Draws page `pageNumber` (1-based) into `canvas` at `zoom`, sharp on HiDPI screens: this sets
   * the canvas's bitmap, its CSS size is the caller's. Resolves once drawn. A newer render into
   * the same canvas stops an older one; a render stopped that way or by destroy() resolves
   * without drawing, so only real failures reject.
   */
  renderPage(pageNumber: number, canvas: HTMLCanvasElement, zoom: number): Promise<void>
  /** Stops every render and ends the worker. */
  destroy(): Promise<void>
}

/**
 * Opens a PDF held in memory. It takes `bytes` over: pdf.js transfers their buffer to its worker,
 * which leaves it empty here, so a caller that keeps the bytes passes a copy.
 */
export async function openReceiptDocument(bytes: Uint8Array): Promise<ReceiptDocument> {
  // pdf.js 6 compiles no code at run time (its isEvalSupported option is gone), which the CSP's
  // lack of 'unsafe-eval' requires.
  const loadingTask = getDocument({ data: bytes })
  let pages: PDFPageProxy[]
  try {
    const pdf = await loadingTask.promise
    pages = await Promise.all(
      Array.from({ length: pdf.numPages }, (_, index) => pdf.getPage(index + 1)),
    )
  } catch (error) {
    await loadingTask.destroy()
    throw error
  }

  const renders = new WeakMap<HTMLCanvasElement, RenderTask>()
  let destroyed = false

  return {
    pageSizes: pages.map((page) => {
      const { width, height } = page.getViewport({ scale: PixelsPerInch.PDF_TO_CSS_UNITS })
      return { width, height }
    }),

    async renderPage(pageNumber, canvas, zoom) {
      const page = pages[pageNumber - 1]
      if (!page) throw new RangeError(`The receipt has no page ${pageNumber}.`)
      if (destroyed) return
      // Cancelling frees the canvas at once: pdf.js refuses two renders into one canvas.
      renders.get(canvas)?.cancel()

      const viewport = page.getViewport({ scale: zoom * PixelsPerInch.PDF_TO_CSS_UNITS })
      const outputScale = Math.min(
        window.devicePixelRatio || 1,
        Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)),
      )
      canvas.width = Math.floor(viewport.width * outputScale)
      canvas.height = Math.floor(viewport.height * outputScale)
      const render = page.render({
        canvas,
        viewport,
        transform: [outputScale, 0, 0, outputScale, 0, 0],
      })
      renders.set(canvas, render)
      try {
        await render.promise
      } catch (error) {
        if (destroyed || error instanceof RenderingCancelledException) return
        throw error
      } finally {
        if (renders.get(canvas) === render) renders.delete(canvas)
      }
    },

    async destroy() {
      destroyed = true
      await loadingTask.destroy()
    },
  }
}
