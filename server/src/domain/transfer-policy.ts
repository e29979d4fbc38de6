import type { TransferPolicy } from '@shared/contract'

// Whether a paid order transfers by itself, and when (docs/product-rules.md "The transfer
// policy"). The automatic processing asks this of every paid order; it does no I/O.

export type AutomaticTransfer =
  /** An administrator processes it: the policy is MANUAL, or was not yet AUTOMATIC at payment. */
  | { automatic: false }
  /** It transfers by itself once its hold ends. */
  | { automatic: true; holdEndsAt: Date }

/** A minute of the hold, as the product has it (TransferTiming's holdMinuteMs). */
export const HOLD_MINUTE_MS = 60_000

/**
 * When an order came to be, as far as Tandem can trust it: `createdAt` is Shopify's (a creator
 * cannot set it), `paidAt` when Tandem learned it was paid (an orders/paid delivery's arrival, or
 * the catch-up that found it), never before the payment itself.
 */
export interface PaidOrderTimes {
  createdAt: Date
  paidAt: Date
}

/**
 * An order under `policy`. The policy applies to orders made once it was already AUTOMATIC (at
 * `automaticSince` or later), so turning it on never sweeps up orders from before, however late a
 * creator sends their orders/paid; the hold is the policy's current one, counted from when Tandem
 * learned of the payment, which a creator can delay but never bring forward. A minute of it lasts
 * `minuteMs` (TransferTiming's holdMinuteMs: a minute but in end-to-end tests).
 */
export function automaticTransferOf(
  policy: TransferPolicy,
  { createdAt, paidAt }: PaidOrderTimes,
  minuteMs = HOLD_MINUTE_MS,
): AutomaticTransfer {
  if (policy.mode === 'MANUAL' || policy.automaticSince === null) return { automatic: false }
  if (createdAt.getTime() < Date.parse(policy.automaticSince)) return { automatic: false }
  return {
    automatic: true,
    holdEndsAt: new Date(paidAt.getTime() + policy.holdMinutes * minuteMs),
  }
}
