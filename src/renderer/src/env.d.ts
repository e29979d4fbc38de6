import type { RawBridge } from '@shared/ipc'

declare global {
  /** False in an installable build (electron.vite.config.ts), which has no Sandbox page. */
  const __TANDEM_SANDBOX_CONTROLS__: boolean
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    tandem?: RawBridge
  }
}
