import { createContext, use } from 'react'
import { BROWSER_HOST } from '@shared/browser-host'
import type {
  BridgeFailure,
  Channel,
  Envelope,
  MainEvent,
  RawBridge,
  TandemBridge,
} from '@shared/ipc'
import { decodeWire, encodeWire } from '@shared/wire'

// The one way the renderer reaches the main process: the Electron preload's `window.tandem`, or,
// in browser mode, the browser host's loopback HTTP routes. Both answer envelopes, unwrapped here
// so that screens see results or a thrown BridgeError.

/** A failed call: `message` is a sentence for a person, `reason` its bare cause if wrapped. */
export class BridgeError extends Error {
  readonly reason?: string

  constructor(failure: BridgeFailure) {
    super(failure.message)
    this.name = 'BridgeError'
    this.reason = failure.reason
  }
}

/**
 * Browser mode: the host refused this page's key, because its address had none or an earlier
 * launch's. Nothing this page calls can succeed until it is opened with this launch's address.
 */
export class HostKeyRefused extends BridgeError {
  constructor() {
    super({
      message: `This page's key is not the running console's: open the address printed after "${BROWSER_HOST.announcement}".`,
    })
    this.name = 'HostKeyRefused'
  }
}

/** The sentence to show for any failure, bridge or not. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)

/**
 * The server's own sentence when main wrapped it ("An app config for … already exists"), else the
 * whole message: failures that never reached the server carry no reason.
 */
export const failureReason = (error: unknown): string =>
  error instanceof BridgeError && error.reason ? error.reason : errorMessage(error)

export function createBridge(raw: RawBridge): TandemBridge {
  const invoke = async (channel: Channel, args?: unknown) => {
    const envelope = await raw.invoke(channel, args)
    if (!envelope.ok) throw new BridgeError(envelope.error)
    return envelope.value
  }
  return {
    // The channel map types the result; the transport only knows `unknown`.
    invoke: invoke as TandemBridge['invoke'],
    on: (event, listener) => raw.on(event, listener as (payload: unknown) => void),
  }
}

export interface BrowserHostEnvironment {
  /** The page's query string, which carries the per-launch key (`?key=…`). */
  search: string
  fetch: typeof fetch
  EventSource: typeof EventSource
}

/** Browser mode: the same calls as HTTP requests and an event stream, both carrying the key. */
export function createBrowserHostBridge(environment: BrowserHostEnvironment): RawBridge {
  const key = new URLSearchParams(environment.search).get(BROWSER_HOST.keyParam) ?? ''
  // One stream for all listeners, opened on first use.
  let events: EventSource | null = null

  return {
    async invoke(channel, args) {
      let response: Response
      try {
        response = await environment.fetch(BROWSER_HOST.invokePath + channel, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [BROWSER_HOST.keyHeader]: key },
          body: encodeWire({ args }),
        })
      } catch {
        return hostFailure('Tandem Admin could not reach its host process.')
      }
      // The host answers 403 to a missing or wrong key, and to nothing else a page of its own sends.
      if (response.status === 403) throw new HostKeyRefused()
      if (!response.ok) return hostFailure(`The host refused the request (${response.status}).`)
      return decodeWire(await response.text()) as Envelope<unknown>
    },

    on(event: MainEvent, listener) {
      events ??= new environment.EventSource(
        `${BROWSER_HOST.eventsPath}?${BROWSER_HOST.keyParam}=${encodeURIComponent(key)}`,
      )
      const handle = (message: MessageEvent<string>) => listener(decodeWire(message.data))
      events.addEventListener(event, handle)
      return () => events?.removeEventListener(event, handle)
    },
  }
}

function hostFailure(message: string): Envelope<never> {
  return { ok: false, error: { message } }
}

/** Electron when the preload is there, the browser host otherwise. */
export function connectBridge(): TandemBridge {
  if (window.tandem) return createBridge(window.tandem)
  return createBridge(
    createBrowserHostBridge({
      search: window.location.search,
      fetch: window.fetch.bind(window),
      EventSource: window.EventSource,
    }),
  )
}

export const BridgeContext = createContext<TandemBridge | null>(null)

export function useBridge(): TandemBridge {
  const bridge = use(BridgeContext)
  if (!bridge) throw new Error('useBridge needs a <BridgeContext> above it.')
  return bridge
}
