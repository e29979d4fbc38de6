import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { startShopifyEmulator, type ShopifyEmulator } from '../../emulators/shopify/emulator'
import { startStripeEmulator, type StripeEmulator } from '../../emulators/stripe/emulator'
import {
  buildServer,
  freshSharedDatabase,
  startServerProcess,
  type ServerProcess,
  type SharedDatabase,
} from './support/server-process'
import { idToken } from './support/server-under-test'

// A stop during a deploy: SIGTERM while a transfer is half way through its remote calls. The
// server takes no new request, finishes that one (money half-moved is the worst moment to leave),
// and exits 0.

let server: Awaited<ReturnType<typeof buildServer>>
let database: SharedDatabase
let shopify: ShopifyEmulator
let stripe: StripeEmulator
let running: ServerProcess | undefined
beforeAll(async () => {
  server = await buildServer()
  database = await freshSharedDatabase()
  shopify = await startShopifyEmulator({ imageBaseUrl: 'http://127.0.0.1' })
  stripe = await startStripeEmulator()
})
afterAll(async () => {
  await running?.stop()
  await database?.remove()
  await shopify?.close()
  await stripe?.close()
  server?.remove()
}, 30_000)

it('finishes the transfer in flight on SIGTERM, refuses new requests, and exits 0', async () => {
  const token = await idToken(inject('authEmulatorUrl'), inject('authProjectId'), {
    email: 'shutdown-admin@tandem.test',
    admin: true,
  })
  running = await startServerProcess({
    entry: server.entry,
    database,
    shopifyEndpoint: shopify.url,
    stripe: { endpoint: stripe.url, secretKey: stripe.secretKey },
    // Stops just before the first Stripe transfer until SIGUSR2: the request is then in flight.
    failpoints: 'createTransfer:before-call=pause',
  })
  const processing = fetch(`${running.url}/admin-create-order-transfer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ creatorOrderId: '1001' }),
  })
  await running.line(/^failpoint createTransfer:before-call: pause$/)

  running.child.kill('SIGTERM')
  await running.line(/SIGTERM: finishing the requests in flight, then stopping/)
  // No new request is taken while the one in flight finishes.
  const late = await fetch(`${running.url}/healthz`).then(
    (response) => `answered ${response.status}`,
    () => 'refused',
  )
  expect(late).not.toBe('answered 200')

  running.child.kill('SIGUSR2')
  const response = await processing
  expect(response.status).toBe(201)
  const body = (await response.json()) as { status: string }
  expect(body.status).toBe('COMPLETED')
  expect(stripe.transfers()).toHaveLength(2)
  expect(await running.exited).toEqual({ code: 0, signal: null })
  expect(running.output()).toContain('Stopped')
})
