import { expect, inject, it } from 'vitest'
import { oneServerProcess } from './support/server-process'
import { idToken } from './support/server-under-test'

// A stop during a deploy: SIGTERM while a transfer is half way through its remote calls. The
// server takes no new request, finishes that one (money half-moved is the worst moment to leave),
// and exits 0.

const server = oneServerProcess()

it('finishes the transfer in flight on SIGTERM, refuses new requests, and exits 0', async () => {
  const token = await idToken(inject('authEmulatorUrl'), inject('authProjectId'), {
    email: 'shutdown-admin@tandem.test',
    admin: true,
  })
  // Stops just before the first Stripe transfer until SIGUSR2: the request is then in flight.
  const running = await server.start({ failpoints: 'createTransfer:before-call=pause' })
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
  expect(server.stripe().transfers()).toHaveLength(2)
  expect(await running.exited).toEqual({ code: 0, signal: null })
  expect(running.output()).toContain('Stopped')
})
