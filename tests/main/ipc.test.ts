import type { HandlerMap } from '@shared/ipc'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  bindIpc,
  createEventSender,
  type EventTargetLike,
  type InvokeEventLike,
} from '../../src/main/ipc'
import { isTrustedSender } from '../../src/main/security'
import { APP_LOCATION } from '../../src/main/services/app-protocol'
import { recordingLogger } from './fakes'

const APP = APP_LOCATION

type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>

function setup() {
  const listeners = new Map<string, Listener>()
  const ipcMain = {
    handle: (channel: string, listener: Listener) => listeners.set(channel, listener),
  }
  const copied: string[] = []
  const handlers = {
    'session/status': async () => ({ signedIn: false, email: null }),
    'clipboard/writeText': async ({ text }: { text: string }) => {
      copied.push(text)
    },
    'external/open': async () => {
      throw new Error('shell exploded with token abc')
    },
  } as unknown as HandlerMap
  const log = recordingLogger()
  bindIpc(ipcMain, handlers, {
    isTrustedSender: (frameUrl) => isTrustedSender(frameUrl, APP),
    log,
  })
  const invoke = (frameUrl: string | null, ...args: unknown[]) => {
    const listener = listeners.get(INVOKE_CHANNEL)
    if (!listener) throw new Error('nothing bound')
    return listener({ senderFrame: frameUrl === null ? null : { url: frameUrl } }, ...args)
  }
  return { listeners, invoke, copied, log }
}

describe('bindIpc', () => {
  it('binds one channel for every call', () => {
    expect([...setup().listeners.keys()]).toEqual(['tandem:invoke'])
  })

  it('runs a valid call from the app and answers with its value', async () => {
    const { invoke, copied } = setup()
    expect(await invoke(`${APP}#/configs`, 'session/status', undefined)).toEqual({
      ok: true,
      value: { signedIn: false, email: null },
    })
    expect(await invoke(APP, 'clipboard/writeText', { text: 'https://x.test' })).toEqual({
      ok: true,
      value: undefined,
    })
    expect(copied).toEqual(['https://x.test'])
  })

  it('refuses frames that are not the app, without running anything', async () => {
    const { invoke, copied, log } = setup()
    for (const frame of [
      'https://evil.test/page?token=secret#frag',
      'about:blank',
      'data:text/html,<script>1</script>',
      'file:///tmp/evil.html',
      '',
      null,
    ]) {
      expect(await invoke(frame, 'clipboard/writeText', { text: 'pwned' }), String(frame)).toEqual({
        ok: false,
        error: { message: 'This page may not use Tandem Admin.' },
      })
    }
    expect(copied).toEqual([])
    expect(log.lines).toContain(
      'warn Refused a request from an untrusted frame: https://evil.test/page',
    )
    expect(log.lines).toContain('warn Refused a request from an untrusted frame: (frame gone)')
    expect(log.lines.join('\n')).not.toContain('secret')
  })

  it('answers unknown channel names with an error envelope', async () => {
    const { invoke } = setup()
    for (const channel of [
      'nope/nothing',
      '__proto__',
      'constructor',
      'toString',
      42,
      undefined,
      {},
    ]) {
      const answer = await invoke(APP, channel, undefined)
      expect(answer, String(channel)).toMatchObject({
        ok: false,
        error: { message: expect.any(String) },
      })
    }
  })

  it('answers arguments that fail the schema with an error envelope, not a call', async () => {
    const { invoke, copied } = setup()
    for (const args of [
      undefined,
      { text: 42 },
      { text: 'x', extra: true },
      { text: 'x'.repeat(100_001) },
      'text',
    ]) {
      const answer = await invoke(APP, 'clipboard/writeText', args)
      expect(answer, JSON.stringify(args)?.slice(0, 40)).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/^Invalid input/) },
      })
    }
    expect(await invoke(APP, 'session/status', { sneaky: true })).toMatchObject({ ok: false })
    expect(copied).toEqual([])
  })

  it('turns an unexpected failure into a generic message and a log line', async () => {
    const { invoke, log } = setup()
    const answer = await invoke(APP, 'external/open', { url: 'https://example.com' })
    expect(answer).toMatchObject({ ok: false })
    expect(JSON.stringify(answer)).not.toContain('token abc')
    expect(log.lines.some((line) => line.startsWith('error external/open'))).toBe(true)
  })
})

