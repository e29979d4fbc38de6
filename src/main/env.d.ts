/// <reference types="electron-vite/node" />
import type { BuildEnvironment } from './services/settings/build-environment'

declare global {
  /** The backend and Firebase settings of this build (electron.vite.config.ts `define`). */
  const __TANDEM_BUILD_ENV__: BuildEnvironment
}
