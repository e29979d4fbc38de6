// Scripted failures: a test says what the next N calls of an operation suffer, and the emulator
// applies the scripts in the order they were given. Taking a use is synchronous, so two concurrent
// calls never share one.

export type StripeOperation =
  | 'accounts.retrieve'
  | 'balance.retrieve'
  | 'paymentIntents.retrieve'
  | 'paymentIntents.create'
  | 'refunds.create'
  | 'charges.retrieve'
  | 'transfers.create'
  | 'transfers.list'
  | 'transfers.retrieve'
  | 'transfers.createReversal'
  | 'transfers.listReversals'

/** What a faulted call suffers. */
type FaultMode =
  /** Refused at Stripe's edge, before the endpoint runs: never saved under an idempotency key. */
  | { mode: 'fail'; status?: number; message?: string }
  /** The endpoint began and failed: saved under the idempotency key, as Stripe saves its 500s. */
  | { mode: 'fail_saved'; status?: number; message?: string }
  | { mode: 'delay'; delayMs: number }
  /** The work is done (and its answer saved), then the connection breaks without an answer. */
  | { mode: 'drop_after_write' }

/**
 * transfers.list only: answered as it stood before the newest `behind` (1 when absent) of the
 * transfers it would list were made, as Stripe's list may lag behind a transfer it just made.
 */
type StaleList = { operation: 'transfers.list'; mode: 'stale'; behind?: number }

export type StripeFault = (({ operation: StripeOperation } & FaultMode) | StaleList) & {
  /**
   * Only calls about this id (the account, PaymentIntent or charge id, or the destination account
   * of a transfer or of the transfer reversed); any when absent.
   */
  target?: string
  /** How many calls suffer it; 1 when absent. */
  times?: number
}

export class FaultScript {
  private readonly scripted: { fault: StripeFault; left: number }[] = []

  add(fault: StripeFault): void {
    this.scripted.push({ fault, left: fault.times ?? 1 })
  }

  /** Forgets every fault not yet used up. */
  clear(): void {
    this.scripted.length = 0
  }

  /** The first scripted fault for this call, one of its uses spent; undefined when none applies. */
  take(operation: StripeOperation, target: string | undefined): StripeFault | undefined {
    const index = this.scripted.findIndex(
      ({ fault }) =>
        fault.operation === operation && (fault.target === undefined || fault.target === target),
    )
    const entry = this.scripted[index]
    if (!entry) return undefined
    if (--entry.left === 0) this.scripted.splice(index, 1)
    return entry.fault
  }
}
