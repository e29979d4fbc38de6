import { describe, expect, it } from 'vitest'
import { APP_LOCATION } from '../../src/main/services/app-protocol'
import {
  contentSecurityPolicy,
  decideNavigation,
  isAppUrl,
  isSafeExternalUrl,
  isTrustedSender,
  permissionAllowed,
  WINDOW_PREFERENCES,
} from '../../src/main/security'

const PACKAGED = APP_LOCATION
const DEV = 'http://localhost:5173'

describe('isAppUrl', () => {
  it('accepts the dev server origin on any path', () => {
    expect(isAppUrl('http://localhost:5173/', DEV)).toBe(true)
    expect(isAppUrl('http://localhost:5173/stores?x=1#top', DEV)).toBe(true)
    expect(isAppUrl('HTTP://LOCALHOST:5173/', DEV)).toBe(true)
  })

  it('refuses other origins that look like the dev server', () => {
    for (const url of [
      'http://localhost:5174/',
      'https://localhost:5173/',
      'http://127.0.0.1:5173/',
      'http://localhost.evil.test:5173/',
      'http://localhost:5173@evil.test/',
      'http://user:pass@localhost:5173/',
      'ws://localhost:5173/',
      'file:///etc/passwd',
    ]) {
      expect(isAppUrl(url, DEV), url).toBe(false)
    }
  })

  it('is app://tandem/index.html when built', () => {
    expect(PACKAGED).toBe('app://tandem/index.html')
  })

  it('accepts the built document with any route', () => {
    expect(isAppUrl(PACKAGED, PACKAGED)).toBe(true)
    expect(isAppUrl(`${PACKAGED}#/stores/northwind`, PACKAGED)).toBe(true)
    expect(isAppUrl(`${PACKAGED}?theme=dark`, PACKAGED)).toBe(true)
  })

  it('refuses every other URL, under the app scheme or not', () => {
    for (const url of [
      'app://tandem/assets/index.js',
      'app://tandem/',
      'app://tandem/other.html',
      'app://tandem/index.html/',
      'app://tandem/%69ndex.html',
      'app://tandem/assets/../index.htm',
      'app://tandem:1/index.html',
      'app://evil/index.html',
      'app://tandem.evil.test/index.html',
      'app://user@tandem/index.html',
      'app:/tandem/index.html',
      'app:tandem/index.html',
      'file:///index.html',
      'file://tandem/index.html',
      'https://tandem/index.html',
      // Where the packaged document used to load from: no longer the app.
      'file:///opt/Tandem%20Admin/resources/app.asar/out/renderer/index.html',
      'app://tandem/%E0%A4%A',
      'http://localhost:5173/',
      'about:blank',
      'javascript:alert(1)',
      '',
      'not a url',
    ]) {
      expect(isAppUrl(url, PACKAGED), url).toBe(false)
    }
  })

  it('refuses URLs the parser would have to clean up first', () => {
    expect(isAppUrl(` ${PACKAGED}`, PACKAGED)).toBe(false)
    expect(isAppUrl(`${DEV}/\n`, DEV)).toBe(false)
  })

  it('trusts nothing when the app location itself is not the app scheme or a web URL', () => {
    expect(isAppUrl('about:blank', 'about:blank')).toBe(false)
    expect(isAppUrl('data:text/html,x', 'data:text/html,x')).toBe(false)
    expect(isAppUrl('anything', 'garbage')).toBe(false)
  })
})

describe('decideNavigation', () => {
  it('keeps in-app navigation in the window', () => {
    expect(decideNavigation(`${PACKAGED}#/configs`, PACKAGED)).toBe('allow')
    expect(decideNavigation('http://localhost:5173/stores', DEV)).toBe('allow')
  })

  it('sends web links to the OS browser', () => {
    expect(decideNavigation('https://admin.shopify.com/store/x', PACKAGED)).toBe('open-external')
    expect(decideNavigation('http://localhost:5174/', DEV)).toBe('open-external')
  })

  it('refuses scripts, data, files outside the app, custom schemes and junk', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'java\nscript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'blob:file:///1234',
      'file:///etc/passwd',
      'file:///C:/Windows/System32/calc.exe',
      'file://evil.test/share/payload.html',
      'vbscript:msgbox(1)',
      'ms-msdt:/id PCWDiagnostic',
      'smb://evil.test/share',
      'tandem://callback',
      'chrome://settings',
      'devtools://devtools/bundled/inspector.html',
      'about:blank',
      'mailto:someone@example.com',
      '//evil.test',
      '/etc/passwd',
      'https://user:pass@example.com/',
      '',
    ]) {
      expect(decideNavigation(url, PACKAGED), url).toBe('deny')
    }
  })
})

