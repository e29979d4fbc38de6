import type { KeyValueStore, Logger } from '../../src/main/services/ports'

/** A KeyValueStore in memory, with what was written visible to the test. */
export function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore & {
  data: Record<string, unknown>
} {
  const data = { ...initial }
  return {
    data,
    get: (key) => data[key],
    set: (key, value) => {
      data[key] = value
    },
    delete: (key) => {
      delete data[key]
    },
  }
}

/** A Logger that keeps its lines, so tests can check what reached the log (and what did not). */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message, error) =>
      lines.push(`error ${message} ${error instanceof Error ? error.message : ''}`),
  }
}
