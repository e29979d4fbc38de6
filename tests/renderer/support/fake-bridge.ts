import type {
  Channel,
  ChannelArgs,
  ChannelResult,
  MainEvent,
  MainEvents,
  SessionView,
  SettingsView,
  TandemBridge,
} from '@shared/ipc'
import { BridgeError } from '@renderer/lib/bridge'

export type FakeAnswers = {
  [C in Channel]?: (args: ChannelArgs<C>) => ChannelResult<C> | Promise<ChannelResult<C>>
}

export interface RecordedCall {
  channel: Channel
  args: unknown
}

export const SIGNED_IN: SessionView = { signedIn: true, email: 'admin@tandem.test' }
export const SIGNED_OUT: SessionView = { signedIn: false, email: null }

export const settings = (overrides: Partial<SettingsView> = {}): SettingsView => ({
  apiUrl: 'http://127.0.0.1:4000',
  theme: 'dark',
  firebaseProjectId: 'demo-tandem',
  sessionPersisted: true,
  ...overrides,
})

/**
 * A stand-in for the main process: answers what the test says, records every call, and emits
 * events on demand. A call nobody answers fails the way a real failure would: it rejects.
 */
export function fakeBridge(answers: FakeAnswers = {}) {
  const all: FakeAnswers = {
    'session/status': () => SIGNED_OUT,
    'settings/get': () => settings(),
    ...answers,
  }
  const calls: RecordedCall[] = []
  const listeners = new Map<MainEvent, Set<(payload: never) => void>>()

  const invoke = async (channel: Channel, args?: unknown) => {
    calls.push({ channel, args })
    const answer = all[channel] as ((args: unknown) => unknown) | undefined
    if (!answer) throw new Error(`The fake bridge has no answer for ${channel}.`)
    return answer(args)
  }

  const bridge: TandemBridge = {
    invoke: invoke as TandemBridge['invoke'],
    on(event, listener) {
      const forEvent = listeners.get(event) ?? new Set()
      listeners.set(event, forEvent)
      forEvent.add(listener)
      return () => forEvent.delete(listener)
    },
  }

  return {
    bridge,
    calls,
    callsTo: (channel: Channel) => calls.filter((call) => call.channel === channel),
    emit<E extends MainEvent>(event: E, payload: MainEvents[E]) {
      for (const listener of listeners.get(event) ?? [])
        (listener as (p: MainEvents[E]) => void)(payload)
    },
  }
}

/** A failure as main passes on a server's refusal: what failed, with the server's sentence. */
export const serverRefusal = (action: string, reason: string) =>
  new BridgeError({ message: `Failed to ${action}: ${reason}`, reason })

/** A promise the test settles when it chooses, to observe a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
