import type { CallName } from '@shared/contract/calls'

/**
 * What each call does, in the words of the specification's toasts (docs/product-rules.md "The
 * console's texts"): errors read `Failed to {action}: {reason}`, and the renderer shows that
 * message as it is.
 */
export const CALL_ACTIONS: Record<CallName, string> = {
  getAllAppConfig: 'fetch app config',
  createAppConfig: 'create app config',
  deleteAppConfig: 'delete app config',
  getAppUrls: 'fetch app urls',
  adminShopConnection: 'fetch connection',
  adminTestShopConnection: 'test connection',
  adminAllStores: 'fetch stores',
  adminUpdateProducts: 'sync products',
  adminProductSyncStatus: 'fetch sync progress',
  adminStorePaymentAccount: 'fetch payout account',
  adminSetStorePaymentAccount: 'set payout account',
  adminSetDefaultCommissionRate: 'set default commission rates',
  adminGetDefaultShopCommissionRate: 'fetch default commission rates',
  adminGetUniqueCommissionRates: 'fetch commission rates',
  adminCreateUniqueCommissionRate: 'create commission rate',
  adminDeleteUniqueCommissionRate: 'delete commission rate',
  adminPreviewOrderTransfer: 'fetch preview',
  adminPreviewOrderTransferReceiptPdf: 'fetch receipt PDF',
  adminCreateOrderTransfer: 'process transfer',
  adminAcceptPriceException: 'accept price exception',
  adminCreatorOrders: 'fetch orders',
  adminOrderTransfers: 'fetch transfer history',
  adminOrderTransfersCsv: 'export CSV',
  adminStoreProducts: 'fetch products',
  adminAuditLog: 'fetch activity',
}

/**
 * The specification: "a non-200 status on commission calls is an error" (docs/product-rules.md "The
 * console's texts"; every one of them answers 200). Other calls accept any 2xx: their answer schema
 * is what guards the console, and a 200 where 201 was expected changes nothing a person sees.
 */
export const EXACT_STATUS_CALLS: ReadonlySet<CallName> = new Set<CallName>([
  'adminSetDefaultCommissionRate',
  'adminGetDefaultShopCommissionRate',
  'adminGetUniqueCommissionRates',
  'adminCreateUniqueCommissionRate',
  'adminDeleteUniqueCommissionRate',
])
