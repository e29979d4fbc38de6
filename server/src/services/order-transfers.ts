import type { RouteDeps } from '../deps'
import { createTransferService, type TransferActor } from '../transfers/transfer-service'
import { auditAfterTheFact, type Actor } from './audited-change'

// The transfer screen's calls: its reads (preview, receipt, a refund's split) and its changes,
// processing a creator order into brand orders and payouts, accepting a price exception and
// releasing an order Shopify found a risk of fraud on. The
// processing itself is transfers/transfer-service.ts.

export function createOrderTransferService(
  deps: Pick<RouteDeps, 'db' | 'jobs' | 'commerce' | 'payments' | 'now' | 'transferTiming'>,
) {
  const transfers = createTransferService(deps)
  return {
    preview: transfers.preview,
    receipt: transfers.receipt,
    refundSplit: transfers.refundSplit,
    acceptPriceException: transfers.acceptPriceException,
    releaseFraudCheck: transfers.releaseFraudCheck,

    /**
     * Audited once the transfer was claimed, whatever came of it; a refusal before (conflict,
     * business rule, not found) changed nothing. The entry follows Shopify's and Stripe's calls,
     * which no transaction holds, so a failed record does not change the answer: it is logged.
     */
    process: (
      actor: Actor,
      creatorOrderId: string,
      onAuditFailure: (error: unknown) => void,
      checks: Pick<TransferActor, 'checkBrands'> = {},
    ) =>
      transfers.process(creatorOrderId, {
        ...checks,
        adminEmail: actor,
        audit: (target, details) =>
          auditAfterTheFact(
            deps,
            actor,
            { action: 'transfer.process', target, details },
            onAuditFailure,
          ),
      }),
  }
}
