import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { BROWSER_HOST } from '@shared/ipc'
import { decodeWire } from '@shared/wire'
import { upsertEmulatorUser } from '../../scripts/lib/auth-emulator'
import { startBrowserHost, type BrowserHost } from '../../src/browser-host/host'
import { RecordingClipboard } from '../../src/browser-host/node-ports'
import { LOCAL_DEFAULTS } from '../../src/main/services/settings/build-environment'
import { recordingLogger } from './fakes'

let host: BrowserHost
let folder: string
let key: string
const clipboard = new RecordingClipboard(recordingLogger())
const hostLog = recordingLogger()

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'tandem-host-test-'))
  const rendererDir = join(folder, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), `<!doctype html><title>Tandem Admin</title>`)
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(folder, 'secret.txt'), 'outside the renderer')
  host = await startBrowserHost({
    port: 0,
    rendererDir,
    dataDir: join(folder, 'data'),
    buildEnvironment: LOCAL_DEFAULTS,
    log: hostLog,
    clipboard,
  })
  key = new URL(host.url).searchParams.get(BROWSER_HOST.keyParam) ?? ''
})

afterAll(async () => {
  await host.close()
  rmSync(folder, { recursive: true, force: true })
})

/** A raw request, so that Host and Origin can be anything a hostile page could send. */
function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  target = host,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(target.origin)
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

const invoke = (
  channel: string,
  args: unknown,
  headers: Record<string, string> = {},
  target = host,
) =>
  send(
    BROWSER_HOST.invokePath + channel,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [BROWSER_HOST.keyHeader]: new URL(target.url).searchParams.get(BROWSER_HOST.keyParam) ?? '',
        origin: target.origin,
        ...headers,
      },
      body: JSON.stringify({ args }),
    },
    target,
  )

describe('browser host', () => {
  it('listens on 127.0.0.1 only and gives a URL that carries its key', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?key=[\w-]{43}#\/signin$/)
  })

  it('serves the console through the static files function, with its policy for this backend', async () => {
    const page = await send('/')
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>Tandem Admin</title>')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['content-security-policy']).toContain('img-src')
    expect(page.headers['content-security-policy']).toContain(LOCAL_DEFAULTS.apiUrl)
    expect((await send('/assets/app.js')).headers['content-type']).toBe(
      'text/javascript; charset=utf-8',
    )
  })

  it('never serves a file outside the built renderer', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%5csecret.txt']) {
      const answer = await send(path)
      expect(answer.status, path).toBe(404)
      expect(answer.body).not.toContain('outside the renderer')
    }
  })

  it('answers a malformed address with 400, not a server error', async () => {
    for (const path of ['/%E0%A4%A', '/assets/%zz.js', '/%']) {
      const answer = await send(path)
      expect(answer.status, path).toBe(400)
      expect(answer.body).toBe('Bad request')
    }
    expect(hostLog.lines.filter((line) => line.startsWith('error'))).toEqual([])
  })

  it('answers the handler map to a caller with the key', async () => {
    const answer = await invoke('session/status', undefined)
    expect(answer.status).toBe(200)
    expect(decodeWire(answer.body)).toEqual({ ok: true, value: { signedIn: false, email: null } })
  })

  it('refuses callers without the key, from another origin, or through another host name', async () => {
    expect(
      (await invoke('session/status', undefined, { [BROWSER_HOST.keyHeader]: '' })).status,
    ).toBe(403)
    expect(
      (await invoke('session/status', undefined, { [BROWSER_HOST.keyHeader]: 'x'.repeat(43) }))
        .status,
    ).toBe(403)
    expect(
      (await invoke('session/status', undefined, { origin: 'http://evil.example' })).status,
    ).toBe(403)
    expect((await invoke('session/status', undefined, { host: 'evil.example' })).status).toBe(421)
    expect(
      (await send('/', { headers: { host: `rebound.example:${new URL(host.origin).port}` } }))
        .status,
    ).toBe(421)
    expect((await send(`${BROWSER_HOST.eventsPath}?key=wrong`)).status).toBe(403)
  })

  it('refuses bodies that are not JSON or too large, and bad arguments with a sentence', async () => {
    expect(
      (await invoke('session/status', undefined, { 'content-type': 'text/plain' })).status,
    ).toBe(415)
    const huge = await invoke('clipboard/writeText', { text: 'x'.repeat(1_100_000) })
    expect(huge.status).toBe(413)
    const malformed = await send(BROWSER_HOST.invokePath + 'clipboard/writeText', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [BROWSER_HOST.keyHeader]: key },
      body: '{"args": {',
    })
    expect(decodeWire(malformed.body)).toMatchObject({ ok: false })
    expect(clipboard.history).toEqual([])
  })

  it('copies to its clipboard port exactly what it is given', async () => {
    const text = 'https://a.example/x, https://b.example/y'
    expect(decodeWire((await invoke('clipboard/writeText', { text })).body)).toEqual({ ok: true })
    expect(clipboard.last).toBe(text)
  })
})

