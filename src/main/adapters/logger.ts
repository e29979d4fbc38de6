import type { Logger } from '../services/ports'

/**
 * The main process's console. An error is logged by its stack, never as a whole object: a request
 * error carries its request, and with it the Authorization header.
 */
export const consoleLogger: Logger = {
  info: (message) => console.log(`[main] ${message}`),
  warn: (message) => console.warn(`[main] ${message}`),
  error: (message, error) => console.error(`[main] ${message}`, describeError(error)),
}

function describeError(error: unknown): string {
  if (error === undefined) return ''
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`
  return `(${typeof error})`
}
