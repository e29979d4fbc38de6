// Paces this process's requests to Stripe under its rate limits (docs/integrations.md, Stripe):
// so many a second in all, and so many to any one endpoint, the platform's limits shared evenly
// among the server processes alive. Requests wait their turn, first
// come first served on each endpoint; one endpoint at its limit holds up no other.
//
// Turns are spaced evenly (a second / the rate apart), with at most one saved up by an idle
// spell, rather than let through in bursts of a second's worth: Stripe counts requests as they
// arrive, and a burst sent at the very edge of its limit turns into 429s when the network bunches
// it up. Evenly spaced, they keep within a limit of the same number a second counted over any
// second even when bunched up by (rate − 2) / rate of a second. A caller that stops waiting leaves
// the queue and spends no turn, so that the turns go to callers still waiting.
//
// Written here rather than taken from a library: p-throttle (in node_modules, through the Cloud
// SQL connector) spends the turn of a caller who stopped waiting, and is ESM-only for the server's
// CommonJS bundle; bottleneck has not been maintained since 2019.

export interface StripeRateLimits {
  /** TANDEM_STRIPE_REQUESTS_PER_SECOND: the platform's requests a second, every endpoint together. */
  perSecond: number
  /** TANDEM_STRIPE_ENDPOINT_REQUESTS_PER_SECOND: the platform's requests a second to one endpoint. */
  perEndpointPerSecond: number
}

interface Waiter {
  /** Its place in the order callers came. */
  order: number
  grant(): void
}

/** When the next turn is free, and how far apart turns are. */
interface Lane {
  nextAt: number
  spacingMs: number
}

export class StripeRate {
  private readonly all: Lane
  private readonly lanes = new Map<string, Lane>()
  /** Each endpoint's waiters, oldest first. */
  private readonly queues = new Map<string, Waiter[]>()
  private arrivals = 0
  private timer: NodeJS.Timeout | undefined
  /** The processes sharing the limits, this one among them (db/process-presence.ts). */
  private processes = 1

  constructor(
    private readonly limits: StripeRateLimits,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.all = { nextAt: -Infinity, spacingMs: this.spacing(limits.perSecond) }
  }

  /** Paces this process to its share of the limits among `processes` alive, from now on. */
  shareAmong(processes: number): void {
    if (processes === this.processes) return
    this.processes = processes
    this.all.spacingMs = this.spacing(this.limits.perSecond)
    for (const lane of this.lanes.values()) {
      lane.spacingMs = this.spacing(this.limits.perEndpointPerSecond)
    }
    this.release()
  }

  private spacing(perSecond: number): number {
    return (1000 * this.processes) / perSecond
  }

  /**
   * Resolves when a request to `endpoint` may be sent. Rejects with `notSent()` when `signal`
   * aborts first, having taken no turn.
   */
  turn(endpoint: string, signal: AbortSignal | undefined, notSent: () => Error): Promise<void> {
    if (signal?.aborted) return Promise.reject(notSent())
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(endpoint) ?? []
      this.queues.set(endpoint, queue)
      const abort = () => {
        queue.splice(queue.indexOf(waiter), 1)
        reject(notSent())
      }
      const waiter: Waiter = {
        order: this.arrivals++,
        grant: () => {
          signal?.removeEventListener('abort', abort)
          resolve()
        },
      }
      signal?.addEventListener('abort', abort, { once: true })
      queue.push(waiter)
      this.release()
    })
  }

  /** Grants every turn that is free now, then waits for the next one. */
  private release(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    const now = this.now()
    let wakeAt = Infinity
    // Under the overall limit, the endpoint whose first waiter came first goes first.
    const waiting = [...this.queues].sort(([, a], [, b]) => (a[0]?.order ?? 0) - (b[0]?.order ?? 0))
    for (const [endpoint, queue] of waiting) {
      const lane = this.laneOf(endpoint)
      while (queue.length > 0 && lane.nextAt <= now && this.all.nextAt <= now) {
        advance(lane, now)
        advance(this.all, now)
        queue.shift()?.grant()
      }
      if (queue.length === 0) this.queues.delete(endpoint)
      else wakeAt = Math.min(wakeAt, Math.max(lane.nextAt, this.all.nextAt))
    }
    if (wakeAt < Infinity) {
      this.timer = setTimeout(() => this.release(), Math.max(0, wakeAt - now))
    }
  }

  private laneOf(endpoint: string): Lane {
    const lane = this.lanes.get(endpoint) ?? {
      nextAt: -Infinity,
      spacingMs: this.spacing(this.limits.perEndpointPerSecond),
    }
    this.lanes.set(endpoint, lane)
    return lane
  }
}

/**
 * The next turn one spacing after this one, counted from when it was due (a timer fires late, and
 * the rate must not lose that), but never from earlier than one spacing ago: an idle lane saves up
 * one turn, no burst.
 */
function advance(lane: Lane, now: number): void {
  lane.nextAt = Math.max(lane.nextAt, now - lane.spacingMs) + lane.spacingMs
}
