// Scripted failures: a test says what the next N calls of an operation suffer, and the emulator
// applies the scripts in the order they were given. Taking a use is synchronous, so two concurrent
// calls never share one.

export type ShopifyFault = {
  /** A GraphQL root field ('orderCreate', 'products', …) or 'access_token'. */
  operation: string
  /** Only calls to this shop; any shop when absent. */
  shop?: string
  /** How many calls suffer it; 1 when absent. */
  times?: number
} & (
  | { mode: 'error'; status?: number }
  | { mode: 'throttle429'; retryAfterSeconds?: number }
  | { mode: 'delay'; delayMs: number }
  | { mode: 'drop_after_write' }
  | { mode: 'drop_before' }
)

export class FaultScript {
  private readonly scripted: { fault: ShopifyFault; left: number }[] = []

  add(fault: ShopifyFault): void {
    this.scripted.push({ fault, left: fault.times ?? 1 })
  }

  /** The first scripted fault for this call, one of its uses spent; undefined when none applies. */
  take(shop: string, operations: string[]): ShopifyFault | undefined {
    const index = this.scripted.findIndex(
      ({ fault }) =>
        (fault.shop === undefined || fault.shop === shop) && operations.includes(fault.operation),
    )
    const entry = this.scripted[index]
    if (!entry) return undefined
    if (--entry.left === 0) this.scripted.splice(index, 1)
    return entry.fault
  }
}
