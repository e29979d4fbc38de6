import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  APP_LOCATION,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  handleAppProtocol,
  type ProtocolPort,
} from '../../src/main/services/app-protocol'
import { serveStaticFile, type StaticFilesOptions } from '../../src/main/services/static-files'

// The one function both the installed app (app://) and the browser host (HTTP) serve the built
// renderer with, and the app:// handler as Electron's protocol module would call it.

let folder: string
let options: StaticFilesOptions
let policy = "default-src 'self'"

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'tandem-static-test-'))
  const root = join(folder, 'renderer')
  mkdirSync(join(root, 'assets', 'nested'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Tandem Admin</title>')
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(root, 'assets', 'pdf.worker.min.mjs'), 'self.onmessage = () => {}')
  writeFileSync(join(root, 'assets', 'app.css'), 'body{}')
  writeFileSync(join(root, 'assets', 'logo.png'), 'png')
  writeFileSync(join(root, 'assets', 'font.woff2'), 'woff2')
  writeFileSync(join(root, 'assets', 'data.weird'), 'weird')
  writeFileSync(join(folder, 'secret.txt'), 'outside the renderer')
  // A sibling whose name starts like the root's: a prefix test alone would let it through.
  mkdirSync(join(folder, 'renderer-private'))
  writeFileSync(join(folder, 'renderer-private', 'secret.txt'), 'outside the renderer')
  options = { root, policy: () => policy }
})

afterAll(() => rmSync(folder, { recursive: true, force: true }))

const get = (path: string, method = 'GET') => serveStaticFile(method, path, options)

describe('serveStaticFile', () => {
  it('serves the document at / and by name, with its policy and framing refused', async () => {
    for (const path of ['/', '/index.html']) {
      const answer = await get(path)
      expect(answer.status, path).toBe(200)
      expect(await answer.text()).toBe('<!doctype html><title>Tandem Admin</title>')
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'self'")
      expect(answer.headers.get('x-frame-options')).toBe('DENY')
      expect(answer.headers.get('cache-control')).toBe('no-store')
    }
  })

  it('reads the policy at each request: it names the backend of this launch', async () => {
    policy = "default-src 'self'; img-src https://api.tandem.example"
    expect((await get('/')).headers.get('content-security-policy')).toBe(policy)
    policy = "default-src 'self'"
  })

  it('types each file by its extension, and anything else as bytes', async () => {
    const types: Record<string, string> = {
      '/assets/app.js': 'text/javascript; charset=utf-8',
      '/assets/pdf.worker.min.mjs': 'text/javascript; charset=utf-8',
      '/assets/app.css': 'text/css; charset=utf-8',
      '/assets/logo.png': 'image/png',
      '/assets/font.woff2': 'font/woff2',
      '/assets/data.weird': 'application/octet-stream',
    }
    for (const [path, type] of Object.entries(types)) {
      const answer = await get(path)
      expect(answer.status, path).toBe(200)
      expect(answer.headers.get('content-type'), path).toBe(type)
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff')
      // Assets carry no document policy: the document's governs them.
      expect(answer.headers.get('content-security-policy'), path).toBeNull()
    }
  })

  it('decodes escapes in names it serves', async () => {
    expect(await (await get('/assets/%61pp.js')).text()).toBe('console.log(1)')
  })

  it('never serves a file outside the root, however the path is written', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/../renderer-private/secret.txt',
      '/%2e%2e%2frenderer-private%2fsecret.txt',
      '//secret.txt',
      '/index.html%00.txt',
      '/%00',
    ]) {
      const answer = await get(path)
      expect(answer.status, path).toBe(404)
      expect(await answer.text(), path).not.toContain('outside the renderer')
    }
  })

  it('answers 404 for names Windows opens as devices or streams, in any folder', async () => {
    // On Windows, reading `…\renderer\CON` waits on the console; `index.html:x` opens a stream.
    // Here they are ordinary files, which the guard alone keeps from being served.
    const names = ['CON', 'nul.txt', 'assets/aux.js', 'assets/Com1 .js', 'LPT¹', 'conin$']
    const streams = ['index.html::$DATA', 'assets/app.js:stream', 'C:/win.ini']
    mkdirSync(join(options.root, 'C:'))
    for (const name of [...names, ...streams]) writeFileSync(join(options.root, name), 'device')
    for (const name of [...names, ...streams]) {
      const answer = await get(`/${encodeURI(name)}`)
      expect(answer.status, name).toBe(404)
      expect(await answer.text(), name).toBe('Not found')
    }
    // Names that only begin like a device are files like any other.
    writeFileSync(join(options.root, 'assets', 'console-4f2a.js'), 'console.log(2)')
    expect(await (await get('/assets/console-4f2a.js')).text()).toBe('console.log(2)')
  })

  it('answers 404 for what is not there, folders included', async () => {
    for (const path of ['/missing.js', '/assets/', '/assets', '/assets/nested', '/stores']) {
      const answer = await get(path)
      expect(answer.status, path).toBe(404)
      expect(await answer.text()).toBe('Not found')
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  it('answers a malformed escape with 400, never a server error', async () => {
    for (const path of ['/%E0%A4%A', '/%', '/assets/%zz.js', '/%C0%AF']) {
      const answer = await get(path)
      expect(answer.status, path).toBe(400)
      expect(await answer.text()).toBe('Bad request')
    }
  })

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('/assets/app.js', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await head.text()).toBe('')
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      expect((await get('/index.html', method)).status, method).toBe(405)
    }
  })
})

