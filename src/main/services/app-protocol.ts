import { plainAnswer, serveStaticFile, type StaticFilesOptions } from './static-files'

// The installed app's pages come from app://tandem/, not file://. A file:// page may read any
// other file:// URL and shares its origin with every file on disk; app:// answers only the built
// renderer, through the same function (and headers) as the browser host, and lets the
// grantFileProtocolExtraPrivileges fuse be turned off.

export const APP_SCHEME = 'app'
export const APP_HOST = 'tandem'
/** The window's one document; the console routes by hash (`#/stores`) within it. */
export const APP_LOCATION = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * Registered before the app is ready. Standard: relative URLs resolve and the pages get an origin,
 * which `'self'` in the policy and the pdf.js module worker need. Secure: treated like https.
 * Fetch API: module scripts and the worker are fetched. Code cache: faster second launch.
 * Never bypassCSP. Never corsEnabled: Electron checks no Access-Control-Allow-Origin on a custom
 * scheme's answers, so it would let any origin read them; the document, its modules and its
 * worker all share the app://tandem origin and need no CORS.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
} as const

/** Electron's `protocol`, as far as serving the app needs it. */
export interface ProtocolPort {
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void
}

export function handleAppProtocol(protocol: ProtocolPort, options: StaticFilesOptions): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url)
    if (url.host !== APP_HOST) return plainAnswer(404, 'Not found')
    return serveStaticFile(request.method, url.pathname, options)
  })
}
