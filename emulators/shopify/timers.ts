// Every timer the emulator arms (bulk operations finishing, webhook retries, scripted delays) goes
// through here so that close() can disarm them all and leave nothing running in the test process.

export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>()

  after(ms: number, task: () => void): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer)
      task()
    }, ms)
    this.pending.add(timer)
  }

  /** Never settles once the timers are cleared: whatever awaited it is being shut down. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve))
  }

  clear(): void {
    for (const timer of this.pending) clearTimeout(timer)
    this.pending.clear()
  }
}
