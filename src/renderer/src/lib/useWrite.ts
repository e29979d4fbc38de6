import { useCallback, useRef, useState } from 'react'
import { failureReason } from '@renderer/lib/bridge'
import { withMember } from '@renderer/lib/sets'
import { showToast, type Toast } from '@renderer/lib/toast'

/** A toast's words; its colour follows from how the write went. */
export type ToastText = Pick<Toast, 'title' | 'message'>

export interface WriteToasts<Result = unknown> {
  /** Shown when the write succeeds: fixed words, or words made from what it answered (a count). */
  success: ToastText | ((result: Result) => ToastText)
  /** Shown when it fails: fixed words, or words made from the reason (the server's sentence). */
  failure: ToastText | ((reason: string) => ToastText)
}

/** The writes of one hook that run by default: a form's single save. */
const ONE = ''

/**
 * A change the page asks the main process to make, in the manner of useRemote for reads. `run`
 * takes the write and answers its result, or undefined when it failed or was refused. It shows the
 * success toast or the destructive failure toast, and keeps the failure's reason in `refusal`
 * (shown beside the form or table by RefusalAlert, cleared when the next write starts or by
 * `clearRefusal`) until the person changes something.
 *
 * A second run while one is `busy` is refused, without a toast. Writes that may run side by side
 * (deleting several rows) each pass a key of their own: a run is then refused only while another
 * with the same key runs, `isBusy(key)` says whether that one runs, and `busy` whether any does.
 */
export function useWrite<Result = unknown>({ success, failure }: WriteToasts<Result>) {
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set())
  // What runs now, for the refusal: state would still be the last render's on a double click.
  const runningNow = useRef(new Set<string>())
  const [refusal, setRefusal] = useState<string | null>(null)

  const run = async <T extends Result>(
    write: () => Promise<T>,
    key: string = ONE,
  ): Promise<T | undefined> => {
    if (runningNow.current.has(key)) return undefined
    runningNow.current.add(key)
    setRunning((keys) => withMember(keys, key, true))
    setRefusal(null)
    try {
      const result = await write()
      showToast(typeof success === 'function' ? success(result) : success)
      return result
    } catch (error) {
      const reason = failureReason(error)
      setRefusal(reason)
      showToast({
        tone: 'error',
        ...(typeof failure === 'function' ? failure(reason) : failure),
      })
      return undefined
    } finally {
      runningNow.current.delete(key)
      setRunning((keys) => withMember(keys, key, false))
    }
  }

  const isBusy = useCallback((key: string = ONE) => running.has(key), [running])
  const clearRefusal = useCallback(() => setRefusal(null), [])

  return { busy: running.size > 0, isBusy, run, refusal, clearRefusal }
}
