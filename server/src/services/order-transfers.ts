import type { OrderReadiness } from '@shared/contract'
import type { RouteDeps } from '../deps'
import { remedyOf, type ReasonOrder } from '../domain/attention'
import { classifyProcessingFailure } from '../domain/processing-failure'
import { sharedWork } from '../lib/shared-work'
import { createTransferService, type TransferActor } from '../transfers/transfer-service'
import { auditAfterTheFact, type Actor } from './audited-change'

// The transfer screen's calls: its reads (preview, receipt, a refund's split) and its changes,
// processing a creator order into brand orders and payouts, accepting a price exception and
// releasing an order Shopify found a risk of fraud on. The
// processing itself is transfers/transfer-service.ts.

export function createOrderTransferService(
  deps: Pick<RouteDeps, 'db' | 'jobs' | 'commerce' | 'payments' | 'now' | 'transferTiming'> &
    Partial<Pick<RouteDeps, 'previewCache'>>,
) {
  const transfers = createTransferService(deps)

  /** Each order's readiness being worked out, shared by the inbox's reads asking at once. */
  const underWay = sharedWork<OrderReadiness>()

  /**
   * What the preview says of the order, as the inbox shows it (previewReadiness); its reads stop
   * once `signal` aborts.
   */
  async function readinessOf(order: ReasonOrder, signal: AbortSignal): Promise<OrderReadiness> {
    try {
      await transfers.check(order.id, signal)
      return { state: 'MANUAL' }
    } catch (error) {
      const failure = classifyProcessingFailure(error)
      switch (failure.outcome) {
        case 'nothingToTransfer':
          return { state: 'NOTHING_TO_TRANSFER', message: failure.message }
        case 'needsAttention': {
          const reasons = failure.reasons.map((reason) => ({
            sentence: reason.sentence,
            remedy: remedyOf(reason.kind, reason.brandStoreShop, order),
          }))
          return {
            state: 'NEEDS_ATTENTION',
            reasons: reasons.length > 0 ? reasons : [{ sentence: failure.message, remedy: null }],
          }
        }
        case 'transient':
          return { state: 'MANUAL' }
      }
    }
  }

  return {
    preview: transfers.preview,

    /**
     * What the preview says of an order an administrator processes (the inbox's MANUAL), as the
     * inbox shows it: that it needs attention and why, or has nothing to transfer, or, previewed,
     * that it waits for an administrator. Shopify or Stripe failing tells nothing: it waits.
     * The inbox read on several consoles at once (or again before the last read finished) works
     * each order out once: its reads of Tandem's records, Shopify and Stripe are not made again.
     * Once `caller` aborts (the inbox's caller left), it throws its reason; the reads stop once
     * no caller waits for them.
     */
    previewReadiness(order: ReasonOrder, caller?: AbortSignal): Promise<OrderReadiness> {
      return underWay.join(order.id, (signal) => readinessOf(order, signal), {
        caller,
        tag: undefined,
      })
    },
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
