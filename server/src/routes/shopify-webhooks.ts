import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isIPv6 } from 'node:net'
import { SHOP_DOMAIN_PATTERN, type ShopType } from '@shared/contract'
import { webhookHmacValid } from '../adapters/commerce/shopify/shopify-hmac'
import { readWebhookPayload } from '../adapters/commerce/shopify/shopify-webhook-payloads'
import { subscribedTo, WEBHOOK_PATH } from '../adapters/commerce/shopify/shopify-webhooks'
import type { RouteDeps } from '../deps'
import { HttpError } from '../http/errors'
import { shopifyApp } from '../services/shop-connections'
import { acceptDelivery } from '../services/webhook-inbox'

// POST /webhooks/shopify: what connected shops tell Tandem. Authenticated by Shopify's signature
// of the raw body with the shop's client secret, not by an admin token. Anyone can post here, so
// the headers are checked before a byte of the body is read, bodies are bounded one by one, per
// client and all together while unauthenticated, and a signed body is believed only for its own
// topic.
// A checked delivery is recorded with its job before it is answered (services/webhook-inbox.ts),
// and acted on by that job: Shopify gives up on an answer slower than 5 s, and repeats a delivery
// under the same X-Shopify-Webhook-Id, which is then ignored.

/**
 * Shopify documents no cap for HTTPS deliveries; its EventBridge deliveries stop at 1,000,000
 * bytes (a larger resource is sent as `{"id": …}` there). A product at Shopify's 2,048-variant
 * limit is about 2 MB of REST JSON, so 4 MB holds every body Tandem subscribes to, with room.
 */
export const WEBHOOK_BODY_LIMIT = 4_000_000

/**
 * How many bytes of bodies not yet verified may be held at once: eight bodies at the limit, or
 * thousands of ordinary ones (a few KB). Past it a delivery is answered 503, which Shopify
 * retries (up to 8 times over 4 hours), so a flood of unsigned bodies delays deliveries rather
 * than exhausting memory.
 */
export const UNVERIFIED_BYTES_BUDGET = 8 * WEBHOOK_BODY_LIMIT

/**
 * The part of the budget one client may hold (an IPv4 address, an IPv6 /64): Shopify delivers
 * from many addresses, so a caller that holds its share, sending heads and no bodies, keeps no
 * one else out.
 */
export const UNVERIFIED_BYTES_PER_CLIENT = 2 * WEBHOOK_BODY_LIMIT

/**
 * Shopify stops waiting for the answer 5 s after it starts sending: a body still arriving then
 * is nobody's delivery any more, and its connection is closed, its bytes given back.
 */
export const UNVERIFIED_BODY_DEADLINE_MS = 5000

const BAD_SIGNATURE =
  'The webhook is not signed by Shopify with the app of the shop it names (X-Shopify-Hmac-Sha256)'

const BUSY =
  'Tandem is receiving too many webhook bodies at once: Shopify sends this one again later'

/** What the headers said, checked before the body was read. */
interface Delivery {
  shop: string
  topic: string
  webhookId: string
  signature: string
  clientSecret: string
  shopType: ShopType
}

