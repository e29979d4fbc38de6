import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_HOST } from '@shared/ipc'
import { decodeWire } from '@shared/wire'
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
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(host.origin)
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

const invoke = (channel: string, args: unknown, headers: Record<string, string> = {}) =>
  send(BROWSER_HOST.invokePath + channel, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [BROWSER_HOST.keyHeader]: key,
      origin: host.origin,
      ...headers,
    },
    body: JSON.stringify({ args }),
  })

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
