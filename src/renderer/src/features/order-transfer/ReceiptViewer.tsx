import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { ActionIcon, Alert, Button, Group, Loader, Stack, Text } from '@mantine/core'
import { clamp } from '@mantine/hooks'
import { IconArrowAutofitWidth, IconZoomIn, IconZoomOut } from '@tabler/icons-react'
import { errorMessage } from '@renderer/lib/bridge'
import type { PageSize, ReceiptDocument } from './pdf-document'
import classes from './ReceiptViewer.module.css'

interface ReceiptViewerProps {
  /**
   * The receipt PDF's exact bytes. The viewer must not detach or modify this buffer (pdf.js
   * transfers the buffer it is given to its worker: pass it a copy).
   */
  bytes: Uint8Array
  /** Accessible name of the viewer region, e.g. "Receipt #1001". */
  label: string
  /** The page's own buttons (Save PDF), at the end of the toolbar, there even if drawing fails. */
  actions?: ReactNode
}

const MIN_ZOOM = 0.25
const MAX_ZOOM = 4
/** The zoom levels that Zoom in and Zoom out step through, from any zoom fitting gave. */
const ZOOM_STEPS = [
  MIN_ZOOM,
  0.33,
  0.5,
  0.67,
  0.75,
  0.9,
  1,
  1.1,
  1.25,
  1.5,
  1.75,
  2,
  2.5,
  3,
  MAX_ZOOM,
]

/** Zooms are compared as shown, so that a step never lands on the percentage already on screen. */
const percent = (zoom: number) => Math.round(zoom * 100)

/**
 * pdf.js's module, imported once for every viewer when the first one shows. Sharing the import
 * also keeps tests honest: Vitest has handed overlapping imports of a mocked module the real one
 * (vitest-dev/vitest#7040, seen with Vitest 4).
 */
let pdfDocumentModule: Promise<typeof import('./pdf-document')> | undefined
const loadPdfDocument = () => (pdfDocumentModule ??= import('./pdf-document'))

/** 'fit' follows the viewer's width; a number stays put when the viewer is resized. */
type ZoomChoice = 'fit' | number

type Opened =
  | { status: 'opening' }
  | { status: 'ready'; receipt: ReceiptDocument }
  | { status: 'failed'; message: string }

/** The zoom at which the widest page fills the width inside the viewer, within the bounds. */
function fitZoom(width: number, pageSizes: readonly PageSize[]): number {
  const widest = Math.max(...pageSizes.map((size) => size.width))
  // Rounded down, so that the widest page never overflows by a fraction of a pixel.
  return clamp(Math.floor((width / widest) * 1000) / 1000, MIN_ZOOM, MAX_ZOOM)
}

/**
 * The receipt PDF, every page drawn as it prints, stacked in a scrolling region 70% of the window
 * high (docs/product-rules.md), with zoom controls. pdf.js is imported when the viewer first shows.
 */
