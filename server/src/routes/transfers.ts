import type { FastifyInstance } from 'fastify'
import { recordAudit } from '../audit/audit-log'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
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
  defineRoute(app, 'adminCreateOrderTransfer', async ({ body, request }) => {
    const audit = (details: Record<string, unknown>) =>
      recordAudit(deps.db, deps.now(), {
        actorEmail: request.adminEmail,
        action: 'transfer.process',
        target: body.creatorOrderId,
        details,
      })
    try {
      const processed = await transfers.process(body.creatorOrderId, request.adminEmail)
      await audit({ status: processed.status, brandOrders: processed.brandOrders.length })
      return processed
    } catch (error) {
      // A step that failed may have changed something (an order made, money moved): kept. A
      // refusal before anything was done (409, 422, 404) changed nothing and is not.
      if (error instanceof Refusal && error.kind === 'upstream_failed') {
        await audit({ status: 'FAILED', message: error.message })
      }
      throw error
    }
  })
}
