import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Clients that hold the server's sockets without finishing a request (a slow-loris): one whose
// headers stop half way, one whose body never comes. Each is answered 408 and closed once the
// request time runs out (30 s in production, app.ts's REQUEST_TIMEOUT_MS; short here).

let server: ServerUnderTest
let port: number
beforeAll(async () => {
  server = await startServerUnderTest({ requestTimeoutMs: 400 })
  await server.app.listen({ host: '127.0.0.1', port: 0 })
  const address = server.app.server.address()
  port = typeof address === 'object' && address ? address.port : 0
})
afterAll(() => server.close())

/** Opens a connection, writes `sent`, and resolves with all that came back once it closed. */
function answerTo(sent: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(sent))
    let received = ''
    socket.on('data', (chunk) => (received += chunk.toString()))
    socket.on('close', () => resolve(received))
    socket.on('error', reject)
  })
}

it.each([
  ['headers that stop half way', 'POST /admin-set-default-commission-rate HTTP/1.1\r\nHost: t'],
  [
    // A webhook naming a configured shop: its signature is over the body, which must be read.
    'a body that never comes',
    'POST /webhooks/shopify HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n' +
      'X-Shopify-Shop-Domain: maya-makes.myshopify.com\r\nX-Shopify-Hmac-Sha256: AAAA\r\n' +
      'X-Shopify-Topic: orders/paid\r\nX-Shopify-Webhook-Id: 1\r\nContent-Length: 40\r\n\r\n{"id',
  ],
])('answers 408 to %s, and closes the connection', async (_name, sent) => {
  expect(await answerTo(sent)).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
})

it('answers a whole request as usual', async () => {
  const answer = await answerTo('GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n')
  expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
  expect(answer).toContain('{"status":"ok"}')
})