describe('isSafeExternalUrl', () => {
  it('accepts plain web links', () => {
    expect(isSafeExternalUrl('https://example.com')).toBe(true)
    expect(isSafeExternalUrl('https://northwind-apparel.myshopify.com/admin?x=1#y')).toBe(true)
    expect(isSafeExternalUrl('http://127.0.0.1:8787/apps/tandem')).toBe(true)
    expect(isSafeExternalUrl('HTTPS://EXAMPLE.COM/')).toBe(true)
  })

  it('refuses credentials, odd spellings, whitespace and look-alike hosts', () => {
    for (const url of [
      'http://user:pass@example.com',
      'https://example.com@evil.test/',
      'https://user@example.com/',
      ' https://example.com',
      'https://example.com ',
      'https://exa\tmple.com',
      'https://example.com/\nSet-Cookie:x',
      '//evil.test',
      'https:evil.test',
      'https:\\\\evil.test',
      'https:/evil.test',
      'https://',
      'https://exampl\u0435.com',
      'https://xn--exampl-8of.com',
      'https://пример.рф/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'ftp://example.com',
      'data:text/html,hi',
      'http://[::1',
      '',
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false)
    }
  })
})

describe('isTrustedSender', () => {
  it('trusts only the app document', () => {
    expect(isTrustedSender(`${PACKAGED}#/`, PACKAGED)).toBe(true)
    expect(isTrustedSender('http://localhost:5173/', DEV)).toBe(true)
  })

  it('refuses other frames', () => {
    for (const url of [
      'about:blank',
      'about:srcdoc',
      'data:text/html,hi',
      'https://evil.test/',
      'http://localhost:5173.evil.test/',
      'file:///tmp/evil.html',
      '',
    ]) {
      expect(isTrustedSender(url, PACKAGED) || isTrustedSender(url, DEV), url).toBe(false)
    }
  })
})

describe('permissionAllowed', () => {
  it('grants nothing', () => {
    for (const permission of [
      'clipboard-read',
      'clipboard-sanitized-write',
      'media',
      'geolocation',
      'notifications',
      'fullscreen',
      'openExternal',
      'unknown',
    ]) {
      expect(permissionAllowed(permission), permission).toBe(false)
    }
  })
})

describe('contentSecurityPolicy', () => {
  const directives = (policy: string) =>
    new Map(
      policy.split('; ').map((directive) => {
        const [name = '', ...sources] = directive.split(' ')
        return [name, sources]
      }),
    )

  it('is strict for a built renderer, with the backend as an image source', () => {
    const policy = directives(
      contentSecurityPolicy({ apiUrl: 'https://api.tandem.example/v1', dev: false }),
    )
    expect(Object.fromEntries(policy)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': [
        "'self'",
        'data:',
        'blob:',
        'https://cdn.shopify.com',
        'https://api.tandem.example',
      ],
      'connect-src': ["'self'"],
      'worker-src': ["'self'", 'blob:'],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'none'"],
    })
  })

  it('lets the dev server run its React Refresh preamble and HMR socket', () => {
    const policy = directives(
      contentSecurityPolicy({ apiUrl: 'http://127.0.0.1:8787', dev: 'http://localhost:5173/' }),
    )
    expect(policy.get('script-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://localhost:5173'])
    expect(policy.get('img-src')).toContain('http://127.0.0.1:8787')
  })

  it('leaves out a backend URL that could inject directives or is not a web origin', () => {
    for (const apiUrl of [
      "http://a;script-src 'unsafe-inline'",
      'http://a;b.test',
      'http://a%3bb.test',
      'http://a*b.test',
      "https://x.test' 'unsafe-eval",
      'javascript:alert(1)',
      'data:image/png;base64,AA',
      'https://user:pass@api.test',
      'not a url',
    ]) {
      const policy = contentSecurityPolicy({ apiUrl, dev: false })
      expect(directives(policy).get('img-src'), apiUrl).toEqual([
        "'self'",
        'data:',
        'blob:',
        'https://cdn.shopify.com',
      ])
      expect(policy.split('; '), apiUrl).toHaveLength(10)
    }
  })

  it('accepts IPv6 and ported backends', () => {
    const policy = directives(contentSecurityPolicy({ apiUrl: 'http://[::1]:8787/', dev: false }))
    expect(policy.get('img-src')).toContain('http://[::1]:8787')
  })
})

describe('the window preferences', () => {
  it('keep Node out of the page and turn on every web protection', () => {
    expect(WINDOW_PREFERENCES).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    })
  })
})
