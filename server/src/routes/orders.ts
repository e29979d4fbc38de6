import type { FastifyInstance } from 'fastify'
import type { RouteDeps } from '../deps'
import { pageLimit } from '../domain/page-cursor'
import { defineRoute } from '../http/route'
import { listCreatorOrders } from '../repositories/creator-orders'
import { CSV_HEADER, transferCsvRows } from '../transfers/transfer-csv'
import { allOrderTransfers, listOrderTransfers } from '../transfers/transfer-history'

// The orders inbox and the transfer history with its CSV export.

export function registerOrderRoutes(app: FastifyInstance, deps: RouteDeps): void {
  defineRoute(app, 'adminCreatorOrders', ({ query }) =>
    listCreatorOrders(deps.db, { ...query, limit: pageLimit(query.limit) }),
  )

  defineRoute(app, 'adminOrderTransfers', ({ query }) =>
    listOrderTransfers(deps.db, { cursor: query.cursor, limit: pageLimit(query.limit) }),
  )

  defineRoute(app, 'adminOrderTransfersCsv', async () => {
    let csv = CSV_HEADER
    for await (const transfer of allOrderTransfers(deps.db)) csv += transferCsvRows(transfer)
    return new Uint8Array(Buffer.from(csv, 'utf8'))
  })
}
