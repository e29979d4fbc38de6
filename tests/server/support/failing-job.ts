import { expect } from 'vitest'
import type { ServerUnderTest } from './server-under-test'

/**
 * A background job that fails at every run, as a real one can: the shop's app is uninstalled
 * while Shopify answers 500 to whether it is, which the uninstall's webhook job asks. The server
 * must listen on its public URL, for the emulator's webhook to reach it.
 */
export async function failingUninstall(server: ServerUnderTest, shop: string): Promise<void> {
  const tested = await server.app.inject({
    method: 'POST',
    url: '/admin-test-shop-connection',
    headers: server.asAdmin,
    payload: { shop },
  })
  expect(tested.json()).toMatchObject({ state: 'CONNECTED' })
  // Testing the connection registers the shop's webhooks, the uninstall's among them.
  await expect.poll(() => server.shopify.webhookSubscriptions(shop).length).toBe(5)
  server.shopify.script({
    operation: 'currentAppInstallation',
    shop,
    mode: 'error',
    status: 500,
    times: 1_000,
  })
  await server.shopify.uninstall(shop)
}

/** The message its job fails with. */
export const uninstallFailure = (shop: string) =>
  `Shopify did not answer AppInstalled for ${shop} (HTTP 500)`
