import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { RecordingClipboard, consoleLogger } from '../../src/browser-host/node-ports'
import { startBrowserHost, type BrowserHost } from '../../src/browser-host/host'
import { LOCAL_DEFAULTS } from '../../src/main/services/settings/build-environment'

export const RENDERER_DIR = resolve(__dirname, '../../out/renderer')

export interface ConsoleUnderTest extends BrowserHost {
  clipboard: RecordingClipboard
  /** The links the console asked to open in the person's browser, oldest first. */
  opened: string[]
  dataDir: string
  stop(): Promise<void>
}

/** The built console in browser mode, signed in against the given Auth emulator. */
export async function startConsole(options: {
  authEmulatorUrl: string
  apiUrl?: string
}): Promise<ConsoleUnderTest> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error('No built renderer in out/renderer: run `npx electron-vite build` first')
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-console-'))
  const clipboard = new RecordingClipboard(consoleLogger)
  // Browser mode's opener names each link in the log (node-ports.ts loggingOpener).
  const opened: string[] = []
  const info = (message: string) => {
    const link = /^Open in your browser: (.+)$/.exec(message)?.[1]
    if (link) opened.push(link)
  }
  const host = await startBrowserHost({
    port: 0,
    rendererDir: RENDERER_DIR,
    dataDir,
    clipboard,
    log: { ...consoleLogger, info },
    buildEnvironment: {
      ...LOCAL_DEFAULTS,
      // No Tandem server in these tests unless one is given: calls fail fast on a closed port.
      apiUrl: options.apiUrl ?? 'http://127.0.0.1:9',
      authEmulatorUrl: options.authEmulatorUrl,
    },
  })
  return {
    ...host,
    clipboard,
    opened,
    dataDir,
    stop: async () => {
      await host.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
