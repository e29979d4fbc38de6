// Work that callers asking at once share: the first one's request starts a run, the others join
// it, and each is answered by it. A run takes a signal of its own, aborted only once every caller
// waiting on it has left (each caller's own signal aborted): one console closing its inbox stops
// nothing another console still waits for, and the last one leaving stops the reads.

interface Run<T, Tag> {
  result: Promise<T>
  controller: AbortController
  tag: Tag
  /** Callers still waiting: Infinity once one came that cannot leave (no signal). */
  waiting: number
}

export interface SharedWork<T, Tag> {
  /**
   * The run under way for `key`, joined, else `start`ed. Rejects with `caller`'s reason once it
   * aborts; the run goes on while any other caller waits on it.
   */
  join(
    key: string,
    start: (signal: AbortSignal) => Promise<T>,
    options: { caller?: AbortSignal; tag: Tag },
  ): Promise<T>
  /** Callers from now on start runs of their own for the keys whose tag `matches`. */
  forget(matches: (tag: Tag) => boolean): void
}

export function sharedWork<T, Tag = undefined>(): SharedWork<T, Tag> {
  const runs = new Map<string, Run<T, Tag>>()
  const forgetRun = (key: string, run: Run<T, Tag>) => {
    if (runs.get(key) === run) runs.delete(key)
  }

  return {
    join(key, start, { caller, tag }) {
      if (caller?.aborted) return Promise.reject(caller.reason as Error)
      let run = runs.get(key)
      if (!run) {
        const controller = new AbortController()
        const started: Run<T, Tag> = {
          result: start(controller.signal),
          controller,
          tag,
          waiting: 0,
        }
        started.result.then(
          () => forgetRun(key, started),
          () => forgetRun(key, started),
        )
        runs.set(key, started)
        run = started
      }
      const joined = run
      if (!caller) {
        joined.waiting = Infinity
        return joined.result
      }
      joined.waiting += 1
      return new Promise<T>((resolve, reject) => {
        const left = () => {
          joined.waiting -= 1
          if (joined.waiting === 0) {
            // Nobody waits for it: later callers start afresh rather than join a stopping run.
            forgetRun(key, joined)
            joined.controller.abort(caller.reason)
          }
          reject(caller.reason as Error)
        }
        caller.addEventListener('abort', left, { once: true })
        joined.result.then(resolve, reject).finally(() => caller.removeEventListener('abort', left))
      })
    },
    forget(matches) {
      for (const [key, run] of runs) if (matches(run.tag)) runs.delete(key)
    },
  }
}
