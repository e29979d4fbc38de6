import type { Envelope, HandlerMap, MainEvent, MainEvents } from '@shared/ipc'
import { CONSOLE_NAME } from '@shared/product'
import { dispatch } from './services/dispatch'
import type { Logger } from './services/ports'

// Electron's transport over the handler map. Typed structurally (Electron's ipcMain and
// webContents fit) so that tests need neither Electron nor mocks.

/** The one channel for calls: the handler's name travels as its first argument. */
export const INVOKE_CHANNEL = 'tandem:invoke'
/** The one channel for main-to-renderer events: the event's name, then its payload. */
export const EVENT_CHANNEL = 'tandem:event'

export interface InvokeEventLike {
  /** Null once the frame navigated away or was destroyed. */
  readonly senderFrame?: { readonly url: string } | null
}

export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<Envelope<unknown>>,
  ): void
}

export interface BindIpcOptions {
  isTrustedSender(frameUrl: string): boolean
  log: Logger
}

export function bindIpc(ipcMain: IpcMainLike, handlers: HandlerMap, options: BindIpcOptions): void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, channel, args) => {
    const frameUrl = event.senderFrame?.url
    if (frameUrl === undefined || !options.isTrustedSender(frameUrl)) {
      options.log.warn(`Refused a request from an untrusted frame: ${describeFrame(frameUrl)}`)
      return { ok: false, error: { message: `This page may not use ${CONSOLE_NAME}.` } }
    }
    return dispatch(handlers, channel, args, options.log)
  })
}

/** Where a frame was, without its query or fragment (which could carry anything). */
function describeFrame(frameUrl: string | undefined): string {
  if (frameUrl === undefined) return '(frame gone)'
  try {
    const url = new URL(frameUrl)
    return `${url.protocol}//${url.host}${url.pathname}`.slice(0, 200)
  } catch {
    return '(unparseable URL)'
  }
}

export interface EventTargetLike {
  isDestroyed(): boolean
  getURL(): string
  send(channel: string, ...args: unknown[]): void
}

/**
 * The `emit` port: sends an event to the window, if there is one and it still shows the app.
 * The target is looked up per event because the services exist before the window does.
 */
export function createEventSender(
  target: () => EventTargetLike | null,
  isTrustedReceiver: (url: string) => boolean,
): <E extends MainEvent>(event: E, payload: MainEvents[E]) => void {
  return (event, payload) => {
    const contents = target()
    if (!contents || contents.isDestroyed() || !isTrustedReceiver(contents.getURL())) return
    contents.send(EVENT_CHANNEL, event, payload)
  }
}
