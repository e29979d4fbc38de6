import type { TransferPolicy } from '@shared/contract'

// Whether a paid order transfers by itself, and when (docs/product-rules.md "The transfer
// policy"). The automatic processing asks this of every paid order; it does no I/O.

export type AutomaticTransfer =
  /** An administrator processes it: the policy is MANUAL, or was not yet AUTOMATIC at payment. */
  | { automatic: false }
  /** It transfers by itself once its hold ends. */
  | { automatic: true; holdEndsAt: Date }

const MINUTE_MS = 60_000

/**
 * An order paid at `paidAt` under `policy`. The policy applies to orders paid when it was already
 * AUTOMATIC (at `automaticSince` or later), so turning it on never sweeps up orders paid before;
 * the hold is the policy's current one, counted from the payment.
 */
export function automaticTransferOf(policy: TransferPolicy, paidAt: Date): AutomaticTransfer {
  if (policy.mode === 'MANUAL' || policy.automaticSince === null) return { automatic: false }
  if (paidAt.getTime() < Date.parse(policy.automaticSince)) return { automatic: false }
  return {
    automatic: true,
    holdEndsAt: new Date(paidAt.getTime() + policy.holdMinutes * MINUTE_MS),
  }
}