describe('createEventSender', () => {
  function target(url: string, destroyed = false) {
    const sent: unknown[][] = []
    const contents: EventTargetLike = {
      isDestroyed: () => destroyed,
      getURL: () => url,
      send: (...args) => sent.push(args),
    }
    return { contents, sent }
  }
  const trusted = (url: string) => isTrustedSender(url, APP)

  it('sends the event name and payload on the event channel', () => {
    const { contents, sent } = target(`${APP}#/stores`)
    createEventSender(() => contents, trusted)('session/changed', { signedIn: false, email: null })
    expect(sent).toEqual([['tandem:event', 'session/changed', { signedIn: false, email: null }]])
  })

  it('sends nothing without a window, to a destroyed one, or to a page that is not the app', () => {
    const destroyed = target(APP, true)
    const elsewhere = target('https://evil.test/')
    const payload = { signedIn: true, email: 'ops@tandem.test' }
    createEventSender(() => null, trusted)('session/changed', payload)
    createEventSender(() => destroyed.contents, trusted)('session/changed', payload)
    createEventSender(() => elsewhere.contents, trusted)('session/changed', payload)
    expect([...destroyed.sent, ...elsewhere.sent]).toEqual([])
  })
})

// The preload, loaded against a stand-in for Electron's renderer API.
const electron = vi.hoisted(() => {
  type Forward = (event: unknown, ...args: unknown[]) => void
  const listeners = new Map<string, Set<Forward>>()
  return {
    exposed: new Map<string, unknown>(),
    listeners,
    invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 'answer' })),
    emit(channel: string, ...args: unknown[]) {
      for (const listener of listeners.get(channel) ?? [])
        listener({ sender: 'ipcRenderer' }, ...args)
    },
  }
})

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api),
  },
  ipcRenderer: {
    invoke: electron.invoke,
    on(channel: string, listener: (event: unknown, ...args: unknown[]) => void) {
      const set = electron.listeners.get(channel) ?? new Set()
      set.add(listener)
      electron.listeners.set(channel, set)
    },
    removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void) {
      electron.listeners.get(channel)?.delete(listener)
    },
  },
}))

describe('preload', () => {
  beforeEach(() => {
    vi.resetModules()
    electron.exposed.clear()
    electron.listeners.clear()
    electron.invoke.mockClear()
  })

  async function loadBridge() {
    await import('../../src/preload/index')
    return electron.exposed.get('tandem') as import('@shared/ipc').RawBridge
  }

  it('exposes window.tandem with invoke and on, and nothing else', async () => {
    const bridge = await loadBridge()
    expect([...electron.exposed.keys()]).toEqual(['tandem'])
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on'])
  })

  it('sends calls on the channel main listens to', async () => {
    const bridge = await loadBridge()
    expect(await bridge.invoke('getAllAppConfig', undefined)).toEqual({ ok: true, value: 'answer' })
    expect(electron.invoke).toHaveBeenCalledWith(INVOKE_CHANNEL, 'getAllAppConfig', undefined)
  })

  it('passes listeners only their own event’s payload, until unsubscribed', async () => {
    const bridge = await loadBridge()
    const payloads: unknown[] = []
    const unsubscribe = bridge.on('session/changed', (payload) => payloads.push(payload))
    electron.emit(EVENT_CHANNEL, 'session/changed', { signedIn: false, email: null })
    electron.emit(EVENT_CHANNEL, 'other/event', 'not for you')
    electron.emit('some:other-channel', 'session/changed', 'not for you either')
    unsubscribe()
    electron.emit(EVENT_CHANNEL, 'session/changed', 'after unsubscribe')
    expect(payloads).toEqual([{ signedIn: false, email: null }])
    expect(electron.listeners.get(EVENT_CHANNEL)?.size).toBe(0)
  })
})
