import { createHmac, randomUUID } from 'node:crypto'
import { sandboxApp } from '../../../server/src/seed/sandbox-data'
import type { ServerUnderTest } from './server-under-test'

// A webhook delivery as Shopify posts it: signed (X-Shopify-Hmac-Sha256, base64 HMAC-SHA256 of
// the raw body with the shop's client secret), sent without an admin token.

export const signBody = (body: string, secret: string) =>
  createHmac('sha256', secret).update(body).digest('base64')

/** Posts the body under Shopify's headers; a null signature leaves that header out. */
export const postWebhook = (
  server: ServerUnderTest,
  delivery: { shop: string; topic: string; body: string; signature: string | null; id?: string },
) =>
  server.app.inject({
    method: 'POST',
    url: '/webhooks/shopify',
    headers: {
      'content-type': 'application/json',
      'x-shopify-shop-domain': delivery.shop,
      'x-shopify-topic': delivery.topic,
      'x-shopify-webhook-id': delivery.id ?? randomUUID(),
      ...(delivery.signature === null ? {} : { 'x-shopify-hmac-sha256': delivery.signature }),
    },
    payload: delivery.body,
  })

/**
 * A delivery of `payload` signed with the shop's own client secret: what its owner, or Shopify, can
 * send. Under a new webhook id unless given (Shopify resends a delivery under its own).
 */
export function signedByShop(
  server: ServerUnderTest,
  shop: string,
  topic: string,
  payload: object,
  id?: string,
) {
  const body = JSON.stringify(payload)
  return postWebhook(server, {
    shop,
    topic,
    body,
    signature: signBody(body, sandboxApp(shop).clientSecret),
    ...(id ? { id } : {}),
  })
}
