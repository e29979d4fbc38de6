import { NeedsAttention, NothingToTransfer, type AttentionReason } from './attention'
import { Refusal } from './errors'
import { TransferPlanDataError } from './transfer-plan'

// What the automatic processing of an order (issue 32) does after a failed attempt: retry it with
// backoff, stop and show a person what to fix, or stop because there is nothing to transfer.

export type ProcessingFailure =
  /** Shopify or Stripe failed, was slow or throttled, or another request holds the order. */
  | { outcome: 'transient'; message: string }
  /**
   * A person must act first. `reasons` are those that name a brand and its fix; the order's own
   * refusals (its payment, a transfer Stripe holds twice, data Tandem cannot read) have none, and
   * their message says what is wrong.
   */
  | { outcome: 'needsAttention'; reasons: readonly AttentionReason[]; message: string }
  | { outcome: 'nothingToTransfer'; message: string }

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

export function classifyProcessingFailure(error: unknown): ProcessingFailure {
  const message = messageOf(error)
  if (error instanceof NothingToTransfer) return { outcome: 'nothingToTransfer', message }
  // Checked before the Refusal's kind: a brand store not connected is a 502 a retry cannot mend.
  if (error instanceof NeedsAttention) {
    return { outcome: 'needsAttention', reasons: error.reasons, message }
  }
  // The order as Shopify holds it makes no sense: asking again reads the same.
  if (error instanceof TransferPlanDataError) {
    return { outcome: 'needsAttention', reasons: [], message }
  }
  if (error instanceof Refusal) {
    switch (error.kind) {
      // Shopify or Stripe failed; or another request is processing the order, and a later
      // attempt finds it done or takes over the lease its holder lost.
      case 'upstream_failed':
      case 'conflict':
        return { outcome: 'transient', message }
      // The order is gone, or is no creator order.
      case 'not_found':
        return { outcome: 'nothingToTransfer', message }
      case 'business_rule':
      case 'invalid_input':
        return { outcome: 'needsAttention', reasons: [], message }
    }
  }
  // Anything not worded for a person (a timeout, a busy database, a lost lease) is retried; the
  // job queue's limit on attempts keeps a lasting one from being retried forever.
  return { outcome: 'transient', message }
}
