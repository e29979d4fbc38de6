import { HOLD_MINUTE_MS } from '../domain/transfer-policy'

// How processing bounds itself in time. The lease is what lets another request (or server
// process) take over from one that died; every remote call must end well inside it, so that a
// request that is still talking to Shopify or Stripe is never overtaken.

export interface TransferTiming {
  /** How long a claim holds without renewal; renewed at each step. */
  leaseMs: number
  /** Each call to the commerce platform or the payment provider gives up after this. */
  remoteTimeoutMs: number
  /**
   * Brands of one transfer processed at once. Each brand is a Shopify store of its own, with its
   * own cost bucket; Stripe takes 25 requests a second of one endpoint (accounts, transfers:
   * https://docs.stripe.com/rate-limits, "API endpoints have a default limit of 25 requests per
   * second"), so 20 brands' calls to each at once stay within it, and the Stripe adapter paces a
   * process's calls beyond (stripe-rate.ts).
   */
  brandConcurrency: number
  /**
   * How long a minute of the transfer policy's hold lasts: a minute (docs/product-rules.md
   * "Automatic transfers"). End-to-end tests shorten it, to see an order wait out its hold and then
   * transfer itself without waiting a real minute.
   */
  holdMinuteMs: number
  /**
   * Called at each boundary of each step (`createOrder:after-call` …); resolves at once except
   * where a test stops or kills the server (src/transfers/failpoints.ts).
   */
  failpoint: (name: string) => Promise<void>
}

const DEFAULT_TRANSFER_TIMING: TransferTiming = {
  leaseMs: 30_000,
  remoteTimeoutMs: 10_000,
  brandConcurrency: 20,
  holdMinuteMs: HOLD_MINUTE_MS,
  failpoint: async () => {},
}

/**
 * The defaults with the given changes, checked: a step holds the lease across at most a
 * reconciling read and one call, so the lease must outlast three remote timeouts.
 */
export function transferTiming(changes: Partial<TransferTiming> = {}): TransferTiming {
  const timing = { ...DEFAULT_TRANSFER_TIMING, ...changes }
  if (!changes.remoteTimeoutMs && changes.leaseMs) {
    timing.remoteTimeoutMs = Math.floor(timing.leaseMs / 3)
  }
  if (timing.remoteTimeoutMs < 1 || timing.remoteTimeoutMs * 3 > timing.leaseMs) {
    throw new Error(
      `The transfer lease (${timing.leaseMs} ms) must be at least three remote timeouts ` +
        `(${timing.remoteTimeoutMs} ms each)`,
    )
  }
  if (!Number.isInteger(timing.brandConcurrency) || timing.brandConcurrency < 1) {
    throw new Error(
      `Brands processed at once must be a whole number from 1, not ${timing.brandConcurrency}`,
    )
  }
  return timing
}
