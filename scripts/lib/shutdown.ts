/** Cleans up what a script started, once: on `stopAll`, or on SIGINT or SIGTERM. */
export interface Shutdown {
  /** Runs at shutdown, before every cleanup added earlier. */
  add(cleanup: () => Promise<unknown> | void): void
  /** Runs the cleanups newest first, one at a time, then exits with `code`. */
  stopAll(code: number): Promise<void>
  /** Whether shutdown has begun, so that a child's exit during it is not taken for a crash. */
  readonly stopping: boolean
}

export function createShutdown(options: { signalExitCode: number }): Shutdown {
  const cleanups: (() => Promise<unknown> | void)[] = []
  let stopping = false
  const shutdown: Shutdown = {
    add: (cleanup) => void cleanups.push(cleanup),
    async stopAll(code) {
      if (stopping) return
      stopping = true
      for (const cleanup of cleanups.reverse()) {
        await Promise.resolve()
          .then(cleanup)
          .catch((error: unknown) => console.error(error))
      }
      process.exit(code)
    },
    get stopping() {
      return stopping
    },
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => void shutdown.stopAll(options.signalExitCode))
  return shutdown
}