describe('browser host in watch mode (npm run dev:web)', () => {
  let watching: BrowserHost
  let sources: string

  beforeAll(async () => {
    // As in the repository: the sources beside the stack's data folder, under a package.json
    // (which Vite would otherwise take for the root it serves files from).
    sources = join(folder, 'src')
    mkdirSync(sources)
    mkdirSync(join(folder, '.tandem'))
    writeFileSync(join(folder, 'package.json'), '{}')
    writeFileSync(join(folder, '.tandem', 'secret.key'), 'the stack secret')
    writeFileSync(
      join(sources, 'index.html'),
      `<!doctype html><title>Tandem Admin</title><script type="module" src="./main.js"></script>`,
    )
    writeFileSync(join(sources, 'main.js'), `export const edit = 1`)
    watching = await startBrowserHost({
      port: 0,
      rendererDir: join(folder, 'renderer'),
      dataDir: join(folder, 'watch-data'),
      buildEnvironment: { ...LOCAL_DEFAULTS, authEmulatorUrl: inject('authEmulatorUrl') },
      log: recordingLogger(),
      clipboard,
      watch: {
        root: sources,
        logLevel: 'silent',
        cacheDir: join(folder, 'vite-cache'),
        server: { fs: { allow: [sources] } },
      },
    })
  })

  afterAll(() => watching.close())

  it("serves the renderer's sources through Vite, edits included, with the development policy", async () => {
    const page = await send('/', {}, watching)
    expect(page.status).toBe(200)
    expect(page.body).toContain('/@vite/client')
    const policy = page.headers['content-security-policy']
    expect(policy).toContain("script-src 'self' 'unsafe-inline'")
    expect(policy).toContain(watching.origin.replace(/^http/, 'ws'))
    writeFileSync(join(sources, 'main.js'), `export const edit = 2`)
    await expect.poll(async () => (await send('/main.js', {}, watching)).body).toContain('edit = 2')
  })

  it('serves nothing outside the folders it is allowed, the data folder least', async () => {
    for (const file of [join(folder, 'secret.txt'), join(folder, '.tandem', 'secret.key')]) {
      const answer = await send(`/@fs${file}`, {}, watching)
      expect(answer.status, file).toBe(403)
      expect(answer.body).not.toMatch(/outside the renderer|the stack secret/)
    }
  })

  it('keeps the signed-in session when the page reloads with its key', async () => {
    const email = `watch-${randomUUID().slice(0, 8)}@example.com`
    await upsertEmulatorUser(inject('authEmulatorUrl'), inject('authProjectId'), {
      email,
      password: 'watch-password',
      admin: true,
    })
    const signedIn = { ok: true, value: { signedIn: true, email } }
    const signIn = await invoke(
      'session/signIn',
      { email, password: 'watch-password' },
      {},
      watching,
    )
    expect(decodeWire(signIn.body)).toEqual(signedIn)
    // A reload: the page again, then its first call with the key its address still carries.
    expect((await send('/', {}, watching)).status).toBe(200)
    expect(decodeWire((await invoke('session/status', undefined, {}, watching)).body)).toEqual(
      signedIn,
    )
  })
})
