// What the window may load, navigate to, open and ask for. Pure functions over strings, so the
// rules are tested with hostile input and shared with the browser host (its CSP).
//
// `appLocation` names the window's own renderer: the dev server's origin
// (`http://localhost:5173`) or the built document (`app://tandem/index.html`, app-protocol.ts).

import { APP_SCHEME } from './services/app-protocol'

export type NavigationDecision = 'allow' | 'deny' | 'open-external'

/**
 * Parses a URL only when it is written out plainly. The URL parser silently drops surrounding
 * spaces and embedded tabs and newlines (`java\nscript:` is `javascript:`), so a string that
 * needs that cleaning is refused rather than guessed at.
 */
function parsePlainUrl(url: string): URL | null {
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return null
  try {
    return new URL(url)
  } catch {
    return null
  }
}

const isHttp = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:'
const hasCredentials = (url: URL) => url.username !== '' || url.password !== ''

/** True for the window's own renderer and nothing else. */
export function isAppUrl(url: string, appLocation: string): boolean {
  const app = parsePlainUrl(appLocation)
  const candidate = parsePlainUrl(url)
  if (!app || !candidate || hasCredentials(candidate)) return false
  if (isHttp(app)) return candidate.origin === app.origin
  // The built document itself (any #route or ?query), spelled as the window loads it: not its
  // assets, not another page under the scheme, never a file:// page.
  return (
    app.protocol === `${APP_SCHEME}:` &&
    candidate.protocol === app.protocol &&
    candidate.host === app.host &&
    candidate.port === '' &&
    candidate.pathname === app.pathname
  )
}

/**
 * The OS browser receives only plain http(s) links to a named host: no credentials (which phish
 * as `https://bank.com@evil.test`), no internationalized host (a look-alike of a real one), no
 * spelling the parser has to repair (`https:evil.test`, `https:\\evil.test`).
 */
export function isSafeExternalUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false
  const parsed = parsePlainUrl(url)
  return (
    parsed !== null &&
    isHttp(parsed) &&
    !hasCredentials(parsed) &&
    parsed.hostname !== '' &&
    !parsed.hostname.split('.').some((label) => label.startsWith('xn--'))
  )
}

/** In-app navigation stays in the window; web links go to the OS browser; the rest is refused. */
export function decideNavigation(url: string, appLocation: string): NavigationDecision {
  if (isAppUrl(url, appLocation)) return 'allow'
  if (isSafeExternalUrl(url)) return 'open-external'
  return 'deny'
}

/**
 * Only the app's own document may call the main process: a frame that got elsewhere (an injected
 * iframe, a navigation that slipped through) is refused.
 */
export function isTrustedSender(frameUrl: string, appLocation: string): boolean {
  return isAppUrl(frameUrl, appLocation)
}

/**
 * The window's web preferences beside its preload (Electron's security checklist, docs/security.md): no
 * Node in the page, its workers or frames; isolated and sandboxed; web security on; no insecure
 * content, experimental features or webviews. Blink features are never enabled.
 */
export const WINDOW_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
} as const

/**
 * The app needs no web permission: the clipboard goes through the main process, and there is no
 * camera, notification, location or fullscreen to ask for.
 */
export function permissionAllowed(_permission: string): boolean {
  return false
}

/**
 * An http(s) origin fit to stand in a CSP: a host name, IPv4 or [IPv6] and a port, nothing
 * else. The URL parser accepts hosts like `a;b`, and a `;` would start a new directive.
 */
function cspOrigin(url: string): string | null {
  const parsed = parsePlainUrl(url)
  if (!parsed || !isHttp(parsed) || hasCredentials(parsed)) return null
  return /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/i.test(parsed.origin)
    ? parsed.origin
    : null
}

const SHOPIFY_CDN = 'https://cdn.shopify.com'

export interface CspOptions {
  /** The backend: product images come from it. */
  apiUrl: string
  /** The dev server's URL while developing; false for a built renderer. */
  dev: string | false
}

export function contentSecurityPolicy({ apiUrl, dev }: CspOptions): string {
  const apiOrigin = cspOrigin(apiUrl)
  const devOrigin = dev === false ? null : cspOrigin(dev)
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // In development the React Refresh preamble is an inline module script; builds have none.
    'script-src': ["'self'", ...(devOrigin ? ["'unsafe-inline'"] : [])],
    // Mantine sets inline styles.
    'style-src': ["'self'", "'unsafe-inline'"],
    // Product images: the server's own (sandbox) and Shopify's CDN (real stores).
    'img-src': ["'self'", 'data:', 'blob:', SHOPIFY_CDN, ...(apiOrigin ? [apiOrigin] : [])],
    // The renderer calls the main process, never the network; the dev server adds its HMR socket.
    'connect-src': ["'self'", ...(devOrigin ? [devOrigin.replace(/^http/, 'ws')] : [])],
    // The pdf.js worker.
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  }
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ')
}