export default function ReceiptViewer({ bytes, label, actions }: ReceiptViewerProps) {
  // Tagged with the bytes it belongs to: new bytes read as opening until their document is.
  const [opened, setOpened] = useState<Opened & { bytes: Uint8Array }>({
    bytes,
    status: 'opening',
  })
  const shown: Opened = opened.bytes === bytes ? opened : { status: 'opening' }
  const [zoomChoice, setZoomChoice] = useState<ZoomChoice>('fit')
  const [width, setWidth] = useState<number | null>(null)
  const regionRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    let current = true
    const opening = loadPdfDocument().then(({ openReceiptDocument }) =>
      // A copy: pdf.js takes the buffer it is given, and these bytes are the page's to save.
      openReceiptDocument(bytes.slice()),
    )
    opening.then(
      (receipt) => {
        if (current) setOpened({ bytes, status: 'ready', receipt })
      },
      (error: unknown) => {
        if (current) setOpened({ bytes, status: 'failed', message: errorMessage(error) })
      },
    )
    return () => {
      current = false
      // A document still opening is closed once it has; one that failed needs no closing.
      opening.then((receipt) => receipt.destroy()).catch(() => {})
    }
  }, [bytes])

  useEffect(() => {
    const region = regionRef.current
    if (!region) return
    const observer = new ResizeObserver(([entry]) => {
      // A hidden viewer (an inactive tab) measures 0: it keeps its pages for when it shows again.
      const contentWidth = entry?.contentRect.width
      if (contentWidth) setWidth(contentWidth)
    })
    observer.observe(region)
    return () => observer.disconnect()
  }, [])

  const renderFailed = useCallback(
    (message: string) => setOpened({ bytes, status: 'failed', message }),
    [bytes],
  )

  const receipt = shown.status === 'ready' ? shown.receipt : null
  let zoom: number | null = null
  if (typeof zoomChoice === 'number') zoom = zoomChoice
  else if (receipt && width !== null) zoom = fitZoom(width, receipt.pageSizes)

  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap">
        {receipt && zoom !== null && <ZoomControls zoom={zoom} onZoom={setZoomChoice} />}
        <Group gap="xs" ml="auto">
          {actions}
        </Group>
      </Group>
      <div
        ref={regionRef}
        role="region"
        aria-label={label}
        aria-busy={shown.status === 'opening'}
        data-failed={shown.status === 'failed' || undefined}
        className={classes.region}
      >
        {shown.status === 'failed' ? (
          <Alert color="red" variant="light">
            {`The receipt PDF could not be displayed: ${shown.message}`}
          </Alert>
        ) : receipt && zoom !== null ? (
          receipt.pageSizes.map((size, index) => (
            <PageCanvas
              key={index}
              receipt={receipt}
              pageNumber={index + 1}
              pageCount={receipt.pageSizes.length}
              size={size}
              zoom={zoom}
              onFailure={renderFailed}
            />
          ))
        ) : (
          <Group justify="center" gap="xs" py="xl">
            <Loader size="sm" />
            <Text c="dimmed">Rendering receipt...</Text>
          </Group>
        )}
      </div>
    </Stack>
  )
}

interface ZoomControlsProps {
  zoom: number
  onZoom: (choice: ZoomChoice) => void
}

function ZoomControls({ zoom, onZoom }: ZoomControlsProps) {
  const shown = percent(zoom)
  const smaller = ZOOM_STEPS.findLast((step) => percent(step) < shown)
  const larger = ZOOM_STEPS.find((step) => percent(step) > shown)

  return (
    <Group gap="xs">
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Zoom out"
        disabled={smaller === undefined}
        onClick={() => smaller !== undefined && onZoom(smaller)}
      >
        <IconZoomOut size={18} stroke={1.75} aria-hidden />
      </ActionIcon>
      {/* Read out after each step, for whoever cannot see the pages change. */}
      <Text size="sm" w={48} ta="center" aria-live="polite">
        {`${shown}%`}
      </Text>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Zoom in"
        disabled={larger === undefined}
        onClick={() => larger !== undefined && onZoom(larger)}
      >
        <IconZoomIn size={18} stroke={1.75} aria-hidden />
      </ActionIcon>
      <Button
        variant="default"
        leftSection={<IconArrowAutofitWidth size={18} stroke={1.75} aria-hidden />}
        onClick={() => onZoom('fit')}
      >
        Fit to width
      </Button>
    </Group>
  )
}

interface PageCanvasProps {
  receipt: ReceiptDocument
  pageNumber: number
  pageCount: number
  size: PageSize
  zoom: number
  onFailure: (message: string) => void
}

/** One page: laid out at its zoomed size at once, drawn into once pdf.js has it. */
function PageCanvas({ receipt, pageNumber, pageCount, size, zoom, onFailure }: PageCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null)

  useEffect(() => {
    const canvas = canvasRef.current
    if (!canvas) return
    let current = true
    receipt.renderPage(pageNumber, canvas, zoom).catch((error: unknown) => {
      if (current) onFailure(errorMessage(error))
    })
    return () => {
      current = false
    }
  }, [receipt, pageNumber, zoom, onFailure])

  return (
    <canvas
      ref={canvasRef}
      role="img"
      aria-label={`Page ${pageNumber} of ${pageCount}`}
      className={classes.page}
      style={{ width: size.width * zoom, height: size.height * zoom }}
    />
  )
}
