import { useRef, useState } from 'react'
import type { ChannelResult, FetchedReceipt } from '@shared/ipc'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import { readOrderReference } from './order-reference'

export type PreviewAnswer = ChannelResult<'adminPreviewOrderTransfer'>
type ProcessAnswer = ChannelResult<'adminCreateOrderTransfer'>
export type TransferTab = 'summary' | 'receipt'

export type PreviewState =
  | { status: 'empty' }
  | { status: 'loaded'; orderId: string; answer: PreviewAnswer }
  | { status: 'failed'; orderId: string; message: string }

export type ReceiptState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'loaded'; fetched: FetchedReceipt }
  | { status: 'failed'; message: string }

/** What is wrong with the text typed in the order field, and that text. */
export interface FieldError {
  typed: string
  message: string
}

interface OrderTransfer {
  tab: TransferTab
  chooseTab: (tab: TransferTab) => void
  preview: PreviewState
  sending: boolean
  /** The order field's error, from the last Send, if what it sent was not an order. */
  fieldError: FieldError | null
  receipt: ReceiptState
  processing: boolean
  /**
   * Previews the order the person typed, in any form the console shows one (an ID is required:
   * docs/product-rules.md "The console's texts"); does nothing while a preview or the processing
   * is under way.
   */
  send: (orderIdInput: string) => Promise<void>
  /** Forgets the preview and the receipt, and any answer still on its way. */
  clear: () => void
  retryReceipt: () => void
  /** Processes the previewed order's transfer; the person has confirmed it. */
  process: () => Promise<void>
}

/**
 * The transfer screen's state (docs/product-rules.md "The console's screens"): a preview, then processing. The receipt is fetched on the
 * first opening of the Receipt tab and reused until Clear or another preview, which includes the
 * refreshed one after processing (the receipt then becomes the processed one).
 */
