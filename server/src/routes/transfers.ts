import type { FastifyInstance } from 'fastify'
import { recordAudit } from '../audit/audit-log'
import type { RouteDeps } from '../deps'
import { defineRoute } from '../http/route'
import { createTransferService } from '../transfers/transfer-service'

export function registerTransferRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const transfers = createTransferService(deps)
  defineRoute(app, 'adminPreviewOrderTransfer', ({ query }) =>
    transfers.preview(query.creatorOrderId),
  )
  defineRoute(app, 'adminPreviewOrderTransferReceiptPdf', ({ query }) =>
    transfers.receipt(query.creatorOrderId),
  )
  defineRoute(app, 'adminAcceptPriceException', ({ body, request }) =>
    transfers.acceptPriceException(body.creatorOrderId, body.reason, request.adminEmail),
  )
  defineRoute(app, 'adminCreateOrderTransfer', ({ body, request }) =>
    transfers.process(body.creatorOrderId, {
      adminEmail: request.adminEmail,
      // Recorded once the transfer was claimed, whatever came of it; a refusal before (409, 422,
      // 404) changed nothing. A failed record does not change the answer: it is logged instead.
      audit: (creatorOrderId, details) =>
        recordAudit(deps.db, deps.now(), {
          actorEmail: request.adminEmail,
          action: 'transfer.process',
          target: creatorOrderId,
          details,
        }).catch((error: unknown) => {
          request.log.error(
            { err: error, creatorOrderId },
            'the audit log could not record a transfer',
          )
        }),
    }),
  )
}
