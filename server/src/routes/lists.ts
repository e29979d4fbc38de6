import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import { listAuditEntries } from '../queries/audit-log'
import { listCreatorOrders } from '../queries/creator-orders'
import { listOrderTransfers, transferHistoryCsv } from '../queries/transfer-history'

// The lists: the orders inbox, the transfer history with its CSV export, and the activity log.

export const listRoutes = (deps: RouteDeps) =>
  ({
    adminCreatorOrders: ({ query }) => listCreatorOrders(deps.db, query),
    adminOrderTransfers: ({ query }) => listOrderTransfers(deps.db, query),
    adminOrderTransfersCsv: async () => transferHistoryCsv(deps.db),
    adminAuditLog: ({ query }) => listAuditEntries(deps.db, query),
  }) satisfies Partial<CallRoutes>