export function useOrderTransfer(): OrderTransfer {
  const bridge = useBridge()
  const [tab, setTab] = useState<TransferTab>('summary')
  const [preview, setPreview] = useState<PreviewState>({ status: 'empty' })
  const [sending, setSending] = useState(false)
  const [fieldError, setFieldError] = useState<FieldError | null>(null)
  const [receipt, setReceipt] = useState<ReceiptState>({ status: 'idle' })
  const [processing, setProcessing] = useState(false)
  // Bumped by every Send and Clear: an answer to an earlier one is stale and dropped.
  const generation = useRef(0)
  // Bumped by every receipt fetch and every preview shown: only the latest fetch's receipt shows.
  const receiptRequest = useRef(0)
  // A ref as well as state: a second Confirm during the dialog's exit must not process twice.
  const processingNow = useRef(false)
  // Read by answers that arrive later, to fetch the receipt only if its tab is open by then.
  const openTab = useRef<TransferTab>('summary')

  /** `announce`: say so when it arrives; a quiet fetch leaves the toast of what led to it. */
  const fetchReceipt = async (orderId: string, announce = true) => {
    const request = ++receiptRequest.current
    setReceipt({ status: 'loading' })
    try {
      const fetched = await bridge.invoke('adminPreviewOrderTransferReceiptPdf', {
        creatorOrderId: orderId,
      })
      if (request !== receiptRequest.current) return
      setReceipt({ status: 'loaded', fetched })
      if (announce) showToast({ title: 'Success', message: 'Receipt PDF fetched' })
    } catch (error) {
      if (request !== receiptRequest.current) return
      setReceipt({ status: 'failed', message: failureReason(error) })
      showToast({
        tone: 'error',
        title: 'Failed to fetch receipt PDF',
        message: failureReason(error),
      })
    }
  }

  /** A preview replaces the receipt of the one before, fetched anew if its tab is open. */
  const showPreview = (orderId: string, answer: PreviewAnswer, announce = true) => {
    receiptRequest.current += 1
    setPreview({ status: 'loaded', orderId, answer })
    setReceipt({ status: 'idle' })
    if (openTab.current === 'receipt') void fetchReceipt(orderId, announce)
  }

  return {
    tab,
    chooseTab(next) {
      setTab(next)
      openTab.current = next
      if (next === 'receipt' && preview.status === 'loaded' && receipt.status === 'idle') {
        void fetchReceipt(preview.orderId)
      }
    },
    preview,
    sending,
    fieldError,
    receipt,
    processing,

    async send(orderIdInput) {
      if (sending || processing) return
      const typed = orderIdInput.trim()
      if (!typed) {
        showToast({ tone: 'error', title: 'Error', message: 'Creator order ID is required' })
        setFieldError({ typed, message: 'Creator order ID is required' })
        return
      }
      const from = ++generation.current
      setSending(true)
      setFieldError(null)
      let orderId = typed
      try {
        const reference = await readOrderReference(bridge, typed)
        if (from !== generation.current) return
        if ('fieldError' in reference) {
          // No earlier preview stays beside it: Process transfer must not act on another order.
          receiptRequest.current += 1
          setPreview({ status: 'empty' })
          setReceipt({ status: 'idle' })
          setFieldError({ typed, message: reference.fieldError })
          return
        }
        orderId = reference.orderId
        const answer = await bridge.invoke('adminPreviewOrderTransfer', { creatorOrderId: orderId })
        if (from !== generation.current) return
        showPreview(orderId, answer)
        showToast({ title: 'Success', message: 'Preview fetched successfully' })
      } catch (error) {
        if (from !== generation.current) return
        receiptRequest.current += 1
        setPreview({ status: 'failed', orderId, message: failureReason(error) })
        setReceipt({ status: 'idle' })
        showToast({
          tone: 'error',
          title: 'Failed to fetch preview',
          message: failureReason(error),
        })
      } finally {
        if (from === generation.current) setSending(false)
      }
    },

    clear() {
      generation.current += 1
      receiptRequest.current += 1
      setPreview({ status: 'empty' })
      setReceipt({ status: 'idle' })
      setSending(false)
      setFieldError(null)
    },

    retryReceipt() {
      if (preview.status === 'loaded') void fetchReceipt(preview.orderId)
    },

    async process() {
      if (preview.status !== 'loaded' || processingNow.current) return
      const { orderId, answer: before } = preview
      const from = generation.current
      processingNow.current = true
      setProcessing(true)
      let processed: ProcessAnswer | null = null
      try {
        processed = await bridge.invoke('adminCreateOrderTransfer', { creatorOrderId: orderId })
        showToast({ title: 'Success', message: 'Order transfer processed' })
      } catch (error) {
        showToast({
          tone: 'error',
          title: 'Failed to process transfer',
          message: failureReason(error),
        })
      }
      // Either way the order may have moved on (another administrator may have processed it, or
      // some brands were done before a step failed): show where it stands now, quietly, so that
      // the toast above stays. Should that read fail after a success, what processing answered
      // still shows the brand orders, and the receipt is fetched again as the processed one.
      try {
        const now = await bridge.invoke('adminPreviewOrderTransfer', { creatorOrderId: orderId })
        if (from === generation.current) showPreview(orderId, now, false)
      } catch {
        if (from === generation.current && processed) {
          showPreview(orderId, withProcessing(before, processed), false)
        }
      } finally {
        processingNow.current = false
        setProcessing(false)
      }
    },
  }
}

/** A preview updated with what processing answered: its status and each brand's order. */
function withProcessing(answer: PreviewAnswer, processed: ProcessAnswer): PreviewAnswer {
  const orderOf = new Map(processed.brandOrders.map((brand) => [brand.brandStoreShop, brand]))
  return {
    ...answer,
    preview: {
      ...answer.preview,
      status: processed.status,
      processedAt: processed.processedAt,
      brands: answer.preview.brands.map((brand) => ({
        ...brand,
        brandOrderId: orderOf.get(brand.brandStoreShop)?.brandOrderId ?? brand.brandOrderId,
      })),
    },
  }
}
