import type { ServerUnderTest } from './server-under-test'

// The transfer calls as the console makes them, as an administrator, on the server a test runs
// (asked for at each call: tests start a fresh server per test).

export function transferCalls(server: () => ServerUnderTest) {
  return {
    preview: (creatorOrderId: string) =>
      server().app.inject({
        method: 'GET',
        url: `/admin-preview-order-transfer?creatorOrderId=${encodeURIComponent(creatorOrderId)}`,
        headers: server().asAdmin,
      }),
    processOrder: (creatorOrderId: string) =>
      server().app.inject({
        method: 'POST',
        url: '/admin-create-order-transfer',
        headers: server().asAdmin,
        payload: { creatorOrderId },
      }),
    acceptPriceException: (creatorOrderId: string, reason: string) =>
      server().app.inject({
        method: 'POST',
        url: '/admin-accept-price-exception',
        headers: server().asAdmin,
        payload: { creatorOrderId, reason },
      }),
  }
}
