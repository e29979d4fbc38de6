import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MantineProvider } from '@mantine/core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import ReceiptViewer from '@renderer/features/order-transfer/ReceiptViewer'
import {
  openReceiptDocument,
  type PageSize,
  type ReceiptDocument,
} from '@renderer/features/order-transfer/pdf-document'
import { deferred } from './support/fake-bridge'

// The receipt viewer of the order transfer screen, as a person sees it. jsdom has neither canvas
// nor workers, so pdf.js stands behind a fake document that records what it was asked to draw.

vi.mock('@renderer/features/order-transfer/pdf-document', () => ({
  openReceiptDocument: vi.fn(),
}))

const LETTER: PageSize = { width: 612, height: 792 }
/** The width inside the viewer that fits a Letter page at 150%. */
const VIEWER_WIDTH = 918

/** A PDF's first bytes: enough to tell the input from anything else. */
const receiptBytes = () => new TextEncoder().encode('%PDF-1.3\n% receipt #1001\n')

interface Render {
  pageNumber: number
  canvas: HTMLCanvasElement
  zoom: number
}

function fakeDocument(pageSizes: PageSize[] = [LETTER, LETTER]) {
  const renders: Render[] = []
  const receipt = {
    pageSizes,
    renderPage: vi.fn(async (pageNumber: number, canvas: HTMLCanvasElement, zoom: number) => {
      renders.push({ pageNumber, canvas, zoom })
    }),
    destroy: vi.fn(async () => {}),
  } satisfies ReceiptDocument
  return { receipt, renders }
}

/** What each canvas on screen shows: its label, and the page and zoom last drawn into it. */
const drawn = (renders: Render[]) =>
  screen.queryAllByRole('img').map((canvas) => {
    const last = renders.findLast((render) => render.canvas === canvas)
    return {
      label: canvas.getAttribute('aria-label'),
      pageNumber: last?.pageNumber,
      zoom: last?.zoom,
    }
  })

const bothPagesAt = (zoom: number) => [
  { label: 'Page 1 of 2', pageNumber: 1, zoom },
  { label: 'Page 2 of 2', pageNumber: 2, zoom },
]

// The setup's ResizeObserver never reports; this one reports the width a test sets.
const resizeCallbacks = new Set<ResizeObserverCallback>()

