import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import {
  brandPause,
  holdCreatorOrder,
  pauseBrandStore,
  releaseCreatorOrder,
  resumeBrandStore,
} from '../services/holds'
import { createOrderTransferService } from '../services/order-transfers'
import { setTransferPolicy, transferPolicy } from '../services/transfer-policy'

export function transferRoutes(deps: RouteDeps) {
  const transfers = createOrderTransferService(deps)
  return {
    adminPreviewOrderTransfer: ({ query, signal }) =>
      transfers.preview(query.creatorOrderId, signal),
    adminPreviewOrderTransferReceiptPdf: ({ query, signal }) =>
      transfers.receipt(query.creatorOrderId, signal),
    adminPreviewRefundSplit: ({ body }) => transfers.refundSplit(body.creatorOrderId, body.lines),
    adminAcceptPriceException: ({ body, actor }) =>
      transfers.acceptPriceException(body.creatorOrderId, body.reason, actor),
    adminReleaseFraudCheck: ({ body, actor }) =>
      transfers.releaseFraudCheck(body.creatorOrderId, body.reason, actor),
    // Processing takes no signal: its money steps, once begun, finish whether or not anyone waits.
    adminCreateOrderTransfer: ({ body, actor, log }) =>
      transfers.process(actor, body.creatorOrderId, (err) =>
        log.error(
          { err, creatorOrderId: body.creatorOrderId },
          'the audit log could not record a transfer',
        ),
      ),
    adminTransferPolicy: () => transferPolicy(deps),
    adminSetTransferPolicy: ({ body, actor }) => setTransferPolicy(deps, actor, body),
    adminHoldOrder: ({ body, actor }) => holdCreatorOrder(deps, actor, body),
    adminReleaseOrder: ({ body, actor }) => releaseCreatorOrder(deps, actor, body),
    adminBrandPause: ({ query }) => brandPause(deps, query.shop),
    adminPauseBrand: ({ body, actor }) => pauseBrandStore(deps, actor, body),
    adminResumeBrand: ({ body, actor }) => resumeBrandStore(deps, actor, body),
  } satisfies Partial<CallRoutes>
}
