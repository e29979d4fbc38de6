import { readFile } from 'node:fs/promises'
import { extname, join, normalize, resolve, sep } from 'node:path'

// The built renderer's files, as one web Response per request: the same function answers the
// installed app's app:// protocol (app-protocol.ts) and the browser host's HTTP, so browser-mode
// tests exercise the paths, types and headers the installed app serves.

export interface StaticFilesOptions {
  /** The built renderer folder (out/renderer), absolute. */
  root: string
  /** The content security policy of a document, read per request (it names the backend). */
  policy(): string
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  // pdf.js's worker is a module: Chromium runs module scripts only with a JavaScript type.
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.bcmap': 'application/octet-stream',
  '.pfb': 'application/octet-stream',
  '.ttf': 'font/ttf',
}

/** Every answer, error or not, is never sniffed and never leaks where it was read from. */
const BASE_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' }

/** A short plain-text answer for what is not a file of ours. */
export function plainAnswer(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
  })
}

/**
 * Names Windows opens as a device whatever folder they are in (`CON`, `nul.txt`, `COM1 .js`):
 * reading one would wait on the console or a port. The build never names a file so.
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i

const namesWindowsDevice = (path: string) =>
  path.split('/').some((segment) => WINDOWS_DEVICE.test(segment.split('.')[0]!.trimEnd()))

/**
 * The file a URL path names inside the root, or why there is none. The path arrives still
 * %-escaped: a malformed escape is a bad request; a NUL, a backslash (a separator on Windows,
 * where `..\` would climb), a colon (a drive or an alternate data stream there), a Windows
 * device name or anything that normalises outside the root names no file of ours.
 */
export function resolveStaticPath(root: string, pathname: string): string | 'bad-request' | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return 'bad-request'
  }
  if (/[\0\\:]/.test(decoded) || namesWindowsDevice(decoded)) return null
  const base = resolve(root)
  const relative = decoded.replace(/^\/+/, '') || 'index.html'
  const file = normalize(join(base, relative))
  return file.startsWith(base + sep) ? file : null
}

export async function serveStaticFile(
  method: string,
  pathname: string,
  options: StaticFilesOptions,
): Promise<Response> {
  if (method !== 'GET' && method !== 'HEAD') return plainAnswer(405, 'GET only')
  const file = resolveStaticPath(options.root, pathname)
  if (file === 'bad-request') return plainAnswer(400, 'Bad request')
  if (file === null) return plainAnswer(404, 'Not found')
  let content: Buffer
  try {
    content = await readFile(file)
  } catch {
    // Missing, a folder, unreadable: all the same to the page.
    return plainAnswer(404, 'Not found')
  }
  const isDocument = extname(file) === '.html'
  const headers: Record<string, string> = {
    ...BASE_HEADERS,
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    // Vite names every asset by its content; the document names the assets, so it is never kept.
    'cache-control': isDocument ? 'no-store' : 'public, max-age=31536000, immutable',
    ...(isDocument
      ? { 'content-security-policy': options.policy(), 'x-frame-options': 'DENY' }
      : {}),
  }
  return new Response(method === 'HEAD' ? null : new Uint8Array(content), { status: 200, headers })
}
