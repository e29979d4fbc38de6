import { CONSOLE_NAME } from '@shared/product'
import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, net, protocol, session, type WebContents } from 'electron'
import type { HandlerMap } from '@shared/ipc'
import icon from '../../build/icon.png?asset'
import {
  electronClipboard,
  electronOpener,
  electronSaveDialog,
  nodeFileWriter,
} from './adapters/desktop'
import { electronKeyValueStore } from './adapters/key-value-store'
import { consoleLogger as log } from './adapters/logger'
import { safeStorageCipher } from './adapters/secret-cipher'
import { bindIpc, createEventSender } from './ipc'
import {
  contentSecurityPolicy,
  decideNavigation,
  isAppUrl,
  isTrustedSender,
  permissionAllowed,
  WINDOW_PREFERENCES,
} from './security'
import {
  APP_LOCATION,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  handleAppProtocol,
} from './services/app-protocol'
import { composeMain } from './services/compose'
import { launchEnvironment } from './services/settings/build-environment'

// The Electron main process: lifecycle, the one window and its guards, and the handler map bound
// to IPC. Everything the app does lives in services; this file only wires Electron to them.

// Only an unpackaged app follows the dev server: a packaged one never loads a page named by its
// environment.
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL
/** The window's own renderer, the one page trusted with IPC: app://tandem/index.html once built. */
const appLocation = devServerUrl ?? APP_LOCATION

let mainWindow: BrowserWindow | null = null

app.enableSandbox()
// Before ready, or the scheme gets no origin: see app-protocol.ts.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }])

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  // Every web contents, present or future, gets the same guards.
  app.on('web-contents-created', (_event, contents) => guardContents(contents))
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      log.error(`${CONSOLE_NAME} could not start`, error)
      app.exit(1)
    })
}

async function start(): Promise<void> {
  const main = composeMain({
    // A launch variable cannot redirect a packaged app's sign-in, nor give it an emulator.
    buildEnvironment: launchEnvironment(__TANDEM_BUILD_ENV__, {
      packaged: app.isPackaged,
      env: process.env,
    }),
    store: electronKeyValueStore(),
    cipher: safeStorageCipher,
    clipboard: electronClipboard,
    saveDialog: electronSaveDialog(() => mainWindow),
    files: nodeFileWriter,
    opener: electronOpener,
    log,
    // The session's network stack: its proxy settings and certificates apply.
    fetch: (input, init) => net.fetch(input instanceof URL ? input.href : input, init),
    emit: createEventSender(
      () => mainWindow?.webContents ?? null,
      (url) => isTrustedSender(url, appLocation),
    ),
  })

  // The built renderer, with the browser host's paths, types and headers (CSP included).
  handleAppProtocol(protocol, {
    root: join(__dirname, '../renderer'),
    policy: () => contentSecurityPolicy({ apiUrl: main.apiUrl(), dev: false }),
  })

  const { defaultSession } = session
  defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(permissionAllowed(permission)),
  )
  defaultSession.setPermissionCheckHandler((_contents, permission) => permissionAllowed(permission))
  // The dev server's pages get the policy here (app:// answers carry their own).
  defaultSession.webRequest.onHeadersReceived((details, callback) => {
    const isDocument = details.resourceType === 'mainFrame' || details.resourceType === 'subFrame'
    if (!isDocument || !isAppUrl(details.url, appLocation)) return callback({})
    const policy = contentSecurityPolicy({ apiUrl: main.apiUrl(), dev: devServerUrl ?? false })
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    )
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [policy] } })
  })

  const restored = main.restoreSession().catch((error: unknown) => {
    log.error('The saved session could not be restored', error)
  })
  bindIpc(ipcMain, afterRestore(main.handlers, restored), {
    isTrustedSender: (frameUrl) => isTrustedSender(frameUrl, appLocation),
    log,
  })
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
}

/**
 * Calls wait until the saved session is restored, so the window can open at once while a slow
 * network delays only the first answers, never the session they report.
 */
function afterRestore(handlers: HandlerMap, restored: Promise<void>): HandlerMap {
  const entries = Object.entries(handlers) as [string, (args: unknown) => Promise<unknown>][]
  return Object.fromEntries(
    entries.map(([name, handler]) => [
      name,
      async (args: unknown) => {
        await restored
        return handler(args)
      },
    ]),
  ) as HandlerMap
}

function createWindow(): void {
  const window = new BrowserWindow({
    title: CONSOLE_NAME,
    icon,
    width: 1280,
    height: 820,
    minWidth: 360,
    minHeight: 480,
    show: false,
    // The default theme is dark: no white flash before the first paint.
    backgroundColor: '#242424',
    webPreferences: { preload: join(__dirname, '../preload/index.js'), ...WINDOW_PREFERENCES },
  })
  mainWindow = window
  window.once('ready-to-show', () => window.show())
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null
  })
  window.loadURL(appLocation).catch((error: unknown) => {
    log.error('The window could not load the app', error)
  })
}

/** Navigation, new windows and webviews: only the app stays in the app. */
function guardContents(contents: WebContents): void {
  const openOutside = (url: string) => {
    electronOpener.open(url).catch((error: unknown) => {
      log.warn(
        `Could not open a link in the browser: ${error instanceof Error ? error.message : ''}`,
      )
    })
  }
  contents.on('will-frame-navigate', (event) => {
    const decision = decideNavigation(event.url, appLocation)
    if (decision === 'allow') return
    event.preventDefault()
    if (decision === 'open-external' && event.isMainFrame) openOutside(event.url)
  })
  // A redirect is not something the person clicked: refused, never handed to the browser.
  contents.on('will-redirect', (event) => {
    if (decideNavigation(event.url, appLocation) !== 'allow') event.preventDefault()
  })
  contents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, appLocation) === 'open-external') openOutside(url)
    return { action: 'deny' }
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}
