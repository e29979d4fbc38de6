import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { InlineConfig, ViteDevServer } from 'vite'
import { BROWSER_HOST, type MainEvent, type MainEvents } from '@shared/ipc'
import { encodeWire } from '@shared/wire'
import { contentSecurityPolicy } from '../main/security'
import { composeMain } from '../main/services/compose'
import { dispatch } from '../main/services/dispatch'
import { serveStaticFile } from '../main/services/static-files'
import type { ClipboardPort, Logger } from '../main/services/ports'
import type { BuildEnvironment } from '../main/services/settings/build-environment'
import {
  RecordingClipboard,
  consoleLogger,
  downloadsFolder,
  jsonFileStore,
  loggingOpener,
  noCipher,
  nodeFileWriter,
} from './node-ports'

// Browser mode: the main process's handler map behind loopback HTTP, serving the built renderer,
// so that the console runs in a plain browser (Playwright in Chromium) where Electron cannot.
// Only a page that knows this launch's key can call it; only 127.0.0.1 can reach it.

export interface BrowserHostOptions {
  /** 0 picks a free port. */
  port: number
  /** The built renderer (out/renderer). */
  rendererDir: string
  /**
   * Watch mode (`npm run dev:web`): the renderer's sources through Vite's dev server in place of
   * rendererDir, so that an edit reloads the page. The session lives here, in the host, and the
   * page's address keeps the launch key: a reload finds it still signed in.
   */
  watch?: InlineConfig
  /** Settings file and downloads folder live here. */
  dataDir: string
  buildEnvironment: BuildEnvironment
  log?: Logger
  clipboard?: ClipboardPort
}

export interface BrowserHost {
  /** Opens the console, key included. */
  url: string
  origin: string
  downloadsDir: string
  clipboard: ClipboardPort
  close(): Promise<void>
}

const MAX_BODY_BYTES = 1_000_000

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const log = options.log ?? consoleLogger
  const key = randomBytes(32).toString('base64url')
  const downloadsDir = join(options.dataDir, 'downloads')
  const clipboard = options.clipboard ?? new RecordingClipboard(log)
  const eventStreams = new Set<ServerResponse>()
  const emit = <E extends MainEvent>(event: E, payload: MainEvents[E]) => {
    for (const stream of eventStreams)
      stream.write(`event: ${event}\ndata: ${encodeWire(payload)}\n\n`)
  }

  const main = composeMain({
    buildEnvironment: options.buildEnvironment,
    store: jsonFileStore(join(options.dataDir, 'browser-settings.json')),
    cipher: noCipher,
    clipboard,
    saveDialog: downloadsFolder(downloadsDir),
    files: nodeFileWriter,
    opener: loggingOpener(log),
    log,
    emit,
  })
  log.warn('Browser mode keeps the session in memory only: it ends when the host stops.')
  log.info(`Saved files go to ${downloadsDir}`)

  let origin = ''
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log.error('Request failed', error)
      if (!response.headersSent) send(response, 500, 'text/plain', 'Internal error')
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) sends its
    // own Host header: only ours is served.
    if (!isOwnHost(request.headers.host, origin))
      return send(response, 421, 'text/plain', 'Wrong host')
    const url = URL.parse(request.url ?? '/', origin)
    if (!url) return send(response, 400, 'text/plain', 'Bad request')

    if (url.pathname.startsWith(BROWSER_HOST.invokePath)) {
      if (request.method !== 'POST') return send(response, 405, 'text/plain', 'POST only')
      if (!hasKey(request.headers[BROWSER_HOST.keyHeader], key))
        return send(response, 403, 'text/plain', 'Forbidden')
      if (request.headers.origin && request.headers.origin !== origin)
        return send(response, 403, 'text/plain', 'Forbidden')
      if (!request.headers['content-type']?.startsWith('application/json')) {
        return send(response, 415, 'text/plain', 'JSON only')
      }
      const body = await readBody(request)
      if (body === null) return send(response, 413, 'text/plain', 'Too large')
      const channel = safeDecode(url.pathname.slice(BROWSER_HOST.invokePath.length))
      const envelope = await dispatch(main.handlers, channel, parseArgs(body), log)
      return send(response, 200, 'application/json', encodeWire(envelope))
    }

    if (url.pathname === BROWSER_HOST.eventsPath) {
      if (!hasKey(url.searchParams.get(BROWSER_HOST.keyParam) ?? undefined, key)) {
        return send(response, 403, 'text/plain', 'Forbidden')
      }
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      })
      response.write(': connected\n\n')
      eventStreams.add(response)
      request.on('close', () => eventStreams.delete(response))
      return
    }

    if (vite) {
      response.setHeader(
        'content-security-policy',
        contentSecurityPolicy({ apiUrl: main.apiUrl(), dev: origin }),
      )
      return vite.middlewares(request, response, () =>
        send(response, 404, 'text/plain', 'Not found'),
      )
    }
    return serveStatic(request.method ?? 'GET', url.pathname, response)
  }

  /** The built renderer through the function the installed app's app:// protocol uses. */
  async function serveStatic(
    method: string,
    pathname: string,
    response: ServerResponse,
  ): Promise<void> {
    const answer = await serveStaticFile(method, pathname, {
      root: options.rendererDir,
      policy: () => contentSecurityPolicy({ apiUrl: main.apiUrl(), dev: false }),
    })
    response.writeHead(answer.status, Object.fromEntries(answer.headers))
    response.end(Buffer.from(await answer.arrayBuffer()))
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  if (!address || typeof address !== 'object') throw new Error('Browser host has no address')
  origin = `http://127.0.0.1:${address.port}`
  const vite = options.watch ? await startDevServer(options.watch, server) : undefined
  await main.restoreSession()

  return {
    url: `${origin}/?${BROWSER_HOST.keyParam}=${key}#/signin`,
    origin,
    downloadsDir,
    clipboard,
    close: () =>
      new Promise((resolve) => {
        for (const stream of eventStreams) stream.end()
        void vite?.close()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** Vite inside the host's own server (its HMR socket on the same port), loaded only in watch mode. */
async function startDevServer(config: InlineConfig, server: Server): Promise<ViteDevServer> {
  const { createServer: createViteServer } = await import('vite')
  return createViteServer({
    ...config,
    configFile: false,
    appType: 'spa',
    server: { ...config.server, middlewareMode: true, hmr: { server } },
  })
}

/** A malformed %-escape is a bad address, not a server error. */
function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff' })
  response.end(body)
}

/** Only the address it prints: the Origin check that follows compares against the same. */
function isOwnHost(host: string | undefined, origin: string): boolean {
  return host === new URL(origin).host
}

function hasKey(given: string | string[] | undefined, key: string): boolean {
  if (typeof given !== 'string') return false
  const [a, b] = [Buffer.from(given), Buffer.from(key)]
  return a.length === b.length && timingSafeEqual(a, b)
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    // Past the limit the rest is still read, so the caller gets its 413, but no longer kept.
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    request.on('end', () =>
      resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')),
    )
    request.on('error', reject)
  })
}

/** The body is `{ "args": … }`; anything unparseable becomes an argument the schema refuses. */
function parseArgs(body: string): unknown {
  try {
    const parsed = JSON.parse(body) as { args?: unknown }
    return parsed?.args
  } catch {
    return Symbol('malformed JSON')
  }
}
