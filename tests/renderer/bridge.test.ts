import { afterEach, describe, expect, it } from 'vitest'
import type { Envelope, RawBridge } from '@shared/ipc'
import { decodeWire, encodeWire } from '@shared/wire'
import {
  BridgeError,
  connectBridge,
  createBridge,
  createBrowserHostBridge,
  HostKeyRefused,
} from '@renderer/lib/bridge'

interface FetchCall {
  url: string
  init: RequestInit
}

/** A browser host that answers every request with `reply`. */
function fakeHost(reply: () => Response | Promise<Response>) {
  const requests: FetchCall[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    requests.push({ url, init })
    return reply()
  }) as typeof globalThis.fetch
  return { requests, fetch }
}

const answering = (envelope: Envelope<unknown>) => () =>
  new Response(encodeWire(envelope), { headers: { 'content-type': 'application/json' } })

/** Records the stream it was opened on and lets the test push named events. */
class FakeEventSource extends EventTarget {
  static opened: FakeEventSource[] = []
  constructor(readonly url: string) {
    super()
    FakeEventSource.opened.push(this)
  }
  push(event: string, payload: unknown) {
    this.dispatchEvent(new MessageEvent(event, { data: encodeWire(payload) }))
  }
}

function browserBridge(reply: () => Response | Promise<Response>) {
  const host = fakeHost(reply)
  const bridge = createBridge(
    createBrowserHostBridge({
      search: '?key=s3cret',
      fetch: host.fetch,
      EventSource: FakeEventSource as unknown as typeof EventSource,
    }),
  )
  return { bridge, requests: host.requests }
}

afterEach(() => {
  FakeEventSource.opened = []
  delete window.tandem
})

describe('bridge over the browser host', () => {
  it('posts the call with the launch key and answers the envelope value', async () => {
    const { bridge, requests } = browserBridge(
      answering({ ok: true, value: { signedIn: true, email: 'admin@tandem.test' } }),
    )

    const session = await bridge.invoke('session/signIn', {
      email: 'admin@tandem.test',
      password: 'tandem-admin',
    })

    expect(session).toEqual({ signedIn: true, email: 'admin@tandem.test' })
    expect(requests).toHaveLength(1)
    const [{ url, init }] = requests as [FetchCall]
    expect(url).toBe('/__tandem/invoke/session/signIn')
    expect(init.method).toBe('POST')
    expect(init.headers).toEqual({ 'content-type': 'application/json', 'x-tandem-key': 's3cret' })
    expect(decodeWire(init.body as string)).toEqual({
      args: { email: 'admin@tandem.test', password: 'tandem-admin' },
    })
  })

  it('sends no arguments for a call that takes none', async () => {
    const { bridge, requests } = browserBridge(answering({ ok: true, value: undefined }))

    await bridge.invoke('session/signOut')

    expect(decodeWire(requests[0]?.init.body as string)).toEqual({})
  })

  it('carries bytes back as bytes', async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xff, 0x00])
    const receiptId = '8d7c1a52-6a7e-4d8f-9b1e-2f0f5d3c4b1a'
    const { bridge } = browserBridge(answering({ ok: true, value: { receiptId, bytes: pdf } }))

    const fetched = await bridge.invoke('adminPreviewOrderTransferReceiptPdf', {
      creatorOrderId: '1001',
    })

    expect(fetched.receiptId).toBe(receiptId)
    expect(fetched.bytes).toBeInstanceOf(Uint8Array)
    expect([...fetched.bytes]).toEqual([...pdf])
  })

  it('throws a BridgeError with the message and reason of a failed call', async () => {
    const { bridge } = browserBridge(
      answering({
        ok: false,
        error: {
          message: 'Failed to fetch preview: Commission not found',
          reason: 'Commission not found',
        },
      }),
    )

    const failure = await bridge
      .invoke('adminPreviewOrderTransfer', { creatorOrderId: '1002' })
      .catch((e) => e)

    expect(failure).toBeInstanceOf(BridgeError)
    expect(failure).toBeInstanceOf(Error)
    expect(failure.message).toBe('Failed to fetch preview: Commission not found')
    expect(failure.reason).toBe('Commission not found')
  })

  it('throws HostKeyRefused, saying which address to open, when the host refuses the key', async () => {
    const { bridge } = browserBridge(() => new Response('Forbidden', { status: 403 }))

    const failure = await bridge.invoke('session/status').catch((e: unknown) => e)

    expect(failure).toBeInstanceOf(HostKeyRefused)
    expect(failure).toBeInstanceOf(BridgeError)
    expect((failure as Error).message).toBe(
      `This page's key is not the running console's: open the address printed after "Tandem Admin is running at".`,
    )
  })

  it('throws a BridgeError with the status when the host refuses the request otherwise', async () => {
    const { bridge } = browserBridge(() => new Response('JSON only', { status: 415 }))

    await expect(bridge.invoke('session/status')).rejects.toThrow(
      new BridgeError({ message: 'The host refused the request (415).' }),
    )
  })

  it('throws a BridgeError when the host cannot be reached', async () => {
    const { bridge } = browserBridge(() => Promise.reject(new TypeError('Failed to fetch')))

    await expect(bridge.invoke('session/status')).rejects.toThrow(
      new BridgeError({ message: 'Tandem Admin could not reach its host process.' }),
    )
  })

  it('delivers named events from one keyed event stream until unsubscribed', () => {
    const { bridge } = browserBridge(answering({ ok: true, value: null }))
    const heard: unknown[] = []
    const stop = bridge.on('session/changed', (session) => heard.push(session))
    bridge.on('session/changed', () => {})

    expect(FakeEventSource.opened.map((source) => source.url)).toEqual([
      '/__tandem/events?key=s3cret',
    ])
    const stream = FakeEventSource.opened[0] as FakeEventSource
    stream.push('session/changed', { signedIn: false, email: null })
    stream.push('something/else', { ignored: true })
    stop()
    stream.push('session/changed', { signedIn: true, email: 'late@tandem.test' })

    expect(heard).toEqual([{ signedIn: false, email: null }])
  })
})

describe('bridge over the Electron preload', () => {
  function fakePreload(envelope: Envelope<unknown>) {
    const calls: unknown[][] = []
    const listeners: ((payload: unknown) => void)[] = []
    const raw: RawBridge = {
      invoke: async (...call) => {
        calls.push(call)
        return envelope
      },
      on: (_event, listener) => {
        listeners.push(listener)
        return () => {}
      },
    }
    return { raw, calls, listeners }
  }

  it('is used when the preload exposed window.tandem', async () => {
    const preload = fakePreload({ ok: true, value: { signedIn: false, email: null } })
    window.tandem = preload.raw

    const session = await connectBridge().invoke('session/status')

    expect(session).toEqual({ signedIn: false, email: null })
    expect(preload.calls).toEqual([['session/status', undefined]])
  })

  it('unwraps failures into BridgeError and passes events through', async () => {
    const preload = fakePreload({ ok: false, error: { message: 'Creator order not found' } })
    const bridge = createBridge(preload.raw)
    const heard: unknown[] = []
    bridge.on('session/changed', (session) => heard.push(session))
    preload.listeners[0]?.({ signedIn: false, email: null })

    await expect(
      bridge.invoke('adminPreviewOrderTransfer', { creatorOrderId: '9' }),
    ).rejects.toThrow(BridgeError)
    expect(heard).toEqual([{ signedIn: false, email: null }])
  })
})
