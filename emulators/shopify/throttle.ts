// Shopify's leaky bucket for GraphQL cost: points drain by each query's cost and flow back at
// restoreRate per second up to maximumAvailable. The Stripe emulator counts its requests with it
// too, on its own clock.

export interface ThrottleConfig {
  maximumAvailable: number
  restoreRate: number
}

export interface ThrottleStatus extends ThrottleConfig {
  currentlyAvailable: number
}

export class LeakyBucket {
  private available: number
  private updatedAt: number
  /** Points taken and not refunded since the bucket was made: what its requests cost. */
  private spentPoints = 0

  constructor(
    private config: ThrottleConfig,
    private readonly now: () => number = Date.now,
  ) {
    this.available = config.maximumAvailable
    this.updatedAt = now()
  }

  /** A new size and rate, with the bucket full again. */
  reset(config: ThrottleConfig): void {
    this.config = config
    this.available = config.maximumAvailable
    this.updatedAt = this.now()
  }

  /** Takes `cost` points if that many are available; otherwise takes none. */
  take(cost: number): boolean {
    this.refill()
    if (cost > this.available) return false
    this.available -= cost
    this.spentPoints += cost
    return true
  }

  /** Gives back what a query was charged beyond its actual cost. */
  refund(points: number): void {
    this.refill()
    this.available = Math.min(this.config.maximumAvailable, this.available + points)
    this.spentPoints -= points
  }

  /** What the requests it let through cost in all (their actual cost, once refunded). */
  spent(): number {
    return this.spentPoints
  }

  status(): ThrottleStatus {
    this.refill()
    return { ...this.config, currentlyAvailable: Math.floor(this.available) }
  }

  private refill(): void {
    const now = this.now()
    const restored = ((now - this.updatedAt) / 1000) * this.config.restoreRate
    this.available = Math.min(this.config.maximumAvailable, this.available + restored)
    this.updatedAt = now
  }
}
