// Bounds on the calls processing makes to the outside: a deadline per call, and a cap on how many
// run at once.

/** A remote call that did not answer in time: whether it was done is unknown. */
export class RemoteTimeoutError extends Error {
  override name = 'RemoteTimeoutError'
}

/**
 * The call's answer, or RemoteTimeoutError after `ms`. The call's signal is aborted then, so that
 * what it has not sent yet is never sent; what it sent may still land later: the caller keeps its
 * intent recorded and reconciles on the next attempt.
 */
export async function withDeadline<T>(
  ms: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new RemoteTimeoutError(describe(ms))
      controller.abort(timeout)
      reject(timeout)
    }, ms)
  })
  try {
    return await Promise.race([call(controller.signal), deadline])
  } finally {
    clearTimeout(timer)
  }
}

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

function describe(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