describe('the app:// protocol', () => {
  /** Electron's protocol module as far as the app uses it: one handler per scheme. */
  function fakeProtocol() {
    const handlers = new Map<string, (request: Request) => Promise<Response>>()
    const port: ProtocolPort = { handle: (scheme, handler) => handlers.set(scheme, handler) }
    const fetch = (url: string, init?: RequestInit) => {
      const handler = handlers.get(new URL(url).protocol.replace(/:$/, ''))
      if (!handler) throw new Error(`No handler for ${url}`)
      return handler(new Request(url, init))
    }
    return { port, handlers, fetch }
  }

  it('is registered privileged as a standard, secure scheme that no other origin may read', () => {
    expect(APP_SCHEME).toBe('app')
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ standard: true, secure: true })
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('bypassCSP')
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('corsEnabled')
    expect(APP_LOCATION).toBe('app://tandem/index.html')
  })

  it('answers the window document and its assets as the browser host does', async () => {
    const protocol = fakeProtocol()
    handleAppProtocol(protocol.port, options)
    expect([...protocol.handlers.keys()]).toEqual(['app'])
    for (const path of ['/index.html', '/assets/app.js', '/assets/pdf.worker.min.mjs', '/']) {
      const viaProtocol = await protocol.fetch(`app://tandem${path}`)
      const direct = await get(path)
      expect(viaProtocol.status, path).toBe(200)
      expect(Object.fromEntries(viaProtocol.headers), path).toEqual(
        Object.fromEntries(direct.headers),
      )
      expect(await viaProtocol.text(), path).toBe(await direct.text())
    }
    const document = await protocol.fetch(`${APP_LOCATION}#/stores`)
    expect(document.headers.get('content-security-policy')).toBe("default-src 'self'")
  })

  it('refuses another host, traversal, malformed escapes and writes', async () => {
    const protocol = fakeProtocol()
    handleAppProtocol(protocol.port, options)
    expect((await protocol.fetch('app://other/index.html')).status).toBe(404)
    expect((await protocol.fetch('app://tandem/%2e%2e/secret.txt')).status).toBe(404)
    expect((await protocol.fetch('app://tandem/..%5csecret.txt')).status).toBe(404)
    expect((await protocol.fetch('app://tandem/%E0%A4%A')).status).toBe(400)
    expect((await protocol.fetch(APP_LOCATION, { method: 'POST', body: 'x' })).status).toBe(405)
  })
})
