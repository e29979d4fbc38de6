import type { HandlerMap, MainEvent, MainEvents } from '@shared/ipc'
import { createApiClient } from './api/api-client'
import { createDesktopService } from './desktop/desktop-service'
import { buildHandlers } from './handlers'
import type {
  ClipboardPort,
  ExternalOpenerPort,
  FetchPort,
  FileWriterPort,
  KeyValueStore,
  Logger,
  SaveDialogPort,
  SecretCipher,
} from './ports'
import { createSessionService } from './session/session-service'
import type { BuildEnvironment } from './settings/build-environment'
import { createSettingsService } from './settings/settings-service'

export interface MainPorts {
  buildEnvironment: BuildEnvironment
  store: KeyValueStore
  cipher: SecretCipher
  clipboard: ClipboardPort
  saveDialog: SaveDialogPort
  files: FileWriterPort
  opener: ExternalOpenerPort
  log: Logger
  fetch?: FetchPort
  emit<E extends MainEvent>(event: E, payload: MainEvents[E]): void
}

/** The composition root shared by the Electron main process and the browser host. */
export function composeMain(ports: MainPorts): {
  handlers: HandlerMap
  restoreSession(): Promise<void>
  apiUrl(): string
} {
  const settings = createSettingsService({
    store: ports.store,
    defaults: ports.buildEnvironment,
    sessionPersisted: () => ports.cipher.isAvailable(),
    log: ports.log,
  })
  const session = createSessionService({
    firebase: settings.firebase(),
    authEmulatorUrl: settings.authEmulatorUrl(),
    store: ports.store,
    cipher: ports.cipher,
    log: ports.log,
    fetch: ports.fetch,
    onChange: (view) => ports.emit('session/changed', view),
  })
  const api = createApiClient({
    baseUrl: () => settings.apiUrl(),
    session,
    log: ports.log,
    fetch: ports.fetch,
  })
  const desktop = createDesktopService(ports)
  return {
    handlers: buildHandlers({ session, settings, api, desktop }),
    restoreSession: async () => {
      await session.restore()
    },
    apiUrl: () => settings.apiUrl(),
  }
}
