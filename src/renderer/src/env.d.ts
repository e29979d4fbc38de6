import type { RawBridge } from '@shared/ipc'

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    tandem?: RawBridge
  }
}
