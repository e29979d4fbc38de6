import { lazy, Suspense, useState } from 'react'
import { Button, Text } from '@mantine/core'
import { IconDownload } from '@tabler/icons-react'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import type { ReceiptState } from './useOrderTransfer'

// pdf.js and its worker are large and only this tab needs them: they load on its first opening.
const ReceiptViewer = lazy(() => import('./ReceiptViewer'))

/**
 * The default name of a saved receipt (docs/product-rules.md "The desktop app"): the order's name
 * with only what a file name carries well, so `#1001` saves as tandem-receipt-1001.pdf.
 */
const receiptFileName = (orderName: string) =>
  `tandem-receipt-${orderName.replace(/[^\w.-]+/g, '')}.pdf`

interface ReceiptPanelProps {
  orderName: string
  receipt: ReceiptState
  onRetry: () => void
}

/** The Receipt tab: the receipt PDF drawn in the console, and saved to disk on request. */
export function ReceiptPanel({ orderName, receipt, onRetry }: ReceiptPanelProps) {
  if (receipt.status === 'failed')
    return <LoadFailure message={receipt.message} onRetry={onRetry} />
  if (receipt.status !== 'loaded') return <Text c="dimmed">Fetching receipt preview...</Text>
  return (
    <Suspense fallback={<Text c="dimmed">Rendering receipt...</Text>}>
      <ReceiptViewer
        bytes={receipt.fetched.bytes}
        label={`Receipt ${orderName}`}
        actions={<SaveReceiptButton receiptId={receipt.fetched.receiptId} orderName={orderName} />}
      />
    </Suspense>
  )
}

/** Writes the bytes main kept of the receipt shown, through the OS's save dialog. */
function SaveReceiptButton({ receiptId, orderName }: { receiptId: string; orderName: string }) {
  const bridge = useBridge()
  const [saving, setSaving] = useState(false)

  const save = async () => {
    setSaving(true)
    try {
      const saved = await bridge.invoke('receipt/save', {
        receiptId,
        suggestedName: receiptFileName(orderName),
      })
      // A cancelled dialog is the person's choice, not news.
      if (saved.saved) showToast({ title: 'Receipt saved', message: `Saved to ${saved.path}` })
    } catch (error) {
      showToast({
        tone: 'error',
        title: 'Failed to save receipt PDF',
        message: failureReason(error),
      })
    } finally {
      setSaving(false)
    }
  }

  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={saving}
      onClick={() => void save()}
    >
      Save PDF
    </Button>
  )
}