export function registerShopifyWebhookRoute(app: FastifyInstance, deps: RouteDeps): void {
  let unverifiedBytes = 0
  const heldByClient = new Map<string, number>()
  const holds = new WeakMap<FastifyRequest, { release: () => void; arrived: () => void }>()

  /**
   * Counts the body against the budget and its client's share until it is answered; refuses it
   * past either, and closes its connection if it has not arrived by the deadline.
   */
  function reserveBody(request: FastifyRequest, reply: FastifyReply) {
    const declared = Number(request.headers['content-length'])
    if (declared > WEBHOOK_BODY_LIMIT) {
      throw new HttpError(413, `A webhook body is at most ${WEBHOOK_BODY_LIMIT} bytes`)
    }
    // A body without Content-Length (chunked) may grow to the limit: it is counted as such.
    const reserved = Number.isInteger(declared) && declared >= 0 ? declared : WEBHOOK_BODY_LIMIT
    const client = clientOf(request.ip)
    const clientHeld = heldByClient.get(client) ?? 0
    if (
      unverifiedBytes + reserved > UNVERIFIED_BYTES_BUDGET ||
      clientHeld + reserved > UNVERIFIED_BYTES_PER_CLIENT
    ) {
      request.log.warn(
        { reserved, unverifiedBytes, clientHeld },
        'a webhook refused: too many bodies at once',
      )
      void reply.header('retry-after', '5')
      throw new HttpError(503, BUSY)
    }
    unverifiedBytes += reserved
    heldByClient.set(client, clientHeld + reserved)
    const late = setTimeout(() => request.raw.destroy(), UNVERIFIED_BODY_DEADLINE_MS)
    // Given back once, when the answer is sent or the connection dropped, whichever is first.
    let held = true
    const release = () => {
      clearTimeout(late)
      if (!held) return
      held = false
      unverifiedBytes -= reserved
      const left = (heldByClient.get(client) ?? reserved) - reserved
      if (left > 0) heldByClient.set(client, left)
      else heldByClient.delete(client)
    }
    reply.raw.once('close', release)
    holds.set(request, { release, arrived: () => clearTimeout(late) })
  }

  // In a scope of its own: only here is JSON kept as the bytes Shopify signed.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    )
    scope.decorateRequest('shopifyDelivery', null)

    // onRequest runs before the content-type parser reads the body: a caller that is not a
    // configured shop's Shopify, or that would overrun the budget, is answered without it.
    scope.addHook('onRequest', async (request, reply) => {
      try {
        request.shopifyDelivery = await deliveryOf(request, deps)
        reserveBody(request, reply)
      } catch (error) {
        // Closed after the answer: the body still coming is dropped, not read and thrown away.
        if (error instanceof HttpError) void reply.header('connection', 'close')
        throw error
      }
    })
    // preValidation runs once the body is read: it arrived in time.
    scope.addHook('preValidation', async (request) => holds.get(request)?.arrived())
    scope.addHook('onResponse', async (request) => holds.get(request)?.release())

    scope.post(WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const delivery = request.shopifyDelivery
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      if (!delivery || !webhookHmacValid(body, delivery.signature, delivery.clientSecret)) {
        throw new HttpError(401, BAD_SIGNATURE)
      }
      const { shop, topic, webhookId, shopType } = delivery
      if (!subscribedTo(shopType, topic)) {
        const type = shopType.toLowerCase()
        throw new HttpError(
          400,
          `Tandem does not subscribe ${type} shops to ${topic} (X-Shopify-Topic)`,
        )
      }
      const read = readWebhookPayload(shop, topic, body)
      if ('refusal' in read) {
        // Signed, yet not what Shopify sends for the topic: a body relabelled by someone else.
        request.log.warn({ shop, topic, webhookId }, read.refusal)
        throw new HttpError(400, read.refusal)
      }
      // What previews kept of the shop may be what this changes (a price, an order's refund).
      deps.previewCache.forgetShop(shop)
      if (!(await acceptDelivery(deps, { webhookId, shop, topic, body }))) {
        return reply.send({ received: 'again, ignored' })
      }
      return reply.send({ received: true })
    })
  })
}

/**
 * The delivery the headers describe, with the secret that must have signed it; refuses a request
 * that lacks Shopify's headers or names a shop Tandem has no app config for.
 */
async function deliveryOf(request: FastifyRequest, deps: RouteDeps): Promise<Delivery> {
  const header = (name: string) => {
    const value = request.headers[name]
    return typeof value === 'string' ? value : undefined
  }
  const shop = header('x-shopify-shop-domain') ?? ''
  const signature = header('x-shopify-hmac-sha256')
  if (!signature || !SHOP_DOMAIN_PATTERN.test(shop)) throw new HttpError(401, BAD_SIGNATURE)
  const topic = header('x-shopify-topic')
  const webhookId = header('x-shopify-webhook-id')
  if (!webhookId || !topic) {
    throw new HttpError(400, 'X-Shopify-Webhook-Id and X-Shopify-Topic are required')
  }
  // A stored secret that does not open throws SecretUnreadableError: src/http answers an
  // unsigned caller 503 (Shopify retries) and logs the reason.
  const config = await shopifyApp(deps, shop)
  if (!config) throw new HttpError(401, BAD_SIGNATURE)
  const { clientSecret, shopType } = config
  return { shop, topic, webhookId, signature, clientSecret, shopType }
}

/**
 * The client a share is counted for: an IPv4 address (also when written as IPv6), or the /64 of
 * an IPv6 one, which one host is usually given whole.
 */
function clientOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1]
  if (mapped || !isIPv6(ip)) return mapped ?? ip
  const [head = '', tail] = (ip.split('%')[0] ?? '').split('::')
  const groups = (part: string | undefined) => (part ? part.split(':') : [])
  const left = groups(head)
  const missing = 8 - left.length - groups(tail).length
  const full = [...left, ...Array<string>(Math.max(missing, 0)).fill('0'), ...groups(tail)]
  return `${full
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The webhook's headers, checked before its body is read; null elsewhere. */
    shopifyDelivery: Delivery | null
  }
}
