import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { RawBridge } from '@shared/ipc'

// window.tandem: two functions and nothing else. No ipcRenderer and no IPC event object reach the
// page (the event's `sender` is ipcRenderer itself). Channel names and arguments are checked in
// main, the one place a check cannot be skipped.
//
// Imports stay type-only: a sandboxed preload can require nothing but 'electron', and any value
// from @shared/ipc or src/main/ipc would pull in zod. So the two channel names are repeated here;
// tests/main/ipc.test.ts checks that they equal INVOKE_CHANNEL and EVENT_CHANNEL of src/main/ipc.
const INVOKE_CHANNEL = 'tandem:invoke'
const EVENT_CHANNEL = 'tandem:event'

const tandem: RawBridge = {
  invoke: (channel, args) => ipcRenderer.invoke(INVOKE_CHANNEL, channel, args),
  on(event, listener) {
    const forward = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload)
    }
    ipcRenderer.on(EVENT_CHANNEL, forward)
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward)
    }
  },
}

contextBridge.exposeInMainWorld('tandem', tandem)
