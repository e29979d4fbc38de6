import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import { listAuditEntries } from '../queries/audit-log'
import { countOrdersNeedingAttention, listCreatorOrders } from '../queries/creator-orders'
import { dataRequestJson, listDataRequests } from '../queries/data-requests'
import { createOrderTransferService } from '../services/order-transfers'
import { listOrderTransfers, transferHistoryCsv } from '../queries/transfer-history'

// The lists: the orders inbox and how many of its orders need attention, the transfer history with its CSV export, the activity log, and the
// customers' data requests with each one's JSON.

export const listRoutes = (deps: RouteDeps) => {
  // One for all the inbox's reads: those asking at once share each order's readiness.
  const transfers = createOrderTransferService(deps)
  return {
    adminCreatorOrders: ({ query, signal }) =>
      listCreatorOrders(deps.db, query, deps.now(), (order) =>
        transfers.previewReadiness(order, signal),
      ),
    adminOrdersNeedingAttention: () => countOrdersNeedingAttention(deps.db),
    adminOrderTransfers: ({ query }) => listOrderTransfers(deps.db, query),
    adminOrderTransfersCsv: async () => transferHistoryCsv(deps.db),
    adminAuditLog: ({ query }) => listAuditEntries(deps.db, query),
    adminDataRequests: ({ query }) => listDataRequests(deps.db, query),
    adminDataRequestJson: ({ query }) => dataRequestJson(deps.db, query.id),
  } satisfies Partial<CallRoutes>
}