class FakeResizeObserver {
  readonly #callback: ResizeObserverCallback
  constructor(callback: ResizeObserverCallback) {
    this.#callback = callback
  }
  observe() {
    resizeCallbacks.add(this.#callback)
  }
  unobserve() {}
  disconnect() {
    resizeCallbacks.delete(this.#callback)
  }
}

function resizeViewer(width: number) {
  const entry = { contentRect: { width } } as ResizeObserverEntry
  act(() => {
    for (const callback of resizeCallbacks) callback([entry], {} as ResizeObserver)
  })
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', FakeResizeObserver)
})

afterEach(() => {
  vi.unstubAllGlobals()
  resizeCallbacks.clear()
  vi.mocked(openReceiptDocument).mockReset()
})

const viewer = (bytes: Uint8Array, label = 'Receipt #1001') => (
  <MantineProvider env="test">
    <ReceiptViewer bytes={bytes} label={label} />
  </MantineProvider>
)

/** The viewer over a document that opens at once, laid out VIEWER_WIDTH wide. */
async function renderOpened(fake = fakeDocument()) {
  vi.mocked(openReceiptDocument).mockResolvedValue(fake.receipt)
  const view = render(viewer(receiptBytes()))
  resizeViewer(VIEWER_WIDTH)
  await screen.findByRole('img', { name: 'Page 1 of 2' })
  // Pages are drawn in effects after they show: wait until each has been.
  await waitFor(() =>
    expect(fake.renders.length).toBeGreaterThanOrEqual(fake.receipt.pageSizes.length),
  )
  return { ...view, ...fake }
}

const region = () => screen.getByRole('region', { name: 'Receipt #1001' })
const zoomIn = () => screen.getByRole('button', { name: 'Zoom in' })
const zoomOut = () => screen.getByRole('button', { name: 'Zoom out' })
const fitToWidth = () => screen.getByRole('button', { name: 'Fit to width' })

describe('Receipt viewer', () => {
  it('says it is rendering until the PDF opens, then shows every page fitted to the width', async () => {
    const opening = deferred<ReceiptDocument>()
    vi.mocked(openReceiptDocument).mockReturnValue(opening.promise)
    const { receipt, renders } = fakeDocument()
    render(viewer(receiptBytes()))
    resizeViewer(VIEWER_WIDTH)

    expect(await within(region()).findByText('Rendering receipt...')).toBeInTheDocument()
    expect(region()).toHaveAttribute('aria-busy', 'true')
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Zoom in' })).not.toBeInTheDocument()

    await act(async () => opening.resolve(receipt))

    expect(screen.queryByText('Rendering receipt...')).not.toBeInTheDocument()
    expect(region()).toHaveAttribute('aria-busy', 'false')
    expect(screen.getByText('150%')).toBeInTheDocument()
    expect(drawn(renders)).toEqual(bothPagesAt(1.5))
    for (const page of within(region()).getAllByRole('img')) {
      expect(page.tagName).toBe('CANVAS')
      expect(page).toHaveStyle({ width: '918px', height: '1188px' })
    }
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('draws a page of each size at its own size', async () => {
    const landscape = { width: 792, height: 612 }
    const { renders } = await renderOpened(fakeDocument([LETTER, landscape]))

    // The widest page sets the fit: 918 / 792.
    expect(screen.getByText('116%')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Page 1 of 2' })).toHaveStyle({ width: '709.308px' })
    expect(screen.getByRole('img', { name: 'Page 2 of 2' })).toHaveStyle({ width: '917.928px' })
    expect(renders.map((render) => render.zoom)).toEqual([1.159, 1.159])
  })

  it('opens a copy of the bytes, leaving the caller its buffer whole', async () => {
    const bytes = receiptBytes()
    const original = Array.from(bytes)
    const received: number[][] = []
    const { receipt } = fakeDocument()
    vi.mocked(openReceiptDocument).mockImplementation(async (given) => {
      received.push(Array.from(given))
      // As pdf.js does: the buffer goes to the worker, leaving the one passed in empty.
      structuredClone(given.buffer, { transfer: [given.buffer] })
      return receipt
    })

    render(viewer(bytes))

    await vi.waitFor(() => expect(received).toEqual([original]))
    expect(bytes.byteLength).toBe(original.length)
    expect(Array.from(bytes)).toEqual(original)
  })

  it('zooms in and out a step at a time, drawing the pages again at the new zoom', async () => {
    const { renders } = await renderOpened()
    const user = userEvent.setup()

    await user.click(zoomIn())
    expect(screen.getByText('175%')).toBeInTheDocument()
    expect(drawn(renders)).toEqual(bothPagesAt(1.75))
    expect(screen.getByRole('img', { name: 'Page 2 of 2' })).toHaveStyle({
      width: '1071px',
      height: '1386px',
    })

    await user.click(zoomOut())
    await user.click(zoomOut())
    expect(screen.getByText('125%')).toBeInTheDocument()
    expect(drawn(renders)).toEqual(bothPagesAt(1.25))
  })

  it('stops at 400% and at 25%', async () => {
    const { renders } = await renderOpened()
    const user = userEvent.setup()

    for (let clicks = 0; clicks < 20 && zoomIn().hasAttribute('disabled') === false; clicks++) {
      await user.click(zoomIn())
    }
    expect(screen.getByText('400%')).toBeInTheDocument()
    expect(zoomIn()).toBeDisabled()
    expect(zoomOut()).toBeEnabled()
    expect(drawn(renders)).toEqual(bothPagesAt(4))

    for (let clicks = 0; clicks < 20 && zoomOut().hasAttribute('disabled') === false; clicks++) {
      await user.click(zoomOut())
    }
    expect(screen.getByText('25%')).toBeInTheDocument()
    expect(zoomOut()).toBeDisabled()
    expect(zoomIn()).toBeEnabled()
    expect(drawn(renders)).toEqual(bothPagesAt(0.25))
  })

  it('fits no smaller than 25% in a very narrow viewer', async () => {
    const { renders } = await renderOpened()

    resizeViewer(100)

    expect(screen.getByText('25%')).toBeInTheDocument()
    expect(zoomOut()).toBeDisabled()
    expect(drawn(renders)).toEqual(bothPagesAt(0.25))
  })

  it('fits the width again when the viewer is resized, and keeps a chosen zoom', async () => {
    const { renders } = await renderOpened()
    const user = userEvent.setup()

    resizeViewer(459)
    expect(screen.getByText('75%')).toBeInTheDocument()
    expect(drawn(renders)).toEqual(bothPagesAt(0.75))

    await user.click(zoomIn())
    expect(screen.getByText('90%')).toBeInTheDocument()
    const rendersBefore = renders.length
    resizeViewer(VIEWER_WIDTH)
    expect(screen.getByText('90%')).toBeInTheDocument()
    expect(renders).toHaveLength(rendersBefore)

    await user.click(fitToWidth())
    expect(screen.getByText('150%')).toBeInTheDocument()
    expect(drawn(renders)).toEqual(bothPagesAt(1.5))

    resizeViewer(612)
    expect(screen.getByText('100%')).toBeInTheDocument()
    expect(drawn(renders)).toEqual(bothPagesAt(1))
  })

  it('keeps its pages when hidden, where it measures 0 wide', async () => {
    const { renders } = await renderOpened()

    resizeViewer(0)

    expect(screen.getByText('150%')).toBeInTheDocument()
    expect(drawn(renders)).toEqual(bothPagesAt(1.5))
    expect(renders).toHaveLength(2)
  })

  it('says why when the PDF cannot be opened, never a blank box', async () => {
    vi.mocked(openReceiptDocument).mockRejectedValue(new Error('Invalid PDF structure.'))
    render(viewer(receiptBytes()))
    resizeViewer(VIEWER_WIDTH)

    const alert = await within(region()).findByRole('alert')
    expect(alert).toHaveTextContent(
      'The receipt PDF could not be displayed: Invalid PDF structure.',
    )
    expect(screen.queryByText('Rendering receipt...')).not.toBeInTheDocument()
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Zoom in' })).not.toBeInTheDocument()
  })

  it('says why when a page cannot be drawn', async () => {
    const fake = fakeDocument()
    fake.receipt.renderPage.mockImplementation(async (pageNumber) => {
      if (pageNumber === 2) throw new Error('Bad XRef entry')
    })
    vi.mocked(openReceiptDocument).mockResolvedValue(fake.receipt)
    render(viewer(receiptBytes()))
    resizeViewer(VIEWER_WIDTH)

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The receipt PDF could not be displayed: Bad XRef entry',
    )
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
  })

  it('closes the document when it goes', async () => {
    const { receipt, unmount } = await renderOpened()
    expect(receipt.destroy).not.toHaveBeenCalled()

    unmount()

    await vi.waitFor(() => expect(receipt.destroy).toHaveBeenCalledTimes(1))
  })

  it('opens new bytes in place of the old, closing the old document', async () => {
    const first = fakeDocument()
    const second = fakeDocument([LETTER])
    vi.mocked(openReceiptDocument)
      .mockResolvedValueOnce(first.receipt)
      .mockResolvedValueOnce(second.receipt)
    const { rerender } = render(viewer(receiptBytes()))
    resizeViewer(VIEWER_WIDTH)
    await screen.findByRole('img', { name: 'Page 2 of 2' })

    const processed = new TextEncoder().encode('%PDF-1.3\n% receipt #1001, processed\n')
    rerender(viewer(processed))

    // The new page shows, and is then drawn in an effect: wait until it has been.
    await waitFor(() =>
      expect(drawn(second.renders)).toEqual([{ label: 'Page 1 of 1', pageNumber: 1, zoom: 1.5 }]),
    )
    expect(vi.mocked(openReceiptDocument).mock.calls.map(([bytes]) => Array.from(bytes))).toEqual([
      Array.from(receiptBytes()),
      Array.from(processed),
    ])
    expect(first.receipt.destroy).toHaveBeenCalledTimes(1)
    expect(second.receipt.destroy).not.toHaveBeenCalled()
  })

  it('ignores, and closes, a document that opens after the bytes changed', async () => {
    const late = deferred<ReceiptDocument>()
    const stale = fakeDocument()
    const fresh = fakeDocument([LETTER])
    vi.mocked(openReceiptDocument)
      .mockReturnValueOnce(late.promise)
      .mockResolvedValueOnce(fresh.receipt)
    const { rerender } = render(viewer(receiptBytes()))
    resizeViewer(VIEWER_WIDTH)

    rerender(viewer(new TextEncoder().encode('%PDF-1.3\n% receipt #1002\n')))
    await screen.findByRole('img', { name: 'Page 1 of 1' })
    await act(async () => late.resolve(stale.receipt))

    expect(screen.getAllByRole('img').map((page) => page.getAttribute('aria-label'))).toEqual([
      'Page 1 of 1',
    ])
    expect(stale.receipt.renderPage).not.toHaveBeenCalled()
    expect(stale.receipt.destroy).toHaveBeenCalledTimes(1)
  })
})
