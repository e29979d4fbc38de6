import { CommerceError } from '../adapters/commerce/commerce-port'
import { PaymentsError } from '../adapters/payments/payments-port'
import { Refusal } from '../domain/errors'

// Bounds on the calls processing makes to the outside (a deadline per call, a cap on how many run
// at once) and how their failures are worded for the admin.

/** A remote call that did not answer in time: whether it was done is unknown. */
export class RemoteTimeoutError extends Error {
  override name = 'RemoteTimeoutError'
}

/**
 * The call's answer, or RemoteTimeoutError after `ms`. The call's signal is aborted then, so that
 * what it has not sent yet is never sent; what it sent may still land later: the caller keeps its
 * intent recorded and reconciles on the next attempt. When `caller` aborts first (the request's
 * caller stopped waiting), the call's signal is aborted too and its reason thrown at once: a read
 * nobody waits for stops, and holds neither its timer nor its place in a queue until the deadline.
 */
export async function withDeadline<T>(
  ms: number,
  call: (signal: AbortSignal) => Promise<T>,
  caller?: AbortSignal,
): Promise<T> {
  caller?.throwIfAborted()
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  let callerLeft = () => {}
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new RemoteTimeoutError(describe(ms))
      controller.abort(timeout)
      reject(timeout)
    }, ms)
    callerLeft = () => {
      controller.abort(caller!.reason)
      reject(caller!.reason)
    }
    caller?.addEventListener('abort', callerLeft, { once: true })
  })
  try {
    return await Promise.race([call(controller.signal), stopped])
  } finally {
    clearTimeout(timer)
    caller?.removeEventListener('abort', callerLeft)
  }
}

/**
 * Runs a call to Shopify or Stripe within the caller's deadline (withDeadline, bound to it, and to
 * the request's signal when it reads for one).
 */
export type Remote = <T>(call: (signal: AbortSignal) => Promise<T>) => Promise<T>

/** Runs `work` on every item, at most `limit` at once; settles like Promise.allSettled. */
export async function settleWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      try {
        results[index] = { status: 'fulfilled', value: await work(items[index] as T) }
      } catch (reason) {
        results[index] = { status: 'rejected', reason }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/** A platform's or provider's failure, or its silence, worded for the admin: a 502. */
export function upstreamRefusal(what: string, system: string, error: unknown): Error {
  if (error instanceof RemoteTimeoutError) {
    return new Refusal(
      'upstream_failed',
      `${what}: the ${system} did not answer within ${error.message}`,
    )
  }
  if (error instanceof CommerceError || error instanceof PaymentsError) {
    return new Refusal('upstream_failed', `${what}: the ${system} answered "${error.message}"`)
  }
  return error instanceof Error ? error : new Error(String(error))
}

function describe(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
