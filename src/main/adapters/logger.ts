import type { Logger } from '../services/ports'

/**
 * A console whose lines start with `[prefix]`; electron-free, so the browser host uses it too. An
 * error is logged by its stack, never as a whole object: a request error carries its request, and
 * with it the Authorization header.
 */
export function createConsoleLogger(prefix: string): Logger {
  return {
    info: (message) => console.log(`[${prefix}] ${message}`),
    warn: (message) => console.warn(`[${prefix}] ${message}`),
    error: (message, error) => console.error(`[${prefix}] ${message}`, describeError(error)),
  }
}

/** The main process's console. */
export const consoleLogger = createConsoleLogger('main')

function describeError(error: unknown): string {
  if (error === undefined) return ''
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`
  return `(${typeof error})`
}
