import type { FastifyInstance } from 'fastify'
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
  defineRoute(app, 'adminCreateOrderTransfer', ({ body }) => transfers.process(body.creatorOrderId))
}
