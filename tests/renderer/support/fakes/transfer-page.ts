import { ONE_OVERSHIRT_SPLIT, order1001Preview } from '../../../support/sandbox-figures'
import { SIGNED_IN, settings, type FakeAnswers } from '../fake-bridge'

// The transfer screen's fakes (/main/create-order-transfer): the one place that answers every call
// the screen makes, signed in, for the sandbox's order 1001. Each test file of the screen spreads
// these and answers beside them only what it is about; a call the screen starts making gets its
// default answer here, and no test file changes. A call answered nowhere is refused by the fake
// bridge, as a failure would be.

/** What the transfer screen reads: order 1001 not yet transferred, found by no search. */
export const transferPageAnswers = (): FakeAnswers => ({
  'session/status': () => SIGNED_IN,
  // A new answer each time, as from over IPC.
  adminPreviewOrderTransfer: () => order1001Preview(settings().apiUrl),
  adminPreviewOrderTransferReceiptPdf: () => ({
    receiptId: 'receipt-of-order-1001',
    bytes: new Uint8Array([0x25, 0x50, 0x44, 0x46]),
  }),
  adminPreviewRefundSplit: () => ONE_OVERSHIRT_SPLIT,
  adminCreatorOrders: () => ({ orders: [], nextCursor: null }),
})
