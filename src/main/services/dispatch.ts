import { describeIssues } from '@shared/contract'
import { channels, isChannel, type Envelope, type HandlerMap } from '@shared/ipc'
import { CONSOLE_NAME } from '@shared/product'
import { UserFacingError } from './errors'
import type { Logger } from './ports'

/**
 * Runs one request from a transport (Electron IPC or the browser host): checks the channel name,
 * parses the argument with the channel's schema, and turns every outcome into an envelope whose
 * error, if any, is a sentence a person can read. Unexpected errors are logged, not forwarded.
 */
export async function dispatch(
  handlers: HandlerMap,
  channel: unknown,
  args: unknown,
  log: Logger,
): Promise<Envelope<unknown>> {
  if (!isChannel(channel)) {
    return failure(`Unknown request "${String(channel).slice(0, 60)}".`)
  }
  const parsed = channels[channel].input.safeParse(args, { reportInput: true })
  if (!parsed.success) return failure(`Invalid input: ${describeIssues(parsed.error, 'argument')}`)
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>
    return { ok: true, value: await handler(parsed.data) }
  } catch (error) {
    if (error instanceof UserFacingError) {
      return { ok: false, error: { message: error.message, reason: error.reason } }
    }
    log.error(`${channel} failed unexpectedly`, error)
    return failure(`Something went wrong in ${CONSOLE_NAME}; the details are in its log.`)
  }
}

function failure(message: string): Envelope<never> {
  return { ok: false, error: { message } }
}
